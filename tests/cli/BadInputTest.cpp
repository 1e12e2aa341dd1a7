// BadInputTest.cpp: the hdrlab binary on absurd input, one test per group of rows of the bad-input
// table in docs/RELIABILITY.md: command-line values, input files, scene files and output paths. Each
// case checks the exit code and the one line that says what is wrong; none may crash.
#include "cli/CliTestSupport.h"
#include "scene/GltfTestFiles.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <string>

#include <sys/stat.h>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;
using cli_test::hdrlab;
using cli_test::lines;

/// Exit code `exitCode` (2: a command-line value, 1: a failure while running), and the last line
/// starts with `prefix` and holds `part`; "error" appears on no other line.
void expectError(const testing_support::CommandResult& result,
                 int exitCode,
                 const std::string& part,
                 const std::string& prefix = "hdrlab: error: ")
{
    EXPECT_EQ(result.exitCode, exitCode) << result.output;
    auto out = lines(result.output);
    ASSERT_FALSE(out.empty());
    EXPECT_EQ(out.back().rfind(prefix, 0), 0u) << result.output;
    EXPECT_NE(out.back().find(part), std::string::npos) << "expected '" << part << "' in: " << out.back();
    for (std::size_t i = 0; i + 1 < out.size(); ++i)
        EXPECT_EQ(out[i].find("error"), std::string::npos) << "more than one error line:\n" << result.output;
}

testing_support::CommandResult run(const std::string& arguments)
{
    return testing_support::runCommand(hdrlab(arguments));
}

void writeText(const fs::path& path, const std::string& text)
{
    std::ofstream(path, std::ios::binary) << text;
}

bool isCharacterDevice(const fs::path& path)
{
    struct stat info
    {
    };
    return ::lstat(path.c_str(), &info) == 0 && S_ISCHR(info.st_mode);
}

TEST(BadInput, FrameCounts)
{
    expectError(run("--frames -1"), 2, "--frames -1 is negative; give 0..10000000, or leave --frames out");
    expectError(run("--frames abc"), 2, "--frames 'abc' is not a whole number; give one in 0..10000000");
    expectError(run("--frames 1e20"), 2, "--frames '1e20' is not a whole number");
    expectError(run("--frames 99999999999999999999"), 2, "--frames 99999999999999999999 is outside 0..10000000");
    expectError(run("--frames 2.5"), 2, "is not a whole number");
    expectError(run("--frames ''"), 2, "--frames needs a whole number");
    expectError(run("--frames 3 --frames 4"), 2, "--frames is given 2 times; give it once");
    expectError(run("--headless --frames 0 --screenshot s.png"), 1, "--frames 0 renders nothing to write");
    // 0 alone is valid: nothing is rendered and nothing recorded, and it says so.
    auto zero = run("--headless --frames 0 --size 16x16");
    EXPECT_EQ(zero.exitCode, 0) << zero.output;
    EXPECT_NE(zero.output.find("no frames were recorded"), std::string::npos) << zero.output;
}

TEST(BadInput, FrameSizes)
{
    expectError(run("--size 0x0"), 2, "--size '0x0' is empty or negative; width and height must be in 1..16384");
    expectError(run("--size -5x5"), 2, "--size '-5x5' is empty or negative");
    expectError(run("--size 100000x100000"), 2, "--size '100000x100000' is too large");
    expectError(run("--size 99999999999999999999x5"), 2, "is too large");
    expectError(run("--size abc"), 2, "--size 'abc' is not WxH");
    expectError(run("--size 5x"), 2, "is not WxH");
}

TEST(BadInput, HistogramBinsAndRange)
{
    expectError(run("--bins 0"), 2, "--bins 0 is outside 1..4096");
    expectError(run("--bins 5000"), 2, "--bins 5000 is outside 1..4096");
    expectError(run("--bins -3"), 2, "--bins -3 is outside 1..4096");
    expectError(run("--bins x"), 2, "--bins 'x' is not a whole number");
    auto oneBin = run("--headless --frames 3 --size 16x16 --bins 1 --verify");
    EXPECT_EQ(oneBin.exitCode, 0) << oneBin.output;  // the smallest histogram is valid, and verified
    expectError(run("--range 3:1"), 2, "--range '3:1' is empty; MIN must be below MAX");
    expectError(run("--range nan:3"), 2, "--range 'nan:3' is not MIN:MAX");
    expectError(run("--range 1e308:1e309"), 2, "is not MIN:MAX");
    expectError(run("--range -200:0"), 2, "is outside -64:64");
    expectError(run("--range -100:0"), 2, "is outside -64:64");  // the keys' range: a capture's settings load back
    expectError(run("--downsample 3"), 2, "--downsample");
    expectError(run("--capture-frames 0"), 2, "--capture-frames 0 is outside 1..1000000");
    expectError(run("compare --bins 0"), 2, "--bins 0 is outside 1..4096");
    expectError(run("compare --repeat 0"), 2, "--repeat 0 is outside 1..100000");
}

