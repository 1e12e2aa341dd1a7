// TrustCliTest.cpp: issue 39, "cuts, files, timings and docs a user can trust", end to end.
//  - Cuts are measured on the frames themselves: a 9.97 EV cut reads 9.97 EV with the default
//    (smoothed) automatic range, as with the smoothing off and as `bench flicker --sequence` reads it;
//    the exposure reaches the new target in the cut frame; a 2.2 EV cut is found; a sequence where
//    every frame is a cut says so.
//  - All or nothing: a failed output leaves no other output behind; outputs are checked (folder,
//    extension, two naming one file) before the run; output flags refused where they do not apply.
//  - Saved frames keep their data: an RGBA32F frame's EXR keeps a 1e6 pixel.
//  - bench flicker --sequence: the engine presets read a cut through their fixed ranges, as
//    `tonemap --preset` does, and every case is measured within the same shots.
//  - A missing data folder is one error line saying what to set and where hdrlab looked.
//  - One prefix ("hdrlab: error: ") and one exit code per class of error (2: the command line, --set
//    and settings files; 1: a failed run); empty values refused; --verify on 8-bit input runs.
// Frames are 64x64 EXRs written here.
#include "cli/CliTestSupport.h"
#include "image/ImageIo.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <regex>
#include <set>
#include <sstream>

