// SettingsCliTest.cpp: settings as data through the hdrlab binary: `settings --list` and --help,
// --set and --settings on the app (a headless run's capture records every key), on tonemap and on
// bench pipeline; the order file < dedicated flags < --set; one-line errors naming key and file.
#include "cli/CliTestSupport.h"
#include "image/ImageIo.h"
#include "post/PipelineParameters.h"
#include "post/PostPipeline.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>

namespace {

namespace fs = std::filesystem;
using cli_test::hdrlab;
using cli_test::lines;

void expectOneLineError(const testing_support::CommandResult& result, const std::string& part)
{
    EXPECT_NE(result.exitCode, 0) << result.output;
    std::vector<std::string> errors;
    for (const std::string& line : lines(result.output))
        if (line.rfind("hdrlab", 0) == 0 && line.find("error") != std::string::npos)
            errors.push_back(line);
    ASSERT_EQ(errors.size(), 1u) << result.output;
    EXPECT_NE(errors[0].find(part), std::string::npos) << errors[0];
}

nlohmann::json otherData(const fs::path& capture)
{
    std::ifstream file(capture);
    EXPECT_TRUE(file) << capture;
    return nlohmann::json::parse(file)["otherData"];
}

double meanOf(const image::Image8& image)
{
    double sum = 0.0;
    for (std::uint8_t v : image.pixels)
        sum += v;
    return sum / double(image.pixels.size());
}

TEST(SettingsCli, ListPrintsEveryKeyAndHelpMentionsIt)
{
    auto result = testing_support::runCommand(hdrlab("settings --list"));
    ASSERT_EQ(result.exitCode, 0) << result.output;
    for (const post::ParameterInfo& info : post::listParameters())
        EXPECT_NE(result.output.find("\n" + info.key + " "), std::string::npos) << info.key;
    auto help = testing_support::runCommand(hdrlab("--help"));
    for (const char* part : {"--set", "--settings", "settings --list"})
        EXPECT_NE(help.output.find(part), std::string::npos) << part;
    for (const char* command : {"tonemap --help", "bench --help"}) {
        auto sub = testing_support::runCommand(hdrlab(command));
        EXPECT_NE(sub.output.find("--settings"), std::string::npos) << command;
        EXPECT_NE(sub.output.find("--set"), std::string::npos) << command;
    }
    expectOneLineError(testing_support::runCommand(hdrlab("settings")), "settings needs --list");
}

TEST(SettingsCli, BadKeysValuesAndFilesGiveOneLineErrorsNamingThem)
{
    const fs::path dir = testing_support::scratchDir("cli-settings-errors");
    auto run = [&](const std::string& arguments) { return cli_test::runIn(dir, hdrlab(arguments)); };
    expectOneLineError(run("--headless --frames 1 --set nope.key=1"), "unknown key 'nope.key'");
    expectOneLineError(run("--headless --frames 1 --set ward.display_max=bright"), "ward.display_max: expects");
    expectOneLineError(run("--headless --frames 1 --set histogram.bins=0"), "histogram.bins: '0' is outside 1..4096");
    expectOneLineError(run("--headless --frames 1 --set ward.bins"), "is not KEY=VALUE");
    expectOneLineError(run("tonemap in.exr -o o.png --set percentile.key=-1"), "percentile.key");
    expectOneLineError(run("bench scan --set ward.bins=50"), "options of 'bench pipeline'");

    std::ofstream(dir / "unknown.json") << "{\n  \"histogram.bins\": 128,\n  \"ward.brightness\": 2\n}\n";
    std::ofstream(dir / "malformed.json") << "{\"histogram.bins\": 128,,}";
    std::ofstream(dir / "range.json") << "{\"percentile.percentile\": 101}";
    expectOneLineError(run("--headless --frames 1 --settings unknown.json"),
                       "unknown.json:3: unknown key 'ward.brightness'");
    expectOneLineError(run("--headless --frames 1 --settings malformed.json"), "malformed.json:1:");
    expectOneLineError(run("--headless --frames 1 --settings range.json"), "range.json:1: percentile.percentile:");
    expectOneLineError(run("--headless --frames 1 --settings missing.json"),
                       "cannot open settings file 'missing.json'");
    fs::remove_all(dir);
}

TEST(SettingsCli, HeadlessRunAppliesFileFlagsAndSetInOrderAndItsCaptureRecordsEverySetting)
{
    const fs::path dir = testing_support::scratchDir("cli-settings-run");
    std::ofstream(dir / "s.json") << "{\n  \"tonemap.operator\": \"exposure\",\n  \"histogram.bins\": 64,\n"
                                     "  \"exposure.exposure_ev\": 1.5,\n  \"ward.display_max\": 400,\n"
                                     "  \"percentile.key\": 0.25\n}\n";
    // The file, then --operator and --bins (aliases of keys) over it, then --set over both.
    auto result = cli_test::runIn(dir, hdrlab("--headless --frames 12 --size 96x54 --settings s.json "
                                              "--operator percentile --bins 128 --set percentile.key=0.4 "
                                              "--set histogram.bins=32 --capture c.json --screenshot c.png"));
    ASSERT_EQ(result.exitCode, 0) << result.output;
    nlohmann::json meta = otherData(dir / "c.json");
    for (const post::ParameterInfo& info : post::listParameters())
        EXPECT_TRUE(meta.contains("setting." + info.key)) << info.key;
    EXPECT_EQ(meta["setting.tonemap.operator"], "percentile");  // --operator over the file
    EXPECT_EQ(meta["tone_operator"], "percentile");
    EXPECT_EQ(meta["setting.histogram.bins"], "32");         // --set over --bins over the file
    EXPECT_EQ(meta["setting.percentile.key"], "0.4");        // --set over the file
    EXPECT_EQ(meta["setting.exposure.exposure_ev"], "1.5");  // kept for an operator not in use
    EXPECT_EQ(meta["setting.ward.display_max"], "400");

    // The recorded settings, written back as a file, reproduce the run's settings.
    nlohmann::json file = nlohmann::json::object();
    for (const auto& [key, value] : meta.items())
        if (key.rfind("setting.", 0) == 0)
            file[key.substr(8)] = value;
    std::ofstream(dir / "again.json") << file.dump(2);
    auto again = cli_test::runIn(
        dir, hdrlab("--headless --frames 12 --size 96x54 --settings again.json --capture d.json --screenshot d.png"));
    ASSERT_EQ(again.exitCode, 0) << again.output;
    nlohmann::json meta2 = otherData(dir / "d.json");
    for (const post::ParameterInfo& info : post::listParameters())
        EXPECT_EQ(meta2["setting." + info.key], meta["setting." + info.key]) << info.key;
    // ... and its picture (headless runs are deterministic).
    EXPECT_EQ(image::loadImage8(dir / "d.png", 3).pixels, image::loadImage8(dir / "c.png", 3).pixels);
    fs::remove_all(dir);
}

TEST(SettingsCli, TonemapAndBenchPipelineTakeSettings)
{
    const fs::path dir = testing_support::scratchDir("cli-settings-tonemap");
    image::ImageF hdr(32, 16);
    for (int y = 0; y < hdr.height; ++y)
        for (int x = 0; x < hdr.width; ++x)
            for (int c = 0; c < 4; ++c)
                hdr.at(x, y)[c] = c == 3 ? 1.0f : 0.01f * float(1 + x + y);
    image::writeExr(dir / "in.exr", hdr);
    std::ofstream(dir / "bright.json") << "{\"exposure.exposure_ev\": 3, \"tonemap.operator\": \"exposure\"}";
    auto dark = cli_test::runIn(dir, hdrlab("tonemap in.exr -o dark.png --operator exposure"));
    auto bright = cli_test::runIn(dir, hdrlab("tonemap in.exr -o bright.png --settings bright.json"));
    auto set =
        cli_test::runIn(dir, hdrlab("tonemap in.exr -o set.png --operator exposure --set exposure.exposure_ev=3"));
    ASSERT_EQ(dark.exitCode, 0) << dark.output;
    ASSERT_EQ(bright.exitCode, 0) << bright.output;
    ASSERT_EQ(set.exitCode, 0) << set.output;
    const double darkMean = meanOf(image::loadImage8(dir / "dark.png", 3));
    const double brightMean = meanOf(image::loadImage8(dir / "bright.png", 3));
    EXPECT_GT(brightMean, darkMean + 20.0) << "3 EV from the settings file should brighten the picture";
    EXPECT_EQ(image::loadImage8(dir / "set.png", 3).pixels, image::loadImage8(dir / "bright.png", 3).pixels);
    // A dedicated flag wins over the file.
    auto flag = cli_test::runIn(dir, hdrlab("tonemap in.exr -o flag.png --settings bright.json --operator ward"));
    ASSERT_EQ(flag.exitCode, 0) << flag.output;
    EXPECT_NE(flag.output.find("with ward"), std::string::npos) << flag.output;

    auto bench = cli_test::runIn(dir, hdrlab("bench pipeline --size 64x36 --frames 2 --warmup 1 --operator ward "
                                             "--settings bright.json --set ward.display_max=300"));
    EXPECT_EQ(bench.exitCode, 0) << bench.output;
    expectOneLineError(cli_test::runIn(dir, hdrlab("bench pipeline --size 64x36 --frames 2 --warmup 1 "
                                                   "--set ward.display_max=0")),
                       "ward.display_max");
    fs::remove_all(dir);
}

TEST(SettingsCli, TonemapHistogramMethodIsThePipelinesDefaultAndItsFlagWinsOverTheFile)
{
    const fs::path dir = testing_support::scratchDir("cli-settings-histogram-method");
    image::ImageF hdr(16, 8);
    for (int y = 0; y < hdr.height; ++y)
        for (int x = 0; x < hdr.width; ++x)
            for (int c = 0; c < 4; ++c)
                hdr.at(x, y)[c] = c == 3 ? 1.0f : 0.02f * float(1 + x + y);
    image::writeExr(dir / "in.exr", hdr);
    std::ofstream(dir / "method.json") << "{\"histogram.method\": \"compute-global-atomic\"}";
    // tonemap's line: "tone-mapped WxH with OPERATOR (METHOD, N bins, ...".
    const auto method = [](const testing_support::CommandResult& result) {
        const std::size_t open = result.output.find(" (");
        return open == std::string::npos ? std::string()
                                         : result.output.substr(open + 2, result.output.find(',', open) - open - 2);
    };
    auto plain = cli_test::runIn(dir, hdrlab("tonemap in.exr -o plain.png"));
    auto file = cli_test::runIn(dir, hdrlab("tonemap in.exr -o file.png --settings method.json"));
    auto flag = cli_test::runIn(
        dir, hdrlab("tonemap in.exr -o flag.png --settings method.json --histogram-method compute-replicated"));
    ASSERT_EQ(plain.exitCode, 0) << plain.output;
    ASSERT_EQ(file.exitCode, 0) << file.output;
    ASSERT_EQ(flag.exitCode, 0) << flag.output;
    EXPECT_EQ(method(plain), post::PipelineSettings{}.histogramMethod) << plain.output;
    EXPECT_EQ(method(file), "compute-global-atomic") << file.output;
    EXPECT_EQ(method(flag), "compute-replicated") << flag.output;  // the flag over the file
    fs::remove_all(dir);
}

}  // namespace