TEST(BadInput, UnknownIdsAndFlags)
{
    const std::string run16 = "--headless --frames 2 --size 16x16 ";
    expectError(run(run16 + "--histogram-method no-such-method"), 1, "unknown histogram method 'no-such-method'");
    expectError(run(run16 + "--scan no-such-scan"), 1, "unknown scan method 'no-such-scan'");
    expectError(run(run16 + "--operator no-such-operator"), 1, "unknown tone operator 'no-such-operator'");
    expectError(run("compare --methods no-such-method"), 2, "--methods: unknown histogram method 'no-such-method'");
    expectError(run("--no-such-flag"), 2, "--no-such-flag");
    expectError(run("no-such-command"), 2, "no-such-command");
}

TEST(BadInput, ImageFiles)
{
    fs::path dir = testing_support::scratchDir("bad-input-images");
    // A valid 16x16 EXR and PNG from hdrlab itself, then damaged copies of them.
    auto made = cli_test::runIn(dir, hdrlab("--headless --frames 1 --size 16x16 --screenshot ok.png "
                                            "--screenshot-exr ok.exr"));
    ASSERT_EQ(made.exitCode, 0) << made.output;
    std::ifstream exrFile(dir / "ok.exr", std::ios::binary), pngFile(dir / "ok.png", std::ios::binary);
    std::string exr((std::istreambuf_iterator<char>(exrFile)), {}), png((std::istreambuf_iterator<char>(pngFile)), {});
    writeText(dir / "empty.exr", "");
    writeText(dir / "truncated.exr", exr.substr(0, exr.size() / 2));
    writeText(dir / "truncated.png", png.substr(0, png.size() / 2));
    writeText(dir / "flat.hdr",
              "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 4 +X 4\n" + std::string(4 * 4 * 4 - 8, '\x80'));
    fs::create_directory(dir / "folder.exr");

    const std::string prefix = "hdrlab: error: cannot read '";
    auto tonemap = [&](const std::string& input) {
        return cli_test::runIn(dir, hdrlab("tonemap " + input + " -o o.png"));
    };
    expectError(tonemap("empty.exr"), 1, "file is empty", prefix);
    expectError(tonemap("truncated.exr"), 1, "damaged OpenEXR file", prefix);
    expectError(tonemap("truncated.png"), 1, "damaged PNG file", prefix);
    expectError(tonemap("flat.hdr"), 1, "damaged Radiance HDR file: truncated in scanline 4 of 4", prefix);
    // A folder is a sequence of frames (frames/FrameSequence.h), however it is named.
    expectError(tonemap("folder.exr"), 1, "sequence 'folder.exr': the folder holds no image files", "hdrlab: error: ");
    expectError(tonemap("missing.exr"), 1, "no such file", prefix);
    EXPECT_FALSE(fs::exists(dir / "o.png")) << "a failed tonemap wrote its output";
}

