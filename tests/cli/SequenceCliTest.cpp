// SequenceCliTest.cpp: HDR sequences end to end (frames/SequenceSource.h): `tonemap` on a %d pattern
// writes one PNG per frame, numbered like the input, and gives the same PNGs and flicker figure on
// two runs; a constant sequence reads exactly 0 EV/s for every operator; a damaged frame, a gap and
// a frame of another size stop the run with the file's name (what came before is written) or are
// skipped with a warning; `view` plays a folder and a glob headless, looping with --frames; a scene
// run's --hdr-sequence-out is a sequence tonemap takes back; `bench flicker --sequence` tables every
// operator and engine preset on it, with the cuts and the figure without the snap; two shots of the
// same size give one cut at the first frame of the second, printed and recorded, where the exposure
// snaps (or, with percentile.snap_at_cuts=false, ramps), and no false cut within the slowly brightening
// shots. Frames are 32x18 EXRs written here.
#include "cli/CliTestSupport.h"
#include "image/ImageIo.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <sstream>

namespace {

namespace fs = std::filesystem;
using cli_test::flickerLine;
using cli_test::flickerValue;
using cli_test::hdrlab;

constexpr int kWidth = 32, kHeight = 18;

/// A frame: a ramp over 6 EV across, a bright sky on top, the whole `ev` EV brighter.
image::ImageF frame(float ev, int width = kWidth, int height = kHeight)
{
    image::ImageF image(width, height);
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            float* p = image.at(x, y);
            p[0] = p[1] = p[2] = std::exp2(ev + (y < height / 3 ? 8.0f : 0.0f) + 6.0f * float(x) / float(width));
            p[3] = 1.0f;
        }
    return image;
}

std::string numbered(const char* pattern, int number)
{
    char name[64];
    std::snprintf(name, sizeof name, pattern, number);
    return name;
}

/// Frames 1..count of `pattern` in `dir`, brightening by `evPerFrame`.
void writeSequence(const fs::path& dir, const char* pattern, int count, float evPerFrame)
{
    fs::create_directories(dir);
    for (int i = 1; i <= count; ++i)
        image::writeExr(dir / numbered(pattern, i), frame(-2.0f + evPerFrame * float(i)), image::ExrPixelType::Float);
}