namespace {

namespace fs = std::filesystem;
using cli_test::hdrlab;

constexpr int kSize = 64;

/// A frame: a ramp over 6 EV across, a bright band on top, the whole `ev` EV brighter.
image::ImageF frame(float ev)
{
    image::ImageF image(kSize, kSize);
    for (int y = 0; y < kSize; ++y)
        for (int x = 0; x < kSize; ++x) {
            float* p = image.at(x, y);
            p[0] = p[1] = p[2] = std::exp2(ev + (y < kSize / 4 ? 4.0f : 0.0f) + 6.0f * float(x) / float(kSize));
            p[3] = 1.0f;
        }
    return image;
}

std::string numbered(int number)
{
    char name[64];
    std::snprintf(name, sizeof name, "frame.%04d.exr", number);
    return name;
}

/// Frames 1..count in dir/seq: `evs[i]` for frame i + 1.
void writeFrames(const fs::path& dir, const std::vector<float>& evs)
{
    fs::create_directories(dir / "seq");
    for (std::size_t i = 0; i < evs.size(); ++i)
        image::writeExr(dir / "seq" / numbered(int(i) + 1), frame(evs[i]), image::ExrPixelType::Float);
}

/// The EV figures of the "cut at frame N: histogram mean log2 L moved X EV" lines, by frame.
std::vector<std::pair<int, double>> cuts(const std::string& output)
{
    std::vector<std::pair<int, double>> found;
    static const std::regex line(R"(cut at frame (\d+): histogram mean log2 L moved ([0-9.]+) EV)");
    for (auto it = std::sregex_iterator(output.begin(), output.end(), line); it != std::sregex_iterator(); ++it)
        found.emplace_back(std::stoi((*it)[1]), std::stod((*it)[2]));
    return found;
}

std::vector<double> keyValues(const fs::path& capture)
{
    std::ifstream in(capture);
    const auto root = nlohmann::json::parse(in);
    std::vector<double> ev;
    for (const auto& event : root["traceEvents"])
        if (event["ph"] == "C" && event["name"] == "key value (EV)")
            ev.push_back(event["args"]["ev"].get<double>());
    return ev;
}

bool hasFiles(const fs::path& dir)
{
    if (!fs::exists(dir))
        return false;
    for (const auto& entry : fs::recursive_directory_iterator(dir))
        if (entry.is_regular_file())
            return true;
    return false;
}

TEST(TrustCliTest, ACutIsMeasuredOnTheFramesWhateverTheRangeSmoothing)
{
    const fs::path dir = testing_support::scratchDir("cli-trust-cut");
    writeFrames(dir, {-4.0f, -4.0f, -4.0f, 5.97f, 5.97f, 5.97f});  // 9.97 EV brighter from frame 4
    const std::string run = "tonemap 'seq/frame.%04d.exr' -o o.%04d.png --operator percentile --capture ";
    const auto smoothed = cli_test::runIn(dir, hdrlab(run + "a.json"));
    ASSERT_EQ(smoothed.exitCode, 0) << smoothed.output;
    const auto unsmoothed = cli_test::runIn(dir, hdrlab(run + "b.json --set histogram.auto_range_speed=0"));
    ASSERT_EQ(unsmoothed.exitCode, 0) << unsmoothed.output;
    const auto a = cuts(smoothed.output), b = cuts(unsmoothed.output);
    ASSERT_EQ(a.size(), 1u) << smoothed.output;
    ASSERT_EQ(b.size(), 1u) << unsmoothed.output;
    EXPECT_EQ(a[0].first, 4);
    EXPECT_NEAR(a[0].second, 9.97, 0.1) << "was 4.84 EV: the smoothed range clamped the new shot";
    EXPECT_NEAR(a[0].second, b[0].second, 0.02) << "independent of histogram.auto_range_speed";
    const std::vector<double> keyA = keyValues(dir / "a.json"), keyB = keyValues(dir / "b.json");
    ASSERT_GE(keyA.size(), 4u) << "the cut frame's key value was read back";
    ASSERT_EQ(keyB.size(), keyA.size());
    double largestDrop = 0.0;
    for (std::size_t i = 0; i < keyA.size(); ++i) {
        EXPECT_NEAR(keyA[i], keyB[i], 0.05) << "recorded frame " << i << ": the snap reaches the new target at the cut";
        if (i > 0)
            largestDrop = std::min(largestDrop, keyA[i] - keyA[i - 1]);
    }
    EXPECT_LT(largestDrop, -9.5) << "the exposure drops by the cut's 9.97 EV in one frame (was -0.67 EV, then a ramp)";

    // bench flicker on the same frames finds the same cut.
    const auto bench = cli_test::runIn(dir, hdrlab("bench flicker --sequence 'seq/frame.%04d.exr'"));
    ASSERT_EQ(bench.exitCode, 0) << bench.output;
    // Its first case is the percentile operator with the app's settings, as tonemap runs it (the engine
    // presets' cases after it bin over their engines' fixed ranges, which clamp a 9.97 EV cut).
    const auto c = cuts(bench.output);
    ASSERT_FALSE(c.empty()) << bench.output;
    EXPECT_EQ(c[0].first, 4);
    EXPECT_NEAR(c[0].second, a[0].second, 0.02) << "tonemap and bench flicker agree:\n" << bench.output;
    for (const auto& [number, ev] : c)
        EXPECT_EQ(number, 4);
    fs::remove_all(dir);
}

TEST(TrustCliTest, ATwoEvCutIsFoundAndEveryFrameACutIsSaid)
{
    const fs::path dir = testing_support::scratchDir("cli-trust-cut-small");
    writeFrames(dir, {0.0f, 0.0f, 0.0f, 2.2f, 2.2f, 2.2f});
    const auto small = cli_test::runIn(dir, hdrlab("tonemap 'seq/frame.%04d.exr' -o o.%04d.png --operator percentile"));
    ASSERT_EQ(small.exitCode, 0) << small.output;
    const auto found = cuts(small.output);
    ASSERT_EQ(found.size(), 1u) << "the 2.2 EV cut (threshold 2 EV):\n" << small.output;
    EXPECT_NEAR(found[0].second, 2.2, 0.1);

    fs::remove_all(dir / "seq");
    writeFrames(dir, {-6.0f, 0.0f, 6.0f, 0.0f});  // every frame after the first is a cut
    const auto every = cli_test::runIn(dir, hdrlab("tonemap 'seq/frame.%04d.exr' -o p.%04d.png --operator percentile"));
    ASSERT_EQ(every.exitCode, 0) << every.output;
    EXPECT_EQ(cuts(every.output).size(), 3u) << every.output;
    EXPECT_NE(every.output.find("flicker: none (every frame is a cut"), std::string::npos) << every.output;
    fs::remove_all(dir);
}

TEST(TrustCliTest, OutputsAreCheckedFirstAndAFailedRunLeavesNothing)
{
    const fs::path dir = testing_support::scratchDir("cli-trust-outputs");
    image::writeExr(dir / "in.exr", frame(0.0f), image::ExrPixelType::Float);
    fs::create_directories(dir / "F");
    struct Case
    {
        std::string arguments;
        int exitCode;
        std::string message;
    };
    const std::string hdr10 = " --set display.target=hdr10";
    const std::vector<Case> cases = {
        {"tonemap in.exr -o F/o.png --hdr-exr F/nodir/o.exr" + hdr10, 2, "does not exist"},
        {"tonemap in.exr -o F/o.png --hdr-exr F" + hdr10, 2, "folder"},
        {"tonemap in.exr -o F/o.png --hdr-exr F/o.png" + hdr10, 2, "must end with .exr"},
        {"tonemap in.exr -o F/o.exr --hdr-exr F/o.exr" + hdr10, 2, "must end with .png"},
        {"tonemap in.exr -o F/o.png --hdr-exr F/./o.exr --curve-out F/o.exr" + hdr10, 2, "must end with .csv"},
        {"tonemap in.exr -o F/o.png --curve-out F/c.csv --histogram-out F/./c.csv", 2, "name the same file"},
        {"tonemap in.exr -o F/o.jpg", 2, "must end with .png"},
        {"tonemap in.exr -o F/o.png --hdr-exr F/o.exr", 2, "--hdr-exr needs --set display.target=hdr10"},
        {"tonemap in.exr -o F/o.png --operator all --hdr-exr F/o.exr" + hdr10, 2, "--hdr-exr"},
        {"tonemap in.exr -o F/o.png --operator all" + hdr10, 2, "display.target=hdr10"},
        {"tonemap 'F/seq.%04d.exr' -o F/s.%04d.png --hdr-exr F/s.%04d.exr", 2, "--hdr-exr"},
        {"tonemap in.exr -o F/o.png --curve-out /proc/c.csv", 1, "/proc/c.csv"},
        {"tonemap in.exr -o F/o.png --histogram-out /proc/h.csv", 1, "/proc/h.csv"},
        {"tonemap in.exr -o /dev/null", 2, "regular files"},
        {"view in.exr --headless --frames 100 --screenshot nodir/s.png", 2, "folder 'nodir' does not exist"},
        {"view in.exr --headless --frames 100 --screenshot-exr s.png", 2, "must end with .exr"},
        {"view in.exr --headless --frames 100 --capture c.csv", 2, "must end with .json"},
        {"view in.exr --headless --frames 2 --screenshot F/s.png --capture /proc/c.json", 1, "/proc/c.json"},
        {"bench flicker --frames 2 --size 32x18 --csv nodir/b.csv", 2, "does not exist"},
        {"compare --size 32x18 --csv F/c.csv --chart /proc/c.svg", 1, "/proc/c.svg"},
    };
    for (const Case& c : cases) {
        const auto result = cli_test::runIn(dir, hdrlab(c.arguments));
        EXPECT_EQ(result.exitCode, c.exitCode) << c.arguments << "\n" << result.output;
        EXPECT_NE(result.output.find("hdrlab: error: "), std::string::npos) << c.arguments << "\n" << result.output;
        EXPECT_NE(result.output.find(c.message), std::string::npos) << c.arguments << "\n" << result.output;
        EXPECT_FALSE(hasFiles(dir / "F")) << c.arguments << ": a failed run leaves no output";
        if (result.output.find("hdrlab: error: ") != std::string::npos)
            EXPECT_EQ(std::count(result.output.begin(), result.output.end(), '\n') >= 1, true);
        fs::remove_all(dir / "F");
        fs::create_directories(dir / "F");
        for (const char* name : {"s.png", "c.csv", "nodir"})
            EXPECT_FALSE(fs::exists(dir / name)) << c.arguments;
    }
    // The same run with good names writes everything.
    const auto good = cli_test::runIn(
        dir, hdrlab("tonemap in.exr -o F/o.png --hdr-exr F/o.exr --curve-out F/c.csv --histogram-out F/h.csv" + hdr10));
    ASSERT_EQ(good.exitCode, 0) << good.output;
    for (const char* name : {"o.png", "o.exr", "c.csv", "h.csv"})
        EXPECT_TRUE(fs::exists(dir / "F" / name)) << name;
    EXPECT_EQ(image::detectFileKind(dir / "F" / "o.png"), image::FileKind::Png);
    fs::remove_all(dir);
}

TEST(TrustCliTest, ASavedRgba32fFrameKeepsValuesBeyondHalf)
{
    const fs::path dir = testing_support::scratchDir("cli-trust-exr");
    image::ImageF still = frame(0.0f);
    float* sun = still.at(5, 7);
    sun[0] = sun[1] = sun[2] = 1.0e6f;
    image::writeExr(dir / "sun.exr", still, image::ExrPixelType::Float);
    const auto result = cli_test::runIn(dir, hdrlab("view sun.exr --headless --frames 1 --screenshot-exr s.exr"));
    ASSERT_EQ(result.exitCode, 0) << result.output;
    const image::ImageF back = image::loadHdrImage(dir / "s.exr");
    ASSERT_EQ(back.width, kSize);
    float peak = 0.0f;
    for (std::size_t i = 0; i < back.pixels.size(); ++i) {
        ASSERT_TRUE(std::isfinite(back.pixels[i])) << "no value becomes Inf";
        peak = std::max(peak, back.pixels[i]);
    }
    EXPECT_FLOAT_EQ(peak, 1.0e6f) << "an image (RGBA32F) is saved as 32-bit floats";
    fs::remove_all(dir);
}

TEST(TrustCliTest, OneExitCodeAndPrefixPerClassOfError)
{
    const fs::path dir = testing_support::scratchDir("cli-trust-codes");
    image::writeExr(dir / "in.exr", frame(0.0f), image::ExrPixelType::Float);
    {
        std::ofstream bad(dir / "bad.json");
        bad << "{ \"ward.brightness\": 1 }\n";
    }
    struct Case
    {
        std::string arguments;
        int exitCode;
        std::string message;
    };
    const std::vector<Case> cases = {
        {"tonemap in.exr -o o.png --set ward.brightness=1", 2, "unknown key"},
        {"tonemap in.exr -o o.png --settings bad.json", 2, "unknown key"},
        {"view in.exr --headless --frames 1 --settings bad.json", 2, "unknown key"},
        {"tonemap in.exr -o o.png --set percentile.compensation_curve=", 2, "is empty"},
        {"tonemap in.exr -o o.png --range -100:0", 2, "outside -64:64"},
        {"tonemap in.exr -o o.png --operator all --verify", 2, "--verify"},
        {"tonemap missing.exr -o o.png", 1, "missing.exr"},
        {"--headless --frames --screenshot o.png", 2, "--frames needs a value"},
    };
    for (const Case& c : cases) {
        const auto result = cli_test::runIn(dir, hdrlab(c.arguments));
        EXPECT_EQ(result.exitCode, c.exitCode) << c.arguments << "\n" << result.output;
        EXPECT_NE(result.output.find("hdrlab: error: "), std::string::npos) << c.arguments << "\n" << result.output;
        EXPECT_NE(result.output.find(c.message), std::string::npos) << c.arguments << "\n" << result.output;
        EXPECT_EQ(result.output.find("hdrlab tonemap: "), std::string::npos) << result.output;
        EXPECT_FALSE(fs::exists(dir / "o.png")) << c.arguments;
    }
    fs::remove_all(dir);
}

TEST(TrustCliTest, VerifyOnAnEightBitGreyPngRuns)
{
    const fs::path dir = testing_support::scratchDir("cli-trust-verify8");
    image::Image8 grey(48, 32, 1);
    for (std::size_t i = 0; i < grey.pixels.size(); ++i)
        grey.pixels[i] = std::uint8_t((i * 7) % 200);
    image::writePng(dir / "g.png", grey);
    const auto result = cli_test::runIn(dir, hdrlab("tonemap g.png -o e.png --operator equalize --verify"));
    ASSERT_EQ(result.exitCode, 0) << result.output;
    EXPECT_NE(result.output.find("verify (8-bit equalization, 1536 pixels against the CPU reference): ok"),
              std::string::npos)
        << result.output;
    fs::remove_all(dir);
}

}  // namespace