TEST(BadInput, SceneFiles)
{
    fs::path dir = testing_support::scratchDir("bad-input-scenes");
    writeText(dir / "empty.json", "");
    writeText(dir / "deep.json", std::string(10'000, '[') + std::string(10'000, ']'));
    writeText(dir / "huge.json",
              R"({"materials": {"m": {}}, "objects": [{"type": "box", "size": [1e308, 1, 1], "material": "m"}]})");
    fs::create_directory(dir / "folder.json");
    auto scene = [&](const std::string& file) {
        return cli_test::runIn(dir, hdrlab("--headless --frames 1 --size 16x16 --scene " + file));
    };
    expectError(scene("empty.json"), 1, "empty.json:1:1: syntax error");
    expectError(scene("deep.json"), 1, "nesting deeper than 64 levels");
    expectError(scene("huge.json"), 1, "is too large for a float, got 1e+308");
    expectError(scene("folder.json"), 1, "it is a folder, not a file");
    expectError(scene("missing.json"), 1, "scene missing.json not found; tried ");  // then where it looked
}

TEST(BadInput, GltfSceneFiles)
{
    fs::path dir = testing_support::scratchDir("bad-input-gltf");
    auto scene = [&](const std::string& file) {
        return cli_test::runIn(dir, hdrlab("--headless --frames 1 --size 16x16 --scene " + file));
    };
    gltf_test::Builder b;
    std::string primitive = gltf_test::addQuad(b);
    std::string meshes = ",\"nodes\":[{\"mesh\":0}],\"meshes\":[{\"primitives\":[" + primitive + "]}]";
    writeText(dir / "quad.gltf", b.gltf(meshes + ",\"materials\":[{}]"));
    auto good = cli_test::runIn(dir, hdrlab("--headless --frames 2 --size 16x16 --scene quad.gltf --screenshot q.png"));
    EXPECT_EQ(good.exitCode, 0) << good.output;
    EXPECT_TRUE(fs::exists(dir / "q.png"));

    writeText(dir / "badjson.gltf", "{\"asset\": {\"version\": \"2.0\"},,}");
    writeText(dir / "lines.gltf", b.gltf(",\"nodes\":[{\"mesh\":0}],\"meshes\":[{\"primitives\":[{\"attributes\":"
                                         "{\"POSITION\":0},\"mode\":1}]}]"));
    writeText(dir / "outside.gltf",
              b.gltf(meshes + ",\"materials\":[{\"pbrMetallicRoughness\":{\"baseColorTexture\":{\"index\":0}}}],"
                              "\"textures\":[{\"source\":0}],\"images\":[{\"uri\":\"/etc/passwd\"}]"));
    writeText(dir / "garbage.glb", "glTF\x02\x00\x00\x00 not really");
    expectError(scene("badjson.gltf"), 1, "cannot load glTF 'badjson.gltf': ");
    expectError(scene("lines.gltf"), 1, "mesh 0 primitive 0 has mode 1");
    expectError(scene("outside.gltf"), 1, "image 0 has an absolute path '/etc/passwd'");
    expectError(scene("garbage.glb"), 1, "cannot load glTF 'garbage.glb': ");
    expectError(scene("missing.glb"), 1, "scene missing.glb not found; tried ");
}

TEST(BadInput, OutputPaths)
{
    fs::path dir = testing_support::scratchDir("bad-input-outputs");
    const std::string run16 = "--headless --frames 2 --size 16x16 ";
    // Checked before the run: a bad output name is a bad command line (exit 2).
    expectError(cli_test::runIn(dir, hdrlab(run16 + "--screenshot /dev/full")), 2,
                "cannot write '/dev/full': it is a character device; hdrlab replaces only regular files");
    EXPECT_TRUE(isCharacterDevice("/dev/full")) << "/dev/full was replaced";
    expectError(cli_test::runIn(dir, hdrlab(run16 + "--capture-csv /dev/null")), 2, "a character device");
    EXPECT_TRUE(isCharacterDevice("/dev/null")) << "/dev/null was replaced";
    fs::create_directory(dir / "folder.png");
    expectError(cli_test::runIn(dir, hdrlab(run16 + "--screenshot folder.png")), 2, "it is a folder");
    expectError(cli_test::runIn(dir, hdrlab(run16 + "--screenshot missing/s.png")), 2, "does not exist");
    expectError(run(run16 + "--screenshot -"), 2, "--screenshot writes a binary image");
    expectError(run(run16 + "--capture - --capture-csv -"), 2, "only one output can go to standard output");
    expectError(run(run16 + "--screenshot ''"), 2, "--screenshot needs a file name");

    // A symbolic link: its target is written, the link stays.
    fs::create_directory(dir / "real");
    fs::create_symlink("real/shot.png", dir / "link.png");
    auto linked = cli_test::runIn(dir, hdrlab(run16 + "--screenshot link.png"));
    EXPECT_EQ(linked.exitCode, 0) << linked.output;
    EXPECT_TRUE(fs::is_symlink(dir / "link.png"));
    EXPECT_GT(fs::file_size(dir / "real" / "shot.png"), 0u);

    // "-": the CSV alone on standard output; hdrlab's own messages go to standard error.
    auto csv = testing_support::runCommand("( " + hdrlab("--headless --frames 14 --size 16x16 --capture-csv -") +
                                           " 2>/dev/null )");
    EXPECT_EQ(csv.exitCode, 0);
    auto csvLines = lines(csv.output);
    ASSERT_FALSE(csvLines.empty());
    EXPECT_EQ(csvLines.front(), "frame,pass,cpu_ms,gpu_ms,gpu_source");
    for (const std::string& line : csvLines)
        EXPECT_GE(std::count(line.begin(), line.end(), ','), 4) << "not a CSV row: " << line;

    fs::remove_all(dir / "real");
    fs::remove(dir / "link.png");
    fs::remove(dir / "folder.png");
    for (const auto& entry : fs::directory_iterator(dir))
        ADD_FAILURE() << "left behind: " << entry.path();
}

TEST(BadInput, CaptureRingKeepsTheLastFrames)
{
    fs::path dir = testing_support::scratchDir("bad-input-capture-ring");
    auto result =
        cli_test::runIn(dir, hdrlab("--headless --frames 40 --size 16x16 --capture-frames 5 --capture c.json"));
    ASSERT_EQ(result.exitCode, 0) << result.output;
    EXPECT_NE(result.output.find("dropped"), std::string::npos) << result.output;
    std::ifstream file(dir / "c.json");
    nlohmann::json other = nlohmann::json::parse(file)["otherData"];
    EXPECT_EQ(other["recorded_frames"], 5);
    // Frames 10..39 are recorded (the first 10 warm up); a frame or two may still be in flight at the end.
    EXPECT_GE(other["dropped_frames"].get<int>(), 22);
    EXPECT_LE(other["dropped_frames"].get<int>(), 25);
}

}  // namespace
