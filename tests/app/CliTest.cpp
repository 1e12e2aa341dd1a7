// CliTest.cpp: command-line parsing: every flag documented, values filled in, and absurd or malformed
// values refused with a clear message and exit code 2.
#include "cli/Cli.h"
#include "support/TestPaths.h"

#include <fstream>

#include <gtest/gtest.h>

namespace {

using app::CommandKind;
using app::parseCommandLine;

app::ParsedCommandLine parse(std::vector<std::string> args)
{
    return parseCommandLine(args);
}

void expectRefused(std::vector<std::string> args, const std::string& messagePart)
{
    std::string joined;
    for (const auto& a : args)
        joined += a + " ";
    app::ParsedCommandLine result = parse(args);
    EXPECT_EQ(result.kind, CommandKind::Exit) << joined;
    EXPECT_NE(result.exitCode, 0) << joined;
    EXPECT_NE(result.error.find(messagePart), std::string::npos) << joined << "-> " << result.error;
    EXPECT_EQ(result.error.find('\n'), std::string::npos) << "one line: " << result.error;
}

TEST(CliTest, ParseSizeAcceptsWxHAndRefusesAbsurdSizes)
{
    EXPECT_EQ(app::parseSize("320x180"), glm::ivec2(320, 180));
    EXPECT_EQ(app::parseSize("1X1"), glm::ivec2(1, 1));
    EXPECT_EQ(app::parseSize("16384x16384"), glm::ivec2(16384, 16384));
    for (const char* bad :
         {"0x0", "0x10", "10x0", "16385x10", "-5x10", "100", "x", "axb", "10x", "10x10x", " 10x10", ""})
        EXPECT_THROW(app::parseSize(bad), app::CliError) << bad;
}

TEST(CliTest, ParseRangeAcceptsMinMaxAndAuto)
{
    app::RangeOption range = app::parseRange("-10:20.5");
    EXPECT_FALSE(range.automatic);
    EXPECT_FLOAT_EQ(range.logMin, -10.0f);
    EXPECT_FLOAT_EQ(range.logMax, 20.5f);
    EXPECT_TRUE(app::parseRange("auto").automatic);
    for (const char* bad : {"5:1", "3:3", "nan:4", "1:inf", "1", ":", "a:b", "1:2:3", "-200:0", ""})
        EXPECT_THROW(app::parseRange(bad), app::CliError) << bad;
}

TEST(CliTest, BinsMustBeWithinLimits)
{
    EXPECT_EQ(app::validateBins(1), 1u);
    EXPECT_EQ(app::validateBins(4096), 4096u);
    EXPECT_THROW(app::validateBins(0), app::CliError);
    EXPECT_THROW(app::validateBins(4097), app::CliError);
    EXPECT_THROW(app::validateBins(-3), app::CliError);
}

TEST(CliTest, RunOptionsAreFilledIn)
{
    auto result = parse({"--headless",
                         "--frames",
                         "30",
                         "--size",
                         "320x180",
                         "--screenshot",
                         "s.png",
                         "--screenshot-exr",
                         "s.exr",
                         "--capture",
                         "c.json",
                         "--capture-csv",
                         "c.csv",
                         "--ui",
                         "--histogram-method",
                         "h",
                         "--scan",
                         "s",
                         "--operator",
                         "o",
                         "--bins",
                         "64",
                         "--range",
                         "-4:8",
                         "--downsample",
                         "2",
                         "--out-of-range",
                         "separate",
                         "--vsync",
                         "off",
                         "--data-dir",
                         "/tmp",
                         "--log-level",
                         "warning",
                         "--verify",
                         "--scene",
                         "x.json",
                         "--cuda-interop",
                         "shared",
                         "--lighting",
                         "forward",
                         "--ui-scale",
                         "1.5",
                         "--fixed-step"});
    ASSERT_EQ(result.kind, CommandKind::Run) << result.error;
    const app::AppOptions& o = result.app;
    EXPECT_TRUE(o.headless);
    EXPECT_EQ(o.frames, 30);
    EXPECT_EQ(o.size, glm::ivec2(320, 180));
    EXPECT_EQ(o.screenshot, std::filesystem::path("s.png"));
    EXPECT_EQ(o.screenshotExr, std::filesystem::path("s.exr"));
    EXPECT_EQ(o.capture, std::filesystem::path("c.json"));
    EXPECT_EQ(o.captureCsv, std::filesystem::path("c.csv"));
    EXPECT_TRUE(o.ui);
    EXPECT_EQ(o.uiScale, 1.5f);
    EXPECT_TRUE(o.fixedStep);
    EXPECT_TRUE(o.verify);
    EXPECT_EQ(o.histogramMethod, "h");
    EXPECT_EQ(o.scanMethod, "s");
    EXPECT_EQ(o.toneOperator, "o");
    EXPECT_EQ(o.bins, 64u);
    ASSERT_TRUE(o.range);
    EXPECT_FLOAT_EQ(o.range->logMin, -4.0f);
    EXPECT_EQ(o.downsample, 2);
    EXPECT_EQ(o.outOfRange, "separate");
    EXPECT_FALSE(o.vsync);
    EXPECT_TRUE(o.cudaInteropShared);
    EXPECT_EQ(o.lighting, "forward");
    EXPECT_EQ(o.dataDir, std::filesystem::path("/tmp"));
    EXPECT_EQ(o.sceneFile, std::filesystem::path("x.json"));
    EXPECT_EQ(result.logLevel, util::LogLevel::Warning);
    EXPECT_FALSE(o.noArguments);
}

TEST(CliTest, NoArgumentsIsMarkedForTheDemo)
{
    auto result = parse({});
    ASSERT_EQ(result.kind, CommandKind::Run);
    EXPECT_TRUE(result.app.noArguments);
    EXPECT_FALSE(result.app.frames);
    EXPECT_FALSE(result.app.cudaInteropShared);  // map/unmap: measured faster at 4K (docs/CUDA.md)
    EXPECT_FALSE(result.app.lighting);           // the renderer's default (deferred)
    EXPECT_FALSE(result.app.uiScale);            // the monitor's content scale
    EXPECT_FALSE(result.app.fixedStep);
}

TEST(CliTest, BadValuesAreRefusedWithOneLine)
{
    expectRefused({"--size", "0x0"}, "size '0x0'");
    expectRefused({"--size", "20000x10"}, "at most 16384");
    expectRefused({"--size", "wide"}, "not WxH");
    expectRefused({"--bins", "0"}, "bins 0");
    expectRefused({"--bins", "5000"}, "1..4096");
    expectRefused({"--bins", "many"}, "--bins");
    expectRefused({"--range", "5:1"}, "MIN must be below MAX");
    expectRefused({"--range", "bright"}, "not MIN:MAX");
    expectRefused({"--frames", "-1"}, "--frames -1");
    expectRefused({"--downsample", "3"}, "--downsample");
    expectRefused({"--vsync", "maybe"}, "--vsync");
    expectRefused({"--cuda-interop", "ring"}, "--cuda-interop");
    expectRefused({"--lighting", "raytraced"}, "--lighting");
    expectRefused({"--no-such-flag"}, "--no-such-flag");
    expectRefused({"--screenshot", ""}, "needs a file name");
    expectRefused({"--headless", "--window-screenshot", "w.png"}, "needs a window");
    expectRefused({"--log-level", "loud"}, "--log-level");
    expectRefused({"--ui-scale", "8"}, "--ui-scale 8 is outside 0.5..4");
    expectRefused({"--ui-scale", "big"}, "--ui-scale");
}

TEST(CliTest, HelpListsEveryFlagAndSubcommand)
{
    auto result = parse({"--help"});
    ASSERT_EQ(result.kind, CommandKind::Exit);
    EXPECT_EQ(result.exitCode, 0);
    for (const char* flag : {"--scene",
                             "--size",
                             "--headless",
                             "--frames",
                             "--screenshot",
                             "--screenshot-exr",
                             "--hdr-sequence-out",
                             "--capture",
                             "--capture-csv",
                             "--capture-frames",
                             "--ui",
                             "--list",
                             "--verify",
                             "--histogram-method",
                             "--scan",
                             "--operator",
                             "--bins",
                             "--range",
                             "--downsample",
                             "--vsync",
                             "--data-dir",
                             "--log-level",
                             "--out-of-range",
                             "--hide-ui",
                             "--ui-scale",
                             "--fixed-step",
                             "--cuda-interop",
                             "tonemap",
                             "compare",
                             "equalize8",
                             "clahe",
                             "view",
                             "bench"})
        EXPECT_NE(result.output.find(flag), std::string::npos) << flag;
}

TEST(CliTest, ViewTakesAnImageAndEveryLiveOption)
{
    auto view = parse({"view", "in.exr", "--headless", "--frames", "3", "--part", "right", "--operator", "percentile",
                       "--capture", "c.json", "--verify"});
    ASSERT_EQ(view.kind, CommandKind::Run) << view.error;
    ASSERT_TRUE(view.app.viewImage);
    EXPECT_EQ(*view.app.viewImage, "in.exr");
    EXPECT_EQ(view.app.exrPart, "right");
    EXPECT_TRUE(view.app.headless);
    EXPECT_EQ(view.app.frames, 3);
    EXPECT_EQ(view.app.toneOperator, "percentile");
    EXPECT_EQ(view.app.capture, "c.json");
    EXPECT_TRUE(view.app.verify);
    auto before = parse({"--headless", "view", "in.hdr"});  // live options before the subcommand too
    ASSERT_EQ(before.kind, CommandKind::Run) << before.error;
    EXPECT_TRUE(before.app.headless);
    EXPECT_FALSE(parse({"--headless"}).app.viewImage);

    expectRefused({"view"}, "image is required");
    expectRefused({"view", "in.exr", "--scene", "s.json"}, "--scene does not apply to view");
    expectRefused({"view", "in.exr", "--frames", "x"}, "--frames 'x' is not a whole number");
}

TEST(CliTest, SubcommandsFillTheirOptions)
{
    auto tonemap = parse({"tonemap", "in.exr", "-o", "out.png", "--operator", "ward", "--bins", "100", "--range",
                          "-8:8", "--curve-out", "c.csv", "--verify", "--data-dir", "/d"});
    ASSERT_EQ(tonemap.kind, CommandKind::Tonemap) << tonemap.error;
    EXPECT_EQ(tonemap.tonemap.input, std::filesystem::path("in.exr"));
    EXPECT_EQ(tonemap.tonemap.output, std::filesystem::path("out.png"));
    EXPECT_EQ(tonemap.tonemap.toneOperator, "ward");
    EXPECT_EQ(tonemap.tonemap.bins, 100u);
    EXPECT_EQ(tonemap.tonemap.range, "-8:8");
    EXPECT_EQ(tonemap.tonemap.curveOut, std::filesystem::path("c.csv"));
    EXPECT_TRUE(tonemap.tonemap.verify);
    EXPECT_EQ(tonemap.common.dataDir, std::filesystem::path("/d"));

    auto automatic = parse({"tonemap", "in.exr", "-o", "out.png", "--range", "auto"});
    ASSERT_EQ(automatic.kind, CommandKind::Tonemap);
    EXPECT_FALSE(automatic.tonemap.range);
    EXPECT_FALSE(automatic.tonemap.preset);
    EXPECT_EQ(automatic.tonemap.sheetTileWidth, 480u);

    auto sheet = parse({"tonemap", "in.exr", "-o", "s.png", "--operator", "all", "--sheet-tile-width", "300"});
    ASSERT_EQ(sheet.kind, CommandKind::Tonemap) << sheet.error;
    EXPECT_EQ(sheet.tonemap.toneOperator, "all");
    EXPECT_EQ(sheet.tonemap.sheetTileWidth, 300u);
    EXPECT_EQ(parse({"tonemap", "in.exr", "-o", "s.png", "--preset", "all"}).tonemap.preset, "all");
    EXPECT_EQ(
        parse({"tonemap", "in.exr", "-o", "s.png", "--preset", "bevy", "--operator", "percentile"}).tonemap.preset,
        "bevy");

    auto compare = parse({"compare", "--size", "64x32", "--bins", "16", "--repeat", "3", "--csv", "r.csv"});
    ASSERT_EQ(compare.kind, CommandKind::Compare) << compare.error;
    EXPECT_EQ(compare.compare.size, "64x32");
    EXPECT_EQ(compare.compare.bins, std::vector<unsigned>{16u});
    EXPECT_EQ(compare.compare.repeat, 3u);
    EXPECT_EQ(compare.compare.csv, std::filesystem::path("r.csv"));
    EXPECT_FALSE(compare.compare.scanCsv);
    EXPECT_EQ(parse({"compare", "--scan-csv", "s.csv"}).compare.scanCsv, std::filesystem::path("s.csv"));
    EXPECT_FALSE(compare.compare.chart);

    auto sweep = parse({"compare", "--bins", "16,64,4096", "--chart", "t.svg"});
    ASSERT_EQ(sweep.kind, CommandKind::Compare) << sweep.error;
    EXPECT_EQ(sweep.compare.bins, (std::vector<unsigned>{16u, 64u, 4096u}));
    EXPECT_EQ(sweep.compare.chart, std::filesystem::path("t.svg"));
    EXPECT_EQ(parse({"compare", "--bins", "all"}).compare.bins, (std::vector<unsigned>{64u, 256u, 1024u, 4096u}));

    auto benchChart = parse({"bench", "pipeline", "--bins", "64,256", "--chart", "b.svg"});
    ASSERT_EQ(benchChart.kind, CommandKind::Bench) << benchChart.error;
    EXPECT_EQ(benchChart.bench.chart, std::filesystem::path("b.svg"));
    EXPECT_FALSE(benchChart.bench.peers);
    EXPECT_TRUE(parse({"bench", "pipeline", "--peers"}).bench.peers);

    auto equalize = parse({"equalize8", "in.png", "-o", "out.png", "--scan", "cuda-blelloch", "--block", "512"});
    ASSERT_EQ(equalize.kind, CommandKind::Equalize8) << equalize.error;
    EXPECT_EQ(equalize.equalize8.scan, "cuda-blelloch");
    EXPECT_EQ(equalize.equalize8.block, 512u);

    auto clahe = parse({"clahe", "in.png", "-o", "out.png", "--clip-limit", "2.5", "--tile-grid", "16x4", "--backend",
                        "cpu", "--per-channel", "--verify", "--runs", "3"});
    ASSERT_EQ(clahe.kind, CommandKind::Clahe) << clahe.error;
    EXPECT_EQ(clahe.clahe.clipLimit, 2.5);
    EXPECT_EQ(clahe.clahe.tilesX, 16);
    EXPECT_EQ(clahe.clahe.tilesY, 4);
    EXPECT_EQ(clahe.clahe.backend, "cpu");
    EXPECT_TRUE(clahe.clahe.perChannel);
    EXPECT_TRUE(clahe.clahe.verify);
    EXPECT_EQ(clahe.clahe.runs, 3);
    auto claheDefaults = parse({"clahe", "in.png", "-o", "out.png"});
    ASSERT_EQ(claheDefaults.kind, CommandKind::Clahe) << claheDefaults.error;
    EXPECT_EQ(claheDefaults.clahe.clipLimit, 40.0);  // OpenCV's defaults
    EXPECT_EQ(claheDefaults.clahe.tilesX, 8);
    EXPECT_EQ(claheDefaults.clahe.tilesY, 8);
    EXPECT_EQ(claheDefaults.clahe.backend, "gl");
    EXPECT_FALSE(claheDefaults.clahe.perChannel);

    auto benchClahe = parse({"bench", "clahe", "--repeat", "9"});
    ASSERT_EQ(benchClahe.kind, CommandKind::Bench) << benchClahe.error;
    EXPECT_EQ(benchClahe.bench.sizes, (std::vector<glm::ivec2>{{1920, 1080}, {3840, 2160}}));
    EXPECT_EQ(parse({"bench", "clahe", "--size", "64x36"}).bench.sizes, (std::vector<glm::ivec2>{{64, 36}}));
    auto benchFusion = parse({"bench", "fusion", "--repeat", "200", "--csv", "fusion.csv"});
    ASSERT_EQ(benchFusion.kind, CommandKind::Bench) << benchFusion.error;
    EXPECT_EQ(benchFusion.bench.suite, "fusion");
    EXPECT_EQ(benchFusion.bench.sizes, (std::vector<glm::ivec2>{{1920, 1080}, {3840, 2160}}));
    EXPECT_EQ(parse({"bench", "fusion", "--size", "33x17"}).bench.sizes, (std::vector<glm::ivec2>{{33, 17}}));

    auto bench = parse({"bench", "scan", "--repeat", "7", "--log-level", "debug"});
    ASSERT_EQ(bench.kind, CommandKind::Bench) << bench.error;
    EXPECT_EQ(bench.bench.suite, "scan");
    EXPECT_EQ(bench.bench.repeat, 7u);
    EXPECT_TRUE(bench.common.verbose);
}

TEST(CliTest, SubcommandsRefuseBadValues)
{
    expectRefused({"tonemap", "in.exr"}, "--output");
    expectRefused({"tonemap", "in.exr", "-o", "o.png", "--bins", "0"}, "bins 0");
    expectRefused({"tonemap", "in.exr", "-o", "o.png", "--range", "2:1"}, "MIN must be below MAX");
    expectRefused({"tonemap", "in.exr", "-o", "o.png", "--preset", "unreal", "--operator", "ward"},
                  "--preset runs the percentile operator, not --operator ward");
    expectRefused({"tonemap", "in.exr", "-o", "o.png", "--operator", "all", "--sheet-tile-width", "127"},
                  "--sheet-tile-width 127 is outside 128..4096");
    expectRefused({"compare", "--size", "0x5"}, "size '0x5'");
    expectRefused({"compare", "--repeat", "0"}, "--repeat 0");
    expectRefused({"compare", "--bins", "16,0"}, "--bins 0");
    expectRefused({"compare", "--bins", "16,,64"}, "--bins");
    expectRefused({"compare", "--chart", ""}, "--chart needs a file name");
    expectRefused({"bench", "scan", "--chart", "s.svg"}, "--chart is an option of 'bench pipeline'");
    expectRefused({"bench", "pipeline", "--chart", "-"}, "cannot share standard output");
    expectRefused({"equalize8", "in.png", "-o", "o.png", "--block", "128"}, "--block");
    expectRefused({"bench", "everything"}, "suite");
    expectRefused({"clahe", "in.png", "-o", "o.png", "--tile-grid", "0x8"}, "--tile-grid '0x8' is outside 1..64");
    expectRefused({"clahe", "in.png", "-o", "o.png", "--tile-grid", "8x65"}, "outside 1..64");
    expectRefused({"clahe", "in.png", "-o", "o.png", "--tile-grid", "8"}, "not WxH");
    expectRefused({"clahe", "in.png", "-o", "o.png", "--clip-limit", "-0.5"}, "--clip-limit -0.5 is outside");
    expectRefused({"clahe", "in.png", "-o", "o.png", "--clip-limit", "nan"}, "--clip-limit");
    expectRefused({"clahe", "in.png", "-o", "o.png", "--clip-limit", "inf"}, "--clip-limit");
    expectRefused({"clahe", "in.png", "-o", "o.png", "--backend", "metal"}, "--backend");
    expectRefused({"clahe", "in.png", "-o", "-"}, "binary image");
    expectRefused({"clahe", "in.png"}, "--output");
    expectRefused({"bench", "clahe", "--bins", "64"}, "--bins is an option of 'bench pipeline'");
    expectRefused({"bench", "flicker", "--peers"}, "--peers is an option of 'bench pipeline'");
    expectRefused({"bench", "clahe", "--peers"}, "--peers is an option of 'bench pipeline'");
}

TEST(CliTest, SequenceOptionsAreFilledInAndChecked)
{
    auto view = parse({"view", "shots/*.exr", "--fps", "29.97", "--on-bad-frame", "skip", "--headless"});
    ASSERT_EQ(view.kind, CommandKind::Run) << view.error;
    EXPECT_EQ(view.app.viewImage, std::filesystem::path("shots/*.exr"));
    EXPECT_EQ(view.app.sequenceFps, 29.97);
    EXPECT_EQ(view.app.badFramePolicy, "skip");
    EXPECT_FALSE(parse({"view", "a.exr"}).app.sequenceFps);

    auto render = parse({"--headless", "--hdr-sequence-out", "f.%04d.exr"});  // its folder must exist
    ASSERT_EQ(render.kind, CommandKind::Run) << render.error;
    EXPECT_EQ(render.app.hdrSequenceOut, std::filesystem::path("f.%04d.exr"));
    expectRefused({"--headless", "--hdr-sequence-out", "no-such-folder/f.%04d.exr"}, "does not exist");

    auto tonemap = parse({"tonemap", "s.%04d.exr", "-o", "o.%04d.png", "--fps", "30", "--on-bad-frame", "stop",
                          "--capture", "c.json", "--capture-csv", "c.csv"});
    ASSERT_EQ(tonemap.kind, CommandKind::Tonemap) << tonemap.error;
    EXPECT_EQ(tonemap.tonemap.fps, 30.0);
    EXPECT_EQ(tonemap.tonemap.onBadFrame, "stop");
    EXPECT_EQ(tonemap.tonemap.capture, std::filesystem::path("c.json"));
    EXPECT_EQ(tonemap.tonemap.captureCsv, std::filesystem::path("c.csv"));

    auto bench = parse({"bench", "flicker", "--sequence", "s.%04d.exr", "--fps", "25", "--operator", "ward"});
    ASSERT_EQ(bench.kind, CommandKind::Bench) << bench.error;
    EXPECT_EQ(bench.bench.sequence, std::filesystem::path("s.%04d.exr"));
    EXPECT_EQ(bench.bench.fps, 25.0);
    EXPECT_FALSE(bench.bench.framesGiven) << "once through the sequence";
    EXPECT_TRUE(parse({"bench", "flicker", "--sequence", "d", "--frames", "9"}).bench.framesGiven);

    expectRefused({"view", "s.%04d.exr", "--fps", "0"}, "--fps 0 is outside 0.001..1000");
    expectRefused({"view", "s.%04d.exr", "--fps", "fast"}, "--fps 'fast' is not a number");
    expectRefused({"view", "s.%04d.exr", "--on-bad-frame", "ignore"}, "--on-bad-frame");
    expectRefused({"--hdr-sequence-out", "f.exr"}, "--hdr-sequence-out 'f.exr' has no frame number");
    expectRefused({"--hdr-sequence-out", "-"}, "--hdr-sequence-out writes a binary image");
    expectRefused({"--hdr-sequence-out", "f%d_%d.exr"}, "two frame numbers");
    expectRefused({"bench", "pipeline", "--sequence", "d"}, "--sequence is an option of 'bench flicker'");
    expectRefused({"bench", "flicker", "--sequence", "d", "--size", "64x36"}, "--size does not apply to --sequence");
    expectRefused({"bench", "flicker", "--on-bad-frame", "skip"}, "need --sequence");
}

TEST(CliTest, CaptureFramesSetsTheRing)
{
    auto parsed = parse({"--headless", "--capture-frames", "250"});
    ASSERT_EQ(parsed.kind, CommandKind::Run) << parsed.error;
    ASSERT_TRUE(parsed.app.captureFrames);
    EXPECT_EQ(*parsed.app.captureFrames, 250);
    EXPECT_FALSE(parse({"--headless"}).app.captureFrames);
    expectRefused({"--capture-frames", "0"}, "--capture-frames 0 is outside 1..1000000");
    expectRefused({"--capture-frames", "1000001"}, "is outside 1..1000000");
    expectRefused({"--capture-frames", "lots"}, "is not a whole number");
}

TEST(CliTest, StandardOutputOnlyForOneTextOutput)
{
    EXPECT_FALSE(parse({"--capture", "c.json"}).standardOutputIsData);
    EXPECT_TRUE(parse({"--capture-csv", "-"}).standardOutputIsData);
    EXPECT_TRUE(parse({"compare", "--csv", "-"}).standardOutputIsData);
    EXPECT_TRUE(parse({"compare", "--scan-csv", "-"}).standardOutputIsData);
    expectRefused({"compare", "--csv", "-", "--scan-csv", "-"}, "only one output can go to standard output");
    EXPECT_TRUE(parse({"tonemap", "in.exr", "-o", "o.png", "--curve-out", "-"}).standardOutputIsData);
    expectRefused({"--screenshot", "-"}, "--screenshot writes a binary image");
    expectRefused({"--screenshot-exr", "-"}, "binary image");
    expectRefused({"tonemap", "in.exr", "-o", "-"}, "binary image");
    expectRefused({"bench", "--csv", "-"}, "cannot share standard output with the table bench prints");
    expectRefused({"--capture", "-", "--capture-csv", "-"}, "only one output can go to standard output");
    expectRefused({"tonemap", "in.exr", "-o", "o.png", "--curve-out", "-", "--histogram-out", "-"}, "only one");
}

TEST(CliTest, NegativeFrameCountSaysHowToRunUntilClosed)
{
    expectRefused({"--frames", "-1"}, "--frames -1 is negative; give 0..10000000, or leave --frames out");
    expectRefused({"--frames", "-99999999999999999999"}, "is outside 0..10000000");
}

}  // namespace