namespace {

/// The "--flag" words of a text.
std::set<std::string> flagsOf(const std::string& text)
{
    std::set<std::string> flags;
    static const std::regex flag(R"((^|[^A-Za-z0-9-])(--[a-z][a-z0-9-]*[a-z0-9]))");
    for (auto it = std::sregex_iterator(text.begin(), text.end(), flag); it != std::sregex_iterator(); ++it)
        flags.insert((*it)[2]);
    return flags;
}

TEST(TrustCliTest, UsageListsEveryFlagTheHelpLists)
{
    std::ifstream in(testing_support::sourceDir() / "docs" / "USAGE.md");
    const std::string usage((std::istreambuf_iterator<char>(in)), {});
    const std::set<std::string> documented = flagsOf(usage);
    for (const char* command : {"", "view", "tonemap", "compare", "equalize8", "bench", "settings"}) {
        const auto help = testing_support::runCommand(hdrlab(std::string(command) + " --help"));
        ASSERT_EQ(help.exitCode, 0) << command << help.output;
        for (const std::string& flag : flagsOf(help.output))
            if (flag != "--help" && flag != "--version" && flag != "--help-all" && flag != "--output")  // -o
                EXPECT_TRUE(documented.count(flag))
                    << "hdrlab " << command << " --help lists " << flag << ", docs/USAGE.md does not";
    }
}

}  // namespace

