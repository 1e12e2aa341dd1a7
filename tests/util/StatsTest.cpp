// StatsTest.cpp: util::median and util::upperMedian (the benches' one median each), and the
// summary's median agreeing with median().
#include "util/Stats.h"

#include <gtest/gtest.h>

#include <vector>

TEST(Stats, MedianOfOddCountIsTheMiddleValue)
{
    EXPECT_DOUBLE_EQ(util::median({3.0, 1.0, 2.0}), 2.0);
    EXPECT_DOUBLE_EQ(util::median({7.5}), 7.5);
    EXPECT_DOUBLE_EQ(util::upperMedian({3.0, 1.0, 2.0}), 2.0);
}

TEST(Stats, MedianOfEvenCountAveragesTheMiddlePairUpperMedianTakesTheUpper)
{
    const std::vector<double> values{4.0, 1.0, 3.0, 2.0};
    EXPECT_DOUBLE_EQ(util::median(values), 2.5);
    EXPECT_DOUBLE_EQ(util::upperMedian(values), 3.0);  // a measured value, never between two
    EXPECT_DOUBLE_EQ(util::median({-1.0, 1.0}), 0.0);
}

TEST(Stats, MedianOfNoValuesIsZero)
{
    EXPECT_DOUBLE_EQ(util::median({}), 0.0);
    EXPECT_DOUBLE_EQ(util::upperMedian({}), 0.0);
}

TEST(Stats, SummaryMedianIsMedian)
{
    const std::vector<double> values{9.0, 1.0, 5.0, 3.0, 7.0, 2.0};
    const util::Summary summary = util::summarize(values);
    EXPECT_DOUBLE_EQ(summary.median, util::median(values));
    EXPECT_DOUBLE_EQ(summary.min, 1.0);
    EXPECT_DOUBLE_EQ(summary.max, 9.0);
    EXPECT_EQ(summary.count, values.size());
}