TEST(CliTest, SetAndSettingsAreParsedInOrderAndChecked)
{
    // The settings file is read and checked when the command line is (a bad one: exit 2, as a bad --set).
    const std::filesystem::path file = testing_support::scratchDir("cli-settings-order") / "s.json";
    std::ofstream(file) << "{ \"ward.bins\": 40 }\n";
    auto result = parse({"--set", "ward.bins=50", "--headless", "--set", "histogram.bins=64", "--settings",
                         file.string(), "--set", "ward.bins=60"});
    ASSERT_EQ(result.kind, CommandKind::Run) << result.error;
    EXPECT_EQ(result.app.settingsFile, file);
    std::ofstream(file) << "{ \"ward.brightness\": 1 }\n";
    expectRefused({"--headless", "--settings", file.string()}, "unknown key 'ward.brightness'");
    EXPECT_EQ(result.app.settingAssignments,
              (std::vector<std::string>{"ward.bins=50", "histogram.bins=64", "ward.bins=60"}));
    EXPECT_TRUE(result.app.headless);  // --set takes one value, not the flags after it

    std::ofstream(file) << "{}\n";
    auto tonemap = parse({"tonemap", "in.exr", "-o", "o.png", "--bins", "64", "--range", "-4:8", "--settings",
                          file.string(), "--set", "percentile.key=0.3"});
    ASSERT_EQ(tonemap.kind, CommandKind::Tonemap) << tonemap.error;
    EXPECT_EQ(tonemap.tonemap.settingsFile, file);
    EXPECT_EQ(tonemap.tonemap.settingAssignments, (std::vector<std::string>{"percentile.key=0.3"}));
    ASSERT_EQ(tonemap.tonemap.flagAssignments.size(), 4u);  // the flags given, as keys
    EXPECT_EQ(tonemap.tonemap.flagAssignments[0], "histogram.bins=64");
    EXPECT_EQ(tonemap.tonemap.flagAssignments[1], "histogram.range=manual");

    auto bench = parse({"bench", "pipeline", "--set", "ward.display_max=200"});
    ASSERT_EQ(bench.kind, CommandKind::Bench) << bench.error;
    EXPECT_EQ(bench.bench.settingAssignments, (std::vector<std::string>{"ward.display_max=200"}));

    expectRefused({"--set", "no.such=1"}, "unknown key 'no.such'");
    expectRefused({"--set", "histogram.bins=9999"}, "histogram.bins: '9999' is outside 1..4096");
    expectRefused({"--settings", ""}, "--settings needs a file name");
}