namespace {

TEST(TrustCliTest, RefiningAPresetWithSetSaysNothingAboutCustom)
{
    const fs::path dir = testing_support::scratchDir("cli-trust-preset");
    image::writeExr(dir / "in.exr", frame(0.0f), image::ExrPixelType::Float);
    const auto result =
        cli_test::runIn(dir, hdrlab("tonemap in.exr -o o.png --preset unreal --set percentile.key=0.2"));
    ASSERT_EQ(result.exitCode, 0) << result.output;
    EXPECT_EQ(result.output.find("became custom"), std::string::npos) << "asked for, as the docs suggest:\n"
                                                                      << result.output;
    fs::remove_all(dir);
}

}  // namespace

namespace {

/// The table rows of `bench flicker --sequence`: preset -> cuts column.
std::map<std::string, int> benchCutsByPreset(const std::string& output)
{
    std::map<std::string, int> rows;
    static const std::regex row(R"((?:^|\n)percentile +(\S+) +\S+ +\S+ +(\d+) +\d+ )");
    for (auto it = std::sregex_iterator(output.begin(), output.end(), row); it != std::sregex_iterator(); ++it)
        rows[(*it)[1]] = std::stoi((*it)[2]);
    return rows;
}

TEST(TrustCliTest, BenchFlickerPresetsReadTheirOwnRangeAndShareTheShots)
{
    const fs::path dir = testing_support::scratchDir("cli-trust-bench-presets");
    writeFrames(dir, {-4.0f, -4.0f, -4.0f, 5.97f, 5.97f, 5.97f});  // 9.97 EV brighter from frame 4
    const auto bench =
        cli_test::runIn(dir, hdrlab("bench flicker --sequence 'seq/frame.%04d.exr' --operator percentile"));
    ASSERT_EQ(bench.exitCode, 0) << bench.output;
    const auto rows = benchCutsByPreset(bench.output);
    ASSERT_EQ(rows.size(), 4u) << "app and the three engine presets:\n" << bench.output;
    for (const auto& [preset, cutCount] : rows)
        EXPECT_EQ(cutCount, 1) << preset << ": every case is measured within the same two shots:\n" << bench.output;
    const auto benchCuts = cuts(bench.output);
    // Each preset reads the cut through its engine's fixed range, as `tonemap --preset` does on the same frames.
    for (const char* preset : {"unreal", "unity-hdrp", "bevy"}) {
        const auto single = cli_test::runIn(
            dir, hdrlab(std::string("tonemap 'seq/frame.%04d.exr' -o ") + preset + ".%04d.png --preset " + preset));
        ASSERT_EQ(single.exitCode, 0) << single.output;
        for (const auto& [number, ev] : cuts(single.output)) {
            EXPECT_EQ(number, 4);
            EXPECT_LT(ev, 9.97 + 0.1) << preset;
            EXPECT_TRUE(std::any_of(benchCuts.begin(), benchCuts.end(),
                                    [&](const auto& c) { return c.first == 4 && std::fabs(c.second - ev) < 0.02; }))
                << preset << " reads " << ev << " EV in tonemap; bench printed:\n"
                << bench.output;
        }
    }
    fs::remove_all(dir);
}

TEST(TrustCliTest, AMissingDataFolderIsOneLineWithTheHint)
{
    // A copy of the binary far from any data folder: /proc/self/exe is the copy, and the folders above
    // it (the temporary folder) hold no shaders/.
    const fs::path dir = testing_support::scratchDir("cli-trust-no-data");
    fs::create_directories(dir / "bin");
    fs::copy_file(testing_support::hdrlabBinary(), dir / "bin" / "hdrlab");
    fs::permissions(dir / "bin" / "hdrlab", fs::perms::owner_all);
    struct Case
    {
        std::string commandLine;
        std::string names;  ///< what the line must name
    };
    const std::vector<Case> cases = {
        {"env -u HDRLAB_DATA_DIR bin/hdrlab --headless --frames 1", "looked in '" + (dir / "bin").string()},
        {"env -u HDRLAB_DATA_DIR bin/hdrlab tonemap x.exr -o o.png", "pass --data-dir DIR or set HDRLAB_DATA_DIR"},
        {"env HDRLAB_DATA_DIR=/nonexistent bin/hdrlab --headless --frames 1", "HDRLAB_DATA_DIR='/nonexistent'"},
        {"env -u HDRLAB_DATA_DIR bin/hdrlab --headless --frames 1 --data-dir /tmp", "--data-dir '/tmp'"},
    };
    image::writeExr(dir / "x.exr", frame(0.0f), image::ExrPixelType::Float);
    for (const Case& c : cases) {
        // stderr alone: the one error line.
        const auto result = cli_test::runIn(dir, "(" + c.commandLine + " 2>&1 >/dev/null)");
        EXPECT_EQ(result.exitCode, 1) << c.commandLine << "\n" << result.output;
        const auto lines = cli_test::lines(result.output);
        ASSERT_EQ(lines.size(), 1u) << c.commandLine << ": one line on stderr:\n" << result.output;
        EXPECT_EQ(lines[0].rfind("hdrlab: error: ", 0), 0u) << lines[0];
        EXPECT_NE(lines[0].find("data folder"), std::string::npos) << lines[0];
        EXPECT_NE(lines[0].find(c.names), std::string::npos) << lines[0];
    }
    fs::remove_all(dir);
}

}  // namespace