std::string readBytes(const fs::path& path)
{
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(SequenceCliTest, TonemapWritesNumberedPngsAndRepeatsExactly)
{
    const fs::path dir = testing_support::scratchDir("cli-sequence-tonemap");
    writeSequence(dir, "s.%04d.exr", 6, 1.0f);
    std::string firstFlicker;
    for (const char* out : {"a", "b"}) {
        fs::create_directories(dir / out);
        const auto result =
            cli_test::runIn(dir, hdrlab(std::string("tonemap s.%04d.exr -o ") + out +
                                        "/o.%04d.png --operator percentile --fps 30 --capture " + out + "/c.json"));
        ASSERT_EQ(result.exitCode, 0) << result.output;
        EXPECT_NE(
            result.output.find("wrote 6 frames to " + std::string(out) + "/o.%04d.png (o.0001.png .. o.0006.png)"),
            std::string::npos)
            << result.output;
        const std::string line = flickerLine(result.output);
        EXPECT_NE(line.find("over 6 frames (operator percentile"), std::string::npos) << result.output;
        EXPECT_GT(flickerValue(line), 0.0) << "the frames brighten by 1 EV each: " << line;
        if (firstFlicker.empty())
            firstFlicker = line;
        else
            EXPECT_EQ(line, firstFlicker) << "two runs, one flicker figure";
    }
    for (int i = 1; i <= 6; ++i) {
        const std::string name = numbered("o.%04d.png", i);
        const std::string a = readBytes(dir / "a" / name), b = readBytes(dir / "b" / name);
        ASSERT_FALSE(a.empty()) << name;
        EXPECT_EQ(a, b) << name << ": two runs, the same PNG";
        const image::Image8 png = image::loadImage8(dir / "a" / name);
        EXPECT_EQ(png.width, kWidth);
        EXPECT_EQ(png.height, kHeight);
    }
    EXPECT_FALSE(fs::exists(dir / "a" / "o.0000.png"));
    EXPECT_NE(readBytes(dir / "a" / "o.0001.png"), readBytes(dir / "a" / "o.0006.png")) << "the exposure adapts";

    std::ifstream in(dir / "a" / "c.json");
    const auto root = nlohmann::json::parse(in);
    std::size_t keyValues = 0;
    for (const auto& event : root["traceEvents"])
        keyValues += event["ph"] == "C" && event["name"] == "key value (EV)" ? 1 : 0;
    EXPECT_EQ(keyValues, root["otherData"]["recorded_frames"].get<std::size_t>()) << "one per recorded frame";
    EXPECT_GE(keyValues, 4u) << "recording starts after a third of a short run";
    EXPECT_EQ(root["otherData"]["scene"], "s.%04d.exr");
    EXPECT_EQ(root["otherData"]["sequence_fps"], "30");
    EXPECT_EQ(root["otherData"]["sequence_frames"], "6");
    EXPECT_EQ(root["otherData"]["setting.histogram.range"], "auto") << "tonemap's own default";
    fs::remove_all(dir);
}

// display.target hdr10: every frame of a sequence is the HDR10 picture, as tonemap writes a still:
// a 16-bit RGB PNG with its cICP chunk (BT.2020, PQ, RGB, full range) before the pixel data.
TEST(SequenceCliTest, Hdr10SequenceFramesAreSixteenBitPqPngs)
{
    const fs::path dir = testing_support::scratchDir("cli-sequence-hdr10");
    writeSequence(dir, "s.%04d.exr", 3, 1.0f);
    fs::create_directories(dir / "h");
    const auto result = cli_test::runIn(
        dir, hdrlab("tonemap s.%04d.exr -o h/o.%04d.png --operator percentile --fps 30 --set display.target=hdr10"));
    ASSERT_EQ(result.exitCode, 0) << result.output;
    for (int i = 1; i <= 3; ++i) {
        const std::string png = readBytes(dir / "h" / numbered("o.%04d.png", i));
        ASSERT_GT(png.size(), 33u) << i;
        EXPECT_EQ(png.substr(12, 4), "IHDR");
        EXPECT_EQ(int(static_cast<unsigned char>(png[24])), 16) << "bit depth";
        EXPECT_EQ(int(static_cast<unsigned char>(png[25])), 2) << "RGB";
        const std::size_t cicp = png.find("cICP");
        ASSERT_NE(cicp, std::string::npos) << i;
        EXPECT_LT(cicp, png.find("IDAT"));
        EXPECT_EQ(png.substr(cicp + 4, 4), std::string("\x09\x10\x00\x01", 4));
    }
    fs::remove_all(dir);
}

TEST(SequenceCliTest, AConstantSequenceHasNoFlickerWithAnyOperator)
{
    const fs::path dir = testing_support::scratchDir("cli-sequence-constant");
    writeSequence(dir, "c.%04d.exr", 5, 0.0f);
    for (const char* op : {"percentile", "ward", "equalize", "exposure"}) {
        const auto result =
            cli_test::runIn(dir, hdrlab(std::string("tonemap c.%04d.exr -o o.%04d.png --operator ") + op));
        ASSERT_EQ(result.exitCode, 0) << result.output;
        const std::string line = flickerLine(result.output);
        EXPECT_EQ(line.rfind("flicker: 0.000000 EV/s over 5 frames", 0), 0u) << op << ": " << line;
        EXPECT_EQ(flickerValue(line), 0.0) << op;
    }
    fs::remove_all(dir);
}

/// s.0001..s.0006 with s.0003 damaged (its first 200 bytes), s.0004 missing and s.0005 16x9.
fs::path writeBadSequence(const std::string& name)
{
    const fs::path dir = testing_support::scratchDir(name);
    writeSequence(dir, "s.%04d.exr", 6, 0.5f);
    const std::string head = readBytes(dir / "s.0003.exr").substr(0, 200);
    std::ofstream(dir / "s.0003.exr", std::ios::binary) << head;
    fs::remove(dir / "s.0004.exr");
    image::writeExr(dir / "s.0005.exr", frame(0.0f, 16, 9), image::ExrPixelType::Float);
    return dir;
}

TEST(SequenceCliTest, ABadFrameStopsTheRunWithItsNameAfterTheFramesBefore)
{
    const fs::path dir = writeBadSequence("cli-sequence-stop");
    const auto result = cli_test::runIn(dir, hdrlab("tonemap s.%04d.exr -o o.%04d.png"));
    EXPECT_EQ(result.exitCode, 1) << result.output;
    const auto out = cli_test::lines(result.output);
    ASSERT_FALSE(out.empty());
    EXPECT_EQ(out.back().rfind("hdrlab: error: sequence 's.%04d.exr', frame 3: cannot read 's.0003.exr'", 0), 0u)
        << result.output;
    EXPECT_NE(out.back().find("--on-bad-frame skip"), std::string::npos) << out.back();
    // All or nothing (util::OutputBatch): the frames written before the bad one are removed with the run.
    EXPECT_FALSE(fs::exists(dir / "o.0001.png"));
    EXPECT_FALSE(fs::exists(dir / "o.0002.png"));
    EXPECT_FALSE(fs::exists(dir / "o.0003.png"));
    EXPECT_FALSE(fs::exists(dir / "o.0006.png"));

    // view stops the same way, with hdrlab's own error line.
    const auto view = cli_test::runIn(dir, hdrlab("view s.%04d.exr --headless"));
    EXPECT_EQ(view.exitCode, 1) << view.output;
    EXPECT_NE(view.output.find("hdrlab: error: sequence 's.%04d.exr', frame 3: cannot read"), std::string::npos)
        << view.output;
    fs::remove_all(dir);
}

TEST(SequenceCliTest, SkipLeavesOutEachBadFrameWithAWarningNamingIt)
{
    const fs::path dir = writeBadSequence("cli-sequence-skip");
    const auto result = cli_test::runIn(dir, hdrlab("tonemap s.%04d.exr -o o.%04d.png --on-bad-frame skip"));
    ASSERT_EQ(result.exitCode, 0) << result.output;
    for (const char* part : {"frame 3: cannot read 's.0003.exr': damaged", "frame 4: 's.0004.exr' is missing",
                             "frame 5: 's.0005.exr' is 16 x 9 pixels; the sequence's frames are 32 x 18"})
        EXPECT_NE(result.output.find(std::string("warning: skipping sequence 's.%04d.exr', ") + part),
                  std::string::npos)
            << part << "\n"
            << result.output;
    EXPECT_NE(flickerLine(result.output).find("over 3 frames"), std::string::npos) << result.output;
    for (int i : {1, 2, 6})
        EXPECT_TRUE(fs::exists(dir / numbered("o.%04d.png", i))) << i;
    for (int i : {3, 4, 5})
        EXPECT_FALSE(fs::exists(dir / numbered("o.%04d.png", i))) << i;
    fs::remove_all(dir);
}

TEST(SequenceCliTest, ViewPlaysAFolderAndAGlobHeadless)
{
    const fs::path dir = testing_support::scratchDir("cli-sequence-view");
    writeSequence(dir / "frames", "take_%d.exr", 4, 0.5f);
    const auto once = cli_test::runIn(dir, hdrlab("view 'frames/take_*.exr' --headless --operator ward"));
    ASSERT_EQ(once.exitCode, 0) << once.output;
    EXPECT_NE(flickerLine(once.output).find("over 4 frames"), std::string::npos) << once.output;
    const auto looped = cli_test::runIn(dir, hdrlab("view frames --headless --frames 10 --operator ward --fps 12 "
                                                    "--screenshot v.png --ui"));
    ASSERT_EQ(looped.exitCode, 0) << looped.output;
    EXPECT_NE(flickerLine(looped.output).find("over 10 frames"), std::string::npos) << looped.output;
    const image::Image8 shot = image::loadImage8(dir / "v.png");
    EXPECT_EQ(shot.width, kWidth) << "the frames' own size";
    fs::remove_all(dir);
}

TEST(SequenceCliTest, TheRateSetsTheTimeStep)
{
    // Ward's key value is each frame's own log-average (no adaptation), so the same steps between
    // frames read twice the rate at twice the frame rate: the time step is 1/fps.
    const fs::path dir = testing_support::scratchDir("cli-sequence-rate");
    writeSequence(dir, "s.%04d.exr", 4, 0.5f);
    double figure[2] = {0.0, 0.0};
    for (int i = 0; i < 2; ++i) {
        const auto result = cli_test::runIn(
            dir, hdrlab(std::string("view s.%04d.exr --headless --operator ward --fps ") + (i == 0 ? "12" : "24")));
        ASSERT_EQ(result.exitCode, 0) << result.output;
        figure[i] = flickerValue(flickerLine(result.output));
    }
    EXPECT_GT(figure[0], 0.0);
    EXPECT_NEAR(figure[1], 2.0 * figure[0], 1e-5 * figure[1]);
    fs::remove_all(dir);
}

bool haveXvfbRun()
{
    return testing_support::runCommand("command -v xvfb-run").exitCode == 0;
}

TEST(SequenceCliTest, AWindowPlaysInRealTimeAndPausesOnABadFrame)
{
    if (!haveXvfbRun())
        GTEST_SKIP() << "xvfb-run is not installed";
    const fs::path dir = writeBadSequence("cli-sequence-window");
    // 1000 fps: the playhead passes the damaged frame 3 within the first few window frames.
    const auto result = cli_test::runIn(
        dir, "xvfb-run -a -s '-screen 0 640x360x24' " + hdrlab("view s.%04d.exr --fps 1000 --frames 40 --size 320x180 "
                                                               "--vsync off --hide-ui --window-screenshot w.png"));
    ASSERT_EQ(result.exitCode, 0) << "a window pauses, it does not end:\n" << result.output;
    EXPECT_NE(result.output.find("GLFW window"), std::string::npos) << result.output;
    EXPECT_NE(result.output.find("frame 3: cannot read 's.0003.exr'"), std::string::npos) << result.output;
    EXPECT_NE(result.output.find("paused (Space plays on without it)"), std::string::npos) << result.output;
    const image::Image8 shot = image::loadImage8(dir / "w.png", 3);
    EXPECT_EQ(shot.width, 320);
    EXPECT_GT(cli_test::distinctColours(shot), 10u) << "the window shows the frame";
    fs::remove_all(dir);
}

TEST(SequenceCliTest, AHeadlessRunsHdrSequenceIsASequenceTonemapTakes)
{
    const fs::path dir = testing_support::scratchDir("cli-sequence-rendered");
    const fs::path scene = testing_support::sourceDir() / "scenes" / "stress-sun-disc.json";
    const auto render = cli_test::runIn(dir, hdrlab("--headless --size 32x18 --frames 4 --scene '" + scene.string() +
                                                    "' --hdr-sequence-out r.%04d.exr"));
    ASSERT_EQ(render.exitCode, 0) << render.output;
    EXPECT_NE(render.output.find("wrote 4 frames to r.%04d.exr (r.0000.exr .. r.0003.exr)"), std::string::npos)
        << render.output;
    const image::ImageF first = image::loadHdrImage(dir / "r.0000.exr");
    EXPECT_EQ(first.width, 32);
    EXPECT_EQ(first.height, 18);
    float peak = 0.0f;
    for (float value : first.pixels) {
        ASSERT_TRUE(std::isfinite(value)) << "half floats would make the sun +Inf";
        peak = std::max(peak, value);
    }
    EXPECT_GT(peak, 65504.0f) << "the sun disc (RGBA32F frame) is stored as 32-bit floats";
    const auto tonemap = cli_test::runIn(dir, hdrlab("tonemap r.%04d.exr -o t.%04d.png"));
    ASSERT_EQ(tonemap.exitCode, 0) << tonemap.output;
    for (int i = 0; i < 4; ++i)
        EXPECT_TRUE(fs::exists(dir / numbered("t.%04d.png", i))) << i;
    fs::remove_all(dir);
}

TEST(SequenceCliTest, BenchFlickerTablesEveryCaseOnASequence)
{
    const fs::path dir = testing_support::scratchDir("cli-sequence-bench");
    writeSequence(dir, "s.%04d.exr", 5, 0.5f);
    const auto result = cli_test::runIn(dir, hdrlab("bench flicker --sequence s.%04d.exr --fps 25 --csv f.csv"));
    ASSERT_EQ(result.exitCode, 0) << result.output;
    EXPECT_NE(result.output.find("sequence s.%04d.exr, its 5 frames per case at 25 fps"), std::string::npos)
        << result.output;
    std::ifstream in(dir / "f.csv");
    std::vector<std::string> rows;
    for (std::string line; std::getline(in, line);)
        rows.push_back(line);
    ASSERT_GE(rows.size(), 8u) << "header, 4 operators, 3 engine presets";
    EXPECT_EQ(rows[0], "operator,preset,flicker_ev_per_s,frames,key_value,cuts,flicker_no_snap_ev_per_s");
    for (const char* row : {"percentile,app,", "percentile,unreal,", "percentile,unity-hdrp,", "percentile,bevy,",
                            "ward,-,", "equalize,-,", "exposure,-,"}) {
        bool found = false;
        for (const std::string& line : rows)
            if (line.rfind(row, 0) == 0) {
                found = true;
                EXPECT_NE(line.find(",5,"), std::string::npos) << "every frame has a key value: " << line;
            }
        EXPECT_TRUE(found) << row;
    }
    fs::remove_all(dir);
}

/// Two shots of 16 frames each, numbered 1..32: dark (-4 EV) then bright (+4 EV), each brightening
/// slowly (0.05 EV a frame).
void writeTwoShots(const fs::path& dir)
{
    fs::create_directories(dir);
    for (int i = 1; i <= 32; ++i) {
        const float ev = (i <= 16 ? -4.0f : 4.0f) + 0.05f * float((i - 1) % 16);
        image::writeExr(dir / numbered("s.%04d.exr", i), frame(ev), image::ExrPixelType::Float);
    }
}

/// The largest change of the key value between consecutive recorded frames of a capture.
double largestKeyValueStep(const fs::path& capture)
{
    std::ifstream in(capture);
    const auto root = nlohmann::json::parse(in);
    std::vector<double> ev;
    for (const auto& event : root["traceEvents"])
        if (event["ph"] == "C" && event["name"] == "key value (EV)")
            ev.push_back(event["args"]["ev"].get<double>());
    double largest = 0.0;
    for (std::size_t i = 1; i < ev.size(); ++i)
        largest = std::max(largest, std::abs(ev[i] - ev[i - 1]));
    return largest;
}

TEST(SequenceCliTest, ACutBetweenTwoShotsIsFoundRecordedAndSnapsTheExposure)
{
    const fs::path dir = testing_support::scratchDir("cli-sequence-cut");
    writeTwoShots(dir);
    // A fixed range that holds both shots and the key metering alone, so the numbers are known: the mean
    // moves by 7.25 EV at the cut (-3.25 -> +4), the target by as much.
    const std::string run =
        "tonemap s.%04d.exr -o o.%04d.png --operator percentile --fps 24 --set histogram.range=manual "
        "--set histogram.log_min=-10 --set histogram.log_max=24 "
        "--set percentile.limit_highlights=false --capture ";
    const auto snapped = cli_test::runIn(dir, hdrlab(run + "snap.json"));
    ASSERT_EQ(snapped.exitCode, 0) << snapped.output;
    const auto cutLine = [](const std::string& output) {
        std::vector<std::string> lines;
        std::istringstream in(output);
        for (std::string line; std::getline(in, line);)
            if (line.rfind("cut at frame", 0) == 0)
                lines.push_back(line);
        return lines;
    };
    const std::vector<std::string> cuts = cutLine(snapped.output);
    ASSERT_EQ(cuts.size(), 1u) << "one cut, none within the slowly brightening shots:\n" << snapped.output;
    EXPECT_EQ(cuts[0].rfind("cut at frame 17: histogram mean log2 L moved 7.", 0), 0u) << cuts[0];
    EXPECT_NE(cuts[0].find("exposure snapped to the new target"), std::string::npos) << cuts[0];
    const std::string line = flickerLine(snapped.output);
    EXPECT_NE(line.find("; within 2 shots, cuts at frames 17"), std::string::npos) << line;
    EXPECT_LT(flickerValue(line), 2.0) << "within shots the exposure follows 0.05 EV a frame (1.2 EV/s): " << line;
    {
        std::ifstream in(dir / "snap.json");
        const auto root = nlohmann::json::parse(in);
        EXPECT_EQ(root["otherData"]["cuts"].get<std::string>().rfind("17 (7.", 0), 0u) << root["otherData"].dump();
    }
    EXPECT_GT(largestKeyValueStep(dir / "snap.json"), 6.0) << "the exposure jumps to the bright shot's target";

    const auto ramped = cli_test::runIn(dir, hdrlab(run + "ramp.json --set percentile.snap_at_cuts=false"));
    ASSERT_EQ(ramped.exitCode, 0) << ramped.output;
    ASSERT_EQ(cutLine(ramped.output).size(), 1u) << ramped.output;
    EXPECT_NE(cutLine(ramped.output)[0].find("no snap: adapting"), std::string::npos);
    EXPECT_LT(largestKeyValueStep(dir / "ramp.json"), 0.5) << "adapting at 3 EV/s: 0.125 EV a frame at 24 fps";
    EXPECT_GT(flickerValue(flickerLine(ramped.output)), flickerValue(line)) << "the ramp counts within the shot";

    const auto off = cli_test::runIn(dir, hdrlab(run + "off.json --set percentile.cut_threshold_ev=0"));
    ASSERT_EQ(off.exitCode, 0) << off.output;
    EXPECT_TRUE(cutLine(off.output).empty()) << off.output;
    fs::remove_all(dir);
}

TEST(SequenceCliTest, MisuseGivesOneLine)
{
    const fs::path dir = testing_support::scratchDir("cli-sequence-misuse");
    writeSequence(dir, "s.%04d.exr", 2, 0.0f);
    struct Case
    {
        const char* arguments;
        int exitCode;
        const char* message;
    };
    for (const Case& c : {
             Case{"tonemap s.%04d.exr -o o.png", 2, "-o 'o.png' has no frame number"},
             Case{"tonemap s.%04d.exr -o o.%04d.png --curve-out c.csv", 2, "--curve-out and --histogram-out"},
             Case{"tonemap s.%04d.exr -o none/o.%04d.png", 2, "'none/o.%04d.png': folder 'none' does not exist"},
             Case{"tonemap s.0001.exr -o o.png --fps 30", 2, "apply to a sequence"},
             Case{"view s.0001.exr --headless --on-bad-frame skip", 1, "apply to a sequence"},
             Case{"view 'none_*.exr' --headless", 1, "no file in '.' matches"},
             Case{"view s.%04d.exr --fps 0", 2, "--fps 0 is outside"},
             Case{"--headless --hdr-sequence-out x.exr", 2, "--hdr-sequence-out 'x.exr' has no frame number"},
             Case{"bench flicker --sequence s.%04d.exr --size 64x36", 2, "--size does not apply to --sequence"},
             Case{"bench pipeline --sequence s.%04d.exr", 2, "--sequence is an option of 'bench flicker'"},
             Case{"bench flicker --fps 30", 2, "--fps and --on-bad-frame need --sequence"},
         }) {
        const auto result = cli_test::runIn(dir, hdrlab(c.arguments));
        EXPECT_EQ(result.exitCode, c.exitCode) << c.arguments << "\n" << result.output;
        EXPECT_NE(result.output.find(c.message), std::string::npos) << c.arguments << "\n" << result.output;
    }
    fs::remove_all(dir);
}

}  // namespace