// Issue 35: an engine preset given without its operator is kept for the percentile operator and
// would change nothing; the run says so (once), and is quiet when the operator is the percentile one.
TEST(SettingsCli, PresetWithoutItsOperatorWarns)
{
    const fs::path dir = testing_support::scratchDir("cli-preset-without-operator");
    const std::string run = "--headless --size 32x18 --frames 1 --set percentile.preset=bevy";
    auto alone = cli_test::runIn(dir, hdrlab(run));
    ASSERT_EQ(alone.exitCode, 0) << alone.output;
    const std::string warning = "percentile.preset=bevy is kept for the percentile operator, which is not in use";
    EXPECT_NE(alone.output.find(warning), std::string::npos) << alone.output;
    EXPECT_NE(alone.output.find("add --operator percentile"), std::string::npos) << alone.output;
    auto withOperator = cli_test::runIn(dir, hdrlab(run + " --operator percentile"));
    ASSERT_EQ(withOperator.exitCode, 0) << withOperator.output;
    EXPECT_EQ(withOperator.output.find("is kept for the"), std::string::npos) << withOperator.output;
    // A settings file stores every operator's keys, the parked ones too: loading one stays quiet.
    const fs::path file = dir / "settings.json";
    std::ofstream(file) << R"({ "percentile.preset": "bevy" })";
    auto fromFile = cli_test::runIn(dir, hdrlab("--headless --size 32x18 --frames 1 --settings settings.json"));
    ASSERT_EQ(fromFile.exitCode, 0) << fromFile.output;
    EXPECT_EQ(fromFile.output.find("is kept for the"), std::string::npos) << fromFile.output;
    // tonemap warns the same way; a contact sheet of every operator gives the preset to its operator's tile.
    auto shot = cli_test::runIn(dir, hdrlab("--headless --size 32x18 --frames 1 --screenshot-exr in.exr"));
    ASSERT_EQ(shot.exitCode, 0) << shot.output;
    auto single = cli_test::runIn(dir, hdrlab("tonemap in.exr -o one.png --set percentile.preset=bevy"));
    ASSERT_EQ(single.exitCode, 0) << single.output;
    EXPECT_NE(single.output.find(warning), std::string::npos) << single.output;
    auto sheet =
        cli_test::runIn(dir, hdrlab("tonemap in.exr -o sheet.png --operator all --set percentile.preset=bevy"));
    ASSERT_EQ(sheet.exitCode, 0) << sheet.output;
    EXPECT_EQ(sheet.output.find("is kept for the"), std::string::npos) << sheet.output;
}
