// BenchPipelineTest.cpp: `hdrlab bench pipeline` end to end on a tiny frame (GL through EGL; on
// llvmpipe its times are CPU fallbacks, which it must say, and its floor check is off): the header
// names the rates the floors use, the CSV has its columns, one block of stage rows per (bins,
// operator) of `--bins all --operator all` (the gl and gl-fused paths), finite positive floors and ratios wherever a
// stage has a traffic model, and read + written bytes that add up to the bytes; the reference chain's rows beside
// each configuration and its "x ref" on the histogram, curve, apply and chain rows; bad options fail with one line.
#include "cli/CliTestSupport.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <tuple>

namespace {

namespace fs = std::filesystem;
using cli_test::hdrlab;

const std::vector<std::string> kColumns = {
    "size",          "bins",        "operator",      "path",        "histogram_method", "scan_method",
    "stage",         "time_source", "median_us",     "bytes",       "floor_us",         "time_over_floor",
    "copy_gb_per_s", "frames",      "read_bytes",    "write_bytes", "read_gb_per_s",    "write_gb_per_s",
    "frame_format",  "ref_us",      "time_over_ref", "ref_api",     "exposure_ev"};

std::vector<std::string> splitCsv(const std::string& line)
{
    std::vector<std::string> fields;
    std::stringstream in(line);
    for (std::string field; std::getline(in, field, ',');)
        fields.push_back(field);
    if (!line.empty() && line.back() == ',')
        fields.emplace_back();
    return fields;
}

TEST(BenchPipelineTest, EveryBinCountAndOperatorHasStageRowsWithFiniteRatios)
{
    const fs::path dir = testing_support::scratchDir("bench-pipeline");
    auto result = cli_test::runIn(
        dir, hdrlab("bench pipeline --size 64x36 --bins all --operator all --frames 3 --warmup 1 --csv b.csv"));
    ASSERT_EQ(result.exitCode, 0) << result.output;
    // The default frame: RGBA16F pre-exposed, 8 bytes per pixel (--frame-format: FrameFormatFlagSetsTheFrame).
    for (const char* line : {"memory floors: a stage's floor = bytes it must read / read rate + bytes it must write",
                             "| 0.02 MB (64x36 frame) | read |", "| 0.02 MB (64x36 frame) | write |",
                             "scene frame: rgba16f (RGBA16F pre-exposed), k = ", "\ndevice peak: ", "\nfloor check: ",
                             "| ref us | x ref |", "reference chain (GL compute, 3 runs, ",
                             "### reference chain: every round's runs pooled"})
        EXPECT_NE(result.output.find(line), std::string::npos) << line << " in\n" << result.output;
    if (result.output.find("llvmpipe") != std::string::npos) {
        EXPECT_NE(result.output.find("CPU fallback"), std::string::npos) << result.output;
        EXPECT_NE(result.output.find("floor check: not run"), std::string::npos) << result.output;
        EXPECT_NE(result.output.find("device peak: not known for llvmpipe"), std::string::npos) << result.output;
    }

    std::ifstream file(dir / "b.csv");
    std::string line;
    ASSERT_TRUE(std::getline(file, line));
    EXPECT_EQ(splitCsv(line), kColumns);

    // (bins, operator) of the gl path -> its stages; the same for the gl-fused path.
    std::map<std::pair<std::string, std::string>, std::set<std::string>> stages;
    std::map<std::pair<std::string, std::string>, std::string> gpuScanText;  ///< the gl path's scan_method column
    std::map<std::pair<std::string, std::string>, std::set<std::string>> fusedStages;
    std::map<std::pair<std::string, std::string>, std::set<std::string>> referenceStages;
    std::size_t rows = 0;
    while (std::getline(file, line)) {
        ++rows;
        const std::vector<std::string> f = splitCsv(line);
        ASSERT_EQ(f.size(), kColumns.size()) << line;
        EXPECT_EQ(f[0], "64x36") << line;
        const double medianUs = std::stod(f[8]);
        EXPECT_TRUE(std::isfinite(medianUs) && medianUs >= 0.0) << line;
        EXPECT_GT(std::stod(f[12]), 0.0) << "copy bandwidth: " << line;
        EXPECT_EQ(f[13], "3") << "timed frames harvested: " << line;
        EXPECT_GT(std::stod(f[16]), 0.0) << "read rate: " << line;
        EXPECT_GT(std::stod(f[17]), 0.0) << "write rate: " << line;
        EXPECT_EQ(f[18], "rgba16f") << "the frame's format: " << line;
        EXPECT_EQ(f[9].empty(), f[14].empty()) << "bytes and read bytes come together: " << line;
        if (!f[9].empty()) {
            EXPECT_GT(std::stoull(f[9]), 0u) << line;
            EXPECT_EQ(std::stoull(f[14]) + std::stoull(f[15]), std::stoull(f[9])) << "read + written: " << line;
            // The floor is the read bytes at the read rate plus the written bytes at the write rate.
            const double expectedFloorUs =
                (std::stod(f[14]) / (std::stod(f[16]) * 1e9) + std::stod(f[15]) / (std::stod(f[17]) * 1e9)) * 1e6;
            EXPECT_NEAR(std::stod(f[10]), expectedFloorUs, 1e-4 * expectedFloorUs) << line;
            const double floorUs = std::stod(f[10]);
            const double ratio = std::stod(f[11]);
            EXPECT_TRUE(std::isfinite(floorUs) && floorUs > 0.0) << line;
            EXPECT_TRUE(std::isfinite(ratio) && ratio >= 0.0) << line;
            EXPECT_NEAR(ratio, medianUs / floorUs, 1e-3 * ratio + 1e-3) << line;
        }
        // "x ref": the histogram, curve, apply and chain rows of the paths, against the GL reference here.
        const bool referenced = f[3].rfind("reference-", 0) != 0 &&
                                (f[6] == "histogram" || f[6] == "curve" || f[6] == "apply" || f[6] == "chain");
        EXPECT_EQ(!f[19].empty(), referenced) << line;
        if (referenced) {
            EXPECT_GT(std::stod(f[19]), 0.0) << line;
            EXPECT_NEAR(std::stod(f[20]), medianUs / std::stod(f[19]), 1e-3 * std::stod(f[20]) + 1e-3) << line;
            EXPECT_EQ(f[21], "gl") << line;
        }
        if (f[3] == "reference-gl") {
            EXPECT_EQ(f[4], "reference") << line;
            referenceStages[{f[1], f[2]}].insert(f[6]);
        }
        if (f[3] == "gl") {
            stages[{f[1], f[2]}].insert(f[6]);
            gpuScanText[{f[1], f[2]}] = f[5];
        }
        if (f[3] == "gl-fused") {
            EXPECT_EQ(f[4], "fused-lighting") << line;
            fusedStages[{f[1], f[2]}].insert(f[6]);
        }
    }
    EXPECT_GT(rows, 0u);
    for (const char* bins : {"64", "256", "1024", "4096"})
        for (const char* op : {"percentile", "equalize", "ward", "exposure"}) {
            const auto found = stages.find({bins, op});
            ASSERT_NE(found, stages.end()) << bins << " bins, " << op;
            for (const char* stage : {"scene", "histogram", "apply", "chain", "frame"})
                EXPECT_TRUE(found->second.count(stage)) << bins << " bins, " << op << ": no " << stage << " row";
            // Percentile's and equalize's curves are built by the histogram pass's last workgroup
            // (tonemap.curve_in_histogram): no curve dispatch, no curve row; Ward's and exposure's have one.
            const bool curveInHistogram = std::string(op) == "percentile" || std::string(op) == "equalize";
            EXPECT_EQ(found->second.count("curve") == 0, curveInHistogram) << bins << " bins, " << op << ": curve row";
            const std::string expectedScan = curveInHistogram ? "in-curve (curve in the histogram pass)" : "in-curve";
            EXPECT_EQ(gpuScanText[std::make_pair(std::string(bins), std::string(op))], expectedScan)
                << bins << " bins, " << op;
            // The default scan is in-curve: no scan dispatch (percentile and equalize scan in their curve
            // dispatch, ward and exposure use no CDF), so no scan row.
            EXPECT_FALSE(found->second.count("scan")) << bins << " bins, " << op << ": a scan row";
            const std::set<std::string> expectedReference{"copy", "histogram", "curve", "apply", "chain"};
            const std::set<std::string>& referenceRows = referenceStages[{bins, op}];
            EXPECT_EQ(referenceRows, expectedReference) << bins << " bins, " << op << ": the reference chain's rows";
        }
    // Ward's curve sub-stages are reported under the curve, the scene's passes under the scene.
    const std::pair<std::string, std::string> ward256{"256", "ward"};
    EXPECT_TRUE(stages[ward256].count("curve/foveal"));
    EXPECT_TRUE(stages[ward256].count("scene/lighting"));
    // The fused path: the lighting pass with the binning in it, timed like the gl path's.
    for (const char* stage : {"scene", "scene/lighting", "histogram", "apply", "chain"})
        EXPECT_TRUE(fusedStages[ward256].count(stage)) << "gl-fused: no " << stage << " row";
}

// --frame-format (scripts/perf-table.sh passes it): the header, the floors' frame bytes and the CSV say it.
TEST(BenchPipelineTest, FrameFormatFlagSetsTheFrame)
{
    const fs::path dir = testing_support::scratchDir("bench-pipeline-format");
    for (const auto& [format, header, megabytes] :
         {std::tuple{"rgba32f", "scene frame: rgba32f (RGBA32F), 16 bytes per pixel",
                     "| 0.04 MB (64x36 frame) | read |"},
          std::tuple{"rgba16f", "scene frame: rgba16f (RGBA16F pre-exposed), k = ", "| 0.02 MB (64x36 frame) | read |"},
          std::tuple{"auto", "scene frame: auto (RGBA32F), 16 bytes per pixel", "| 0.04 MB (64x36 frame) | read |"}}) {
        auto result =
            cli_test::runIn(dir, hdrlab(std::string("bench pipeline --size 64x36 --bins 64 --operator exposure "
                                                    "--frames 2 --warmup 1 --csv f.csv --frame-format ") +
                                        format));
        ASSERT_EQ(result.exitCode, 0) << result.output;
        EXPECT_NE(result.output.find(header), std::string::npos) << header << " in\n" << result.output;
        EXPECT_NE(result.output.find(megabytes), std::string::npos) << megabytes << " in\n" << result.output;
        std::ifstream file(dir / "f.csv");
        std::string line;
        ASSERT_TRUE(std::getline(file, line));
        ASSERT_TRUE(std::getline(file, line));
        ASSERT_EQ(splitCsv(line).size(), kColumns.size()) << line;
        EXPECT_EQ(splitCsv(line)[18], std::string(format) == "rgba16f" ? "rgba16f" : "rgba32f") << line;
    }
}

TEST(BenchPipelineTest, PeersTimeEachEngineAndCheckThePresets)
{
    // --peers (commands/bench/peers/PeerBench.h): after the gl path's table, each engine peer's row with
    // its passes and EV; CSV rows peer-<engine> with a finite exposure_ev; then the preset check.
    const fs::path dir = testing_support::scratchDir("bench-pipeline-peers");
    auto result = cli_test::runIn(
        dir, hdrlab("bench pipeline --peers --size 48x27 --bins 64 --operator percentile --frames 2 --warmup 1 "
                    "--csv p.csv"));
    ASSERT_EQ(result.exitCode, 0) << result.output;
    for (const char* text :
         {"engine peers on the same frame (48x27, percentile;", "| hdrlab (histogram + scan + curve) |",
          "| bevy (Bevy 0.14+", "| unreal (Unreal Engine 5", "| unity-hdrp (Unity HDRP", "| godot (Godot 4",
          "preset check: ", "| unreal | 48x27 |", "| unity-hdrp | 48x27 |", "| bevy | 48x27 |"})
        EXPECT_NE(result.output.find(text), std::string::npos) << text << " in\n" << result.output;
    std::ifstream file(dir / "p.csv");
    std::string line;
    ASSERT_TRUE(std::getline(file, line));
    std::map<std::string, std::set<std::string>> peerStages;
    while (std::getline(file, line)) {
        const std::vector<std::string> f = splitCsv(line);
        ASSERT_EQ(f.size(), kColumns.size()) << line;
        if (f[3].rfind("peer-", 0) != 0) {
            EXPECT_EQ(f[22], "") << "only peer rows carry an EV: " << line;
            continue;
        }
        peerStages[f[3]].insert(f[6]);
        EXPECT_TRUE(std::isfinite(std::stod(f[22]))) << line;
        EXPECT_GE(std::stod(f[8]), 0.0) << line;
    }
    EXPECT_EQ(peerStages.size(), 4u);  // one gl configuration: every peer once
    EXPECT_TRUE(peerStages["peer-bevy"].count("metering/histogram")) << "the passes' rows";
    EXPECT_TRUE(peerStages["peer-godot"].count("metering/reduce-1"));
    EXPECT_TRUE(peerStages["peer-unreal"].count("metering/downsample"));
    EXPECT_TRUE(peerStages["peer-unity-hdrp"].count("metering"));
}

TEST(BenchPipelineTest, BadOptionsGiveOneLineErrors)
{
    for (const char* arguments :
         {"bench pipeline --bins 5000", "bench pipeline --bins 64,x", "bench pipeline --size 0x4",
          "bench pipeline --operator no-such-operator", "bench pipeline --frames 0", "bench scan --bins 64",
          "bench pipeline --frame-format rgb9e5", "bench equalize8 --frame-format rgba32f"}) {
        auto result = testing_support::runCommand(hdrlab(arguments));
        EXPECT_NE(result.exitCode, 0) << arguments;
        auto out = cli_test::lines(result.output);
        ASSERT_EQ(out.size(), 1u) << arguments << "\n" << result.output;
        EXPECT_EQ(out[0].rfind("hdrlab: error: ", 0), 0u) << out[0];
    }
}

}  // namespace
