// compareMethods (the core of `hdrlab compare` and "compare all"): on a bin-centre image every
// available method reports zero difference from the CPU reference and the same curve; unavailable
// methods carry their reason; the table and CSV list every method.
#include "app/CompareMethods.h"
#include "support/GlTestEnvironment.h"
#include "support/HistogramTestSupport.h"

#include <sstream>

namespace ts = testing_support;

namespace {

class CompareMethodsTest : public ts::GlTest
{
};

TEST_F(CompareMethodsTest, EveryAvailableMethodMatchesTheCpuOnABinCentreImage)
{
    constexpr float kLogMin = -5.0f, kLogMax = 7.0f;
    ts::TestImage image = ts::binCentreImage(37, 19, kLogMin, kLogMax, 64, 21, 6);
    ts::addSpecialPixels(image, 11);
    gl::Texture texture = ts::uploadImage(image);
    post::PassContext ctx{ts::shaderLibrary(), ts::testProfiler(), ts::testGpuCaps(), 0};
    app::CompareSettings settings;
    settings.bins = 64;
    settings.repeat = 2;
    settings.range = std::make_pair(kLogMin, kLogMax);
    settings.outOfRange = post::OutOfRange::Separate;
    app::CompareReport report = app::compareMethods(ctx, post::ImageInput{texture, {37, 19}}, settings);

    ASSERT_EQ(report.rows.size(), ts::allHistogramMethodIds().size());
    int ran = 0;
    for (const app::CompareRow& row : report.rows) {
        if (!row.available) {
            EXPECT_FALSE(row.reason.empty()) << row.id;
            continue;
        }
        ++ran;
        EXPECT_FALSE(row.failed) << row.id << ": " << row.reason;
        EXPECT_TRUE(row.exact()) << row.id << " L1 " << row.l1Difference << " totals " << row.gpuTotal << "/"
                                 << row.cpuTotal;
        EXPECT_EQ(row.maxBinDifference, 0u) << row.id;
        EXPECT_EQ(row.buildMs.size(), 2u) << row.id;
        ASSERT_TRUE(row.curveDifference.has_value()) << row.id;
        EXPECT_EQ(*row.curveDifference, 0.0) << row.id;
        EXPECT_EQ(row.histogram, report.cpuHistogram) << row.id;
    }
    EXPECT_GE(ran, 6);

    const std::string table = app::formatCompareTable(report);
    const std::string csv = app::formatCompareCsv(report);
    for (const app::CompareRow& row : report.rows) {
        EXPECT_NE(table.find(row.id), std::string::npos) << row.id;
        EXPECT_NE(csv.find(row.id + ","), std::string::npos) << row.id;
    }
    EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), std::ptrdiff_t(report.rows.size() + 1));
}

}  // namespace
