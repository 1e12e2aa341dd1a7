// Stats.h: rolling statistics (last, mean, min, max, standard deviation, median) over a window.
#pragma once

#include <cstddef>
#include <vector>

namespace util {

struct Summary
{
    std::size_t count = 0;
    double last = 0.0;
    double mean = 0.0;
    double min = 0.0;
    double max = 0.0;
    double stddev = 0.0;
    double median = 0.0;
};

class RollingStats
{
public:
    explicit RollingStats(std::size_t window = 256);

    void add(double value);
    void clear();
    std::size_t count() const { return mCount; }
    std::size_t window() const { return mValues.size(); }
    Summary summary() const;
    /// Values oldest first (for graphs).
    std::vector<float> history() const;

private:
    std::vector<double> mValues;
    std::size_t mNext = 0;
    std::size_t mCount = 0;
};

/// Summary of a whole sample set (used by benchmarks and compare); its median is median()'s.
Summary summarize(std::vector<double> values);

/// The median: the middle value of the sorted values, the mean of the two middle ones for an even
/// count; 0 for no values.
double median(std::vector<double> values);
/// The upper median: the sorted values' element n/2, for an even count the upper of the two middle
/// ones, so always a value that was measured (the CUDA bench suites report it: their tables kept
/// this choice); 0 for no values.
double upperMedian(std::vector<double> values);

}  // namespace util
