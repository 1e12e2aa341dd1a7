// ChartOutputTest.cpp: `compare --chart` and `bench pipeline --chart` end to end on a tiny frame
// (GL through EGL, llvmpipe here): each writes a well-formed SVG with one line per method (or path)
// through one marker per measured bin count, and its CSV stays as before; a bad chart path fails
// with one line naming it.
#include "cli/CliTestSupport.h"
#include "support/XmlCheck.h"
#include "util/SvgChart.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <iterator>
#include <string>

namespace {

namespace fs = std::filesystem;
using cli_test::hdrlab;
using testing_support::attributeValues;
using testing_support::countElements;
using testing_support::xmlProblem;

std::string readFile(const fs::path& path)
{
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(ChartOutputTest, CompareDrawsOneLinePerMethodOverTheBinSweep)
{
    const fs::path dir = testing_support::scratchDir("compare-chart");
    auto result = cli_test::runIn(dir, hdrlab("compare --size 48x27 --bins 16,64,256 --repeat 1 --methods "
                                              "compute-shared-atomic,compute-global-atomic --csv c.csv --chart c.svg"));
    ASSERT_EQ(result.exitCode, 0) << result.output;
    const std::string svg = readFile(dir / "c.svg");
    ASSERT_EQ(xmlProblem(svg), "") << svg;
    EXPECT_EQ(countElements(svg, "polyline"), 2u) << "one line per method";
    // Method 0 draws circles, method 1 squares: 3 bin counts each, plus one legend marker each.
    EXPECT_EQ(countElements(svg, "circle"), 4u);
    EXPECT_EQ(countElements(svg, "rect") - 2u /* background and plot frame */, 4u);
    for (const char* name : {">compute-shared-atomic<", ">compute-global-atomic<", ">histogram bins<"})
        EXPECT_NE(svg.find(name), std::string::npos) << name;
    for (const char* tick : {">10<", ">100<", ">1000<"})
        EXPECT_NE(svg.find(tick), std::string::npos) << "x decade " << tick;

    // The CSV: one header, then each method at each bin count.
    std::ifstream csv(dir / "c.csv");
    std::string line;
    int headers = 0, rows = 0;
    while (std::getline(csv, line))
        (line.rfind("method,", 0) == 0 ? headers : rows) += 1;
    EXPECT_EQ(headers, 1);
    EXPECT_EQ(rows, 6);

    // A software renderer's GL timers measure nothing: the times are CPU wall time, and both the CSV
    // and the chart must say so.
    if (result.output.find("llvmpipe") != std::string::npos) {
        EXPECT_NE(readFile(dir / "c.csv").find(",cpu_wall_glfinish,"), std::string::npos);
        EXPECT_EQ(readFile(dir / "c.csv").find(",gl_time_elapsed,"), std::string::npos);
        EXPECT_NE(svg.find("CPU wall time"), std::string::npos);
    }
}

TEST(ChartOutputTest, CompareWithOneBinCountDrawsOnePointPerMethod)
{
    const fs::path dir = testing_support::scratchDir("compare-chart-one");
    auto result = cli_test::runIn(
        dir, hdrlab("compare --size 32x18 --repeat 1 --methods compute-shared-atomic,cpu-readback --chart one.svg"));
    ASSERT_EQ(result.exitCode, 0) << result.output;
    const std::string svg = readFile(dir / "one.svg");
    ASSERT_EQ(xmlProblem(svg), "");
    EXPECT_EQ(countElements(svg, "polyline"), 0u);
    const std::vector<std::string> cx = attributeValues(svg, "circle", "cx");
    ASSERT_EQ(cx.size(), 2u) << "one point and the legend's marker";
    // 256 bins on the x axis 100..1000.
    const util::PlotRect plot = util::svgPlotRect({});
    EXPECT_NEAR(std::stod(cx[0]), plot.left + std::log10(2.56) * plot.width, 0.01);
}

TEST(ChartOutputTest, BenchPipelineDrawsTheChainAgainstBins)
{
    const fs::path dir = testing_support::scratchDir("bench-chart");
    auto result = cli_test::runIn(dir, hdrlab("bench pipeline --size 32x18 --bins 16,256 --operator exposure "
                                              "--frames 2 --warmup 1 --chart b.svg"));
    ASSERT_EQ(result.exitCode, 0) << result.output;
    EXPECT_NE(result.output.find("wrote b.svg"), std::string::npos) << result.output;
    const std::string svg = readFile(dir / "b.svg");
    ASSERT_EQ(xmlProblem(svg), "") << svg;
    EXPECT_EQ(countElements(svg, "polyline"), 2u) << "the gl and gl-fused paths (no CUDA here)";
    EXPECT_EQ(countElements(svg, "circle"), 3u) << "the gl path's two bin counts and its legend marker";
    EXPECT_EQ(countElements(svg, "rect"), 5u) << "the second path's markers are squares";
    EXPECT_NE(svg.find(">gl<"), std::string::npos);
    EXPECT_NE(svg.find(">fused-lighting<"), std::string::npos);
    EXPECT_NE(svg.find("gl = compute-shared-atomic + in-curve"), std::string::npos);
}

TEST(ChartOutputTest, AnUnwritableChartPathFailsWithOneLine)
{
    const fs::path dir = testing_support::scratchDir("chart-bad-path");
    auto result = cli_test::runIn(dir, hdrlab("compare --size 16x16 --repeat 1 --methods compute-shared-atomic "
                                              "--chart no/such/folder/c.svg"));
    EXPECT_NE(result.exitCode, 0);
    EXPECT_NE(result.output.find("no/such/folder/c.svg"), std::string::npos) << result.output;
    EXPECT_FALSE(fs::exists(dir / "no"));
}

}  // namespace
