// compareScanMethods (the scan part of `hdrlab compare`): every registered scan method has a row,
// every available one is exact with the asked number of timings, unavailable ones carry their
// reason, a method shorter than the input is listed as unavailable; the table and CSV list them all.
#include "compare/CompareScans.h"
#include "post/scan/ScanMethod.h"
#include "support/GlTestEnvironment.h"
#include "support/HistogramTestSupport.h"

#include <algorithm>

namespace ts = testing_support;

namespace {

class CompareScansTest : public ts::GlTest
{
};

std::vector<std::uint32_t> histogramLike(std::size_t length)
{
    std::vector<std::uint32_t> values(length);
    for (std::size_t i = 0; i < length; ++i)
        values[i] = std::uint32_t((i * 2654435761u) % 5000u) + 1u;  // never 0: an exclusive scan differs at [0]
    return values;
}

TEST_F(CompareScansTest, EveryAvailableScanIsExactOnAHistogramLongerThanTwoBlocks)
{
    post::PassContext ctx{ts::shaderLibrary(), ts::testProfiler(), ts::testGpuCaps(), 0};
    const app::CompareScanReport report = app::compareScanMethods(ctx, histogramLike(2500), 3);
    ASSERT_EQ(report.rows.size(), post::scanMethodRegistry().size());
    EXPECT_EQ(report.length, 2500u);
    int ran = 0;
    for (const app::CompareScanRow& row : report.rows) {
        if (!row.available) {
            EXPECT_FALSE(row.reason.empty()) << row.id;
            continue;
        }
        ++ran;
        EXPECT_FALSE(row.failed) << row.id << ": " << row.reason;
        EXPECT_TRUE(row.exact()) << row.id << ": " << row.wrongElements << " wrong, first at " << row.firstWrong;
        EXPECT_EQ(row.scanMs.size(), 3u) << row.id;
        EXPECT_FALSE(row.timeSource.empty()) << row.id;
    }
    EXPECT_GE(ran, 4);
    for (std::string_view id : {"compute-blelloch", "compute-brent-kung", "hensley-sat"}) {
        auto row = std::find_if(report.rows.begin(), report.rows.end(),
                                [&](const app::CompareScanRow& r) { return r.id == id; });
        ASSERT_NE(row, report.rows.end()) << id;
        EXPECT_TRUE(row->exact()) << id;
    }

    const std::string table = app::formatCompareScanTable(report);
    const std::string csv = app::formatCompareScanCsv(report);
    for (const app::CompareScanRow& row : report.rows) {
        EXPECT_NE(table.find(row.id), std::string::npos) << row.id;
        EXPECT_NE(csv.find("\n" + row.id + ","), std::string::npos) << row.id;
    }
    EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), std::ptrdiff_t(report.rows.size() + 1));
    EXPECT_EQ(table.find("DIFFERENT"), std::string::npos) << table;
}

TEST_F(CompareScansTest, AScanShorterThanTheInputIsListedAsUnavailable)
{
    post::PassContext ctx{ts::shaderLibrary(), ts::testProfiler(), ts::testGpuCaps(), 0};
    const app::CompareScanReport report = app::compareScanMethods(ctx, histogramLike(5000), 1);
    for (const app::CompareScanRow& row : report.rows) {
        if (row.id == "compute-scan" || row.id == "hensley-sat") {
            EXPECT_FALSE(row.available) << row.id;
            EXPECT_NE(row.reason.find("at most 4096"), std::string::npos) << row.id << ": " << row.reason;
        }
        if (row.id == "compute-blelloch" || row.id == "compute-brent-kung")
            EXPECT_TRUE(row.exact()) << row.id;
    }
}

}  // namespace
