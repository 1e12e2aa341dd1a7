// SvgChartTest.cpp: util::LogLogChart and util::SvgChart on known data: decade axes for known
// ranges, points at the pixel their log position gives, names with XML's special characters
// escaped, a well-formed document (tests/support/XmlCheck.h), and degenerate input (no series, one
// point, zero, negative, infinite and NaN values, huge ranges) handled as documented, never a crash.
#include "support/XmlCheck.h"
#include "util/LogLogChart.h"
#include "util/SvgChart.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

namespace {

using testing_support::attributeValues;
using testing_support::countElements;
using testing_support::xmlProblem;

TEST(LogLogChartTest, AxesSpanTheWholeDecadesAroundTheData)
{
    const util::LogAxis bins = util::LogAxis::spanning(16.0, 4096.0);
    EXPECT_EQ(bins.firstDecade, 1);
    EXPECT_EQ(bins.lastDecade, 4);
    EXPECT_EQ(bins.majorTicks(), (std::vector<double>{10.0, 100.0, 1000.0, 10000.0}));
    EXPECT_EQ(bins.minorTicks().size(), 3u * 8u);
    EXPECT_DOUBLE_EQ(bins.minorTicks().front(), 20.0);
    EXPECT_DOUBLE_EQ(bins.minorTicks().back(), 9000.0);
    EXPECT_DOUBLE_EQ(bins.fraction(100.0), 1.0 / 3.0);

    const util::LogAxis ms = util::LogAxis::spanning(0.0172, 0.35);
    EXPECT_EQ(ms.firstDecade, -2);
    EXPECT_EQ(ms.lastDecade, 0);
    EXPECT_DOUBLE_EQ(ms.fraction(0.1), 0.5);

    // Exact decades stay on the axis ends.
    const util::LogAxis exact = util::LogAxis::spanning(10.0, 1000.0);
    EXPECT_EQ(exact.firstDecade, 1);
    EXPECT_EQ(exact.lastDecade, 3);
}

TEST(LogLogChartTest, OneValueGetsTheDecadeAroundIt)
{
    const util::LogAxis one = util::LogAxis::spanning(256.0, 256.0);
    EXPECT_EQ(one.firstDecade, 2);
    EXPECT_EQ(one.lastDecade, 3);
    const util::LogAxis decade = util::LogAxis::spanning(100.0, 100.0);
    EXPECT_EQ(decade.firstDecade, 1);
    EXPECT_EQ(decade.lastDecade, 3);
    EXPECT_DOUBLE_EQ(decade.fraction(100.0), 0.5);
}

TEST(LogLogChartTest, WideAxesLabelEveryKthDecadeAndDropMinorTicks)
{
    const util::LogAxis wide =
        util::LogAxis::spanning(std::numeric_limits<double>::denorm_min(), std::numeric_limits<double>::max());
    EXPECT_LT(wide.firstDecade, -300);
    EXPECT_GT(wide.lastDecade, 300);
    EXPECT_LE(wide.majorTicks().size(), std::size_t(util::LogAxis::kMaxLabelledDecades + 1));
    EXPECT_GE(wide.majorTicks().size(), 2u);
    EXPECT_TRUE(wide.minorTicks().empty());
}

TEST(LogLogChartTest, DecadeLabels)
{
    EXPECT_EQ(util::formatDecade(1.0), "1");
    EXPECT_EQ(util::formatDecade(1000.0), "1000");
    EXPECT_EQ(util::formatDecade(0.01), "0.01");
    EXPECT_EQ(util::formatDecade(0.001), "0.001");
    EXPECT_EQ(util::formatDecade(1e-4), "1e-4");
    EXPECT_EQ(util::formatDecade(1e6), "1e6");
}

TEST(LogLogChartTest, SeriesStyleDiffersForTwentySeries)
{
    for (std::size_t a = 0; a < 20; ++a)
        for (std::size_t b = a + 1; b < 20; ++b) {
            const util::ChartColor ca = util::seriesColor(a), cb = util::seriesColor(b);
            const bool sameColor = ca.r == cb.r && ca.g == cb.g && ca.b == cb.b;
            EXPECT_FALSE(sameColor && util::seriesMarker(a) == util::seriesMarker(b)) << a << " and " << b;
        }
}

TEST(LogLogChartTest, UnplottablePointsAreLeftOutAndCounted)
{
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    util::ChartData data;
    data.series = {{"a", {{64, 0.5}, {0, 1.0}, {256, -1.0}, {nan, 1.0}, {1024, inf}, {16, 0.01}}}};
    const util::ChartLayout layout = util::layOutChart(data);
    ASSERT_EQ(layout.series.size(), 1u);
    ASSERT_EQ(layout.series[0].points.size(), 2u);
    EXPECT_EQ(layout.series[0].points[0].x, 16.0) << "sorted by x";
    EXPECT_EQ(layout.leftOut, 4u);
    EXPECT_FALSE(layout.empty);
    EXPECT_NE(layout.note.find("4 points left out"), std::string::npos) << layout.note;
    EXPECT_EQ(layout.y.firstDecade, -2);
    EXPECT_EQ(layout.y.lastDecade, 0);
}

TEST(SvgChartTest, PointsLandWhereTheirLogPositionSays)
{
    util::ChartData data;
    data.title = "known";
    data.series = {{"only", {{10, 1}, {100, 10}, {1000, 100}, {30, 2}}}};
    const std::string svg = util::renderSvgChart(data);
    ASSERT_EQ(xmlProblem(svg), "") << svg;

    const util::PlotRect plot = util::svgPlotRect({});
    const std::vector<std::string> cx = attributeValues(svg, "circle", "cx");
    const std::vector<std::string> cy = attributeValues(svg, "circle", "cy");
    ASSERT_EQ(cx.size(), 5u) << "4 points and the legend's marker";
    // x spans 10..1000 (two decades), y 1..100: the points sorted by x are 10, 30, 100, 1000.
    const double expectedX[] = {0.0, std::log10(3.0) / 2.0, 0.5, 1.0};
    const double expectedY[] = {0.0, std::log10(2.0) / 2.0, 0.5, 1.0};
    for (int i = 0; i < 4; ++i) {
        EXPECT_NEAR(std::stod(cx[i]), plot.left + expectedX[i] * plot.width, 0.01) << i;
        EXPECT_NEAR(std::stod(cy[i]), plot.top + (1.0 - expectedY[i]) * plot.height, 0.01) << i;
    }
    EXPECT_EQ(countElements(svg, "polyline"), 1u);
    // Decade labels 10, 100, 1000 on x and 1, 10, 100 on y.
    for (const char* label : {">10<", ">100<", ">1000<", ">1<"})
        EXPECT_NE(svg.find(label), std::string::npos) << label;
}

TEST(SvgChartTest, OneSeriesPerMethodWithItsOwnLineAndLegendEntry)
{
    util::ChartData data;
    for (int s = 0; s < 12; ++s)
        data.series.push_back({"method-" + std::to_string(s), {{16, 0.1 * (s + 1)}, {256, 0.2 * (s + 1)}}});
    const std::string svg = util::renderSvgChart(data);
    ASSERT_EQ(xmlProblem(svg), "");
    EXPECT_EQ(countElements(svg, "polyline"), 12u);
    const std::size_t legend = svg.find("class=\"legend\"");
    ASSERT_NE(legend, std::string::npos);
    for (int s = 0; s < 12; ++s)
        EXPECT_NE(svg.find(">method-" + std::to_string(s) + "<", legend), std::string::npos) << s;
}

TEST(SvgChartTest, NamesAreEscaped)
{
    util::ChartData data;
    data.title = "a < b & \"c\"";
    data.xLabel = "bins <log>";
    data.yLabel = "ms & more";
    data.note = "it's\x01 fine";
    data.series = {{"<script>&amp;", {{1, 1}}}};
    const std::string svg = util::renderSvgChart(data);
    EXPECT_EQ(xmlProblem(svg), "") << svg;
    EXPECT_EQ(svg.find("<script>"), std::string::npos);
    EXPECT_NE(svg.find("&lt;script&gt;&amp;amp;"), std::string::npos);
    EXPECT_NE(svg.find("a &lt; b &amp; &quot;c&quot;"), std::string::npos);
    EXPECT_NE(svg.find("it&apos;s? fine"), std::string::npos);
    EXPECT_EQ(util::escapeXml("<&>\"'"), "&lt;&amp;&gt;&quot;&apos;");
}

TEST(SvgChartTest, DegenerateInputGivesAWellFormedChartThatSaysWhy)
{
    const double nan = std::numeric_limits<double>::quiet_NaN();
    util::ChartData none;
    std::string svg = util::renderSvgChart(none);
    EXPECT_EQ(xmlProblem(svg), "");
    EXPECT_NE(svg.find("no positive, finite points"), std::string::npos);

    util::ChartData bad;
    bad.series = {{"zero", {{0, 0}}}, {"nan", {{nan, nan}}}, {"negative", {{-4, -1}}}, {"empty", {}}};
    svg = util::renderSvgChart(bad);
    EXPECT_EQ(xmlProblem(svg), "");
    EXPECT_NE(svg.find("3 points left out"), std::string::npos);
    EXPECT_NE(svg.find("nan (no points)"), std::string::npos);
    EXPECT_EQ(svg.find("nan,"), std::string::npos) << "no NaN coordinates";

    util::ChartData one;
    one.series = {{"one", {{256, 0.25}}}};
    svg = util::renderSvgChart(one);
    EXPECT_EQ(xmlProblem(svg), "");
    EXPECT_EQ(countElements(svg, "polyline"), 0u) << "one point draws a marker, no line";
    const util::PlotRect plot = util::svgPlotRect({});
    const std::vector<std::string> cx = attributeValues(svg, "circle", "cx");
    ASSERT_FALSE(cx.empty());
    // 256 on the axis 100..1000: log10(2.56) of the way.
    EXPECT_NEAR(std::stod(cx[0]), plot.left + std::log10(2.56) * plot.width, 0.01);

    util::ChartData extreme;
    extreme.series = {{"wide", {{std::numeric_limits<double>::denorm_min(), 1e-300}, {1e300, 1e300}}}};
    svg = util::renderSvgChart(extreme);
    EXPECT_EQ(xmlProblem(svg), "");
    EXPECT_LE(countElements(svg, "line"), 64u) << "ticks thinned, not one per decade";
}

TEST(SvgChartTest, TheCheckerCatchesBrokenXml)
{
    // The well-formedness check must be able to fail, or the tests above prove nothing.
    EXPECT_NE(xmlProblem("<svg><g></svg>"), "");
    EXPECT_NE(xmlProblem("<svg><text>a < b</text></svg>"), "");
    EXPECT_NE(xmlProblem("<svg><text>a & b</text></svg>"), "");
    EXPECT_NE(xmlProblem("<svg x=1></svg>"), "");
    EXPECT_NE(xmlProblem("<svg></svg><svg></svg>"), "");
    EXPECT_EQ(xmlProblem("<?xml version=\"1.0\"?>\n<svg a=\"1\"><g/><t>&amp;</t></svg>\n"), "");
}

}  // namespace
