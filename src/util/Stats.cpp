#include "util/Stats.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace util {

RollingStats::RollingStats(std::size_t window) : mValues(std::max<std::size_t>(window, 1), 0.0)
{
}

void RollingStats::add(double value)
{
    mValues[mNext] = value;
    mNext = (mNext + 1) % mValues.size();
    mCount = std::min(mCount + 1, mValues.size());
}

void RollingStats::clear()
{
    mNext = 0;
    mCount = 0;
}

std::vector<float> RollingStats::history() const
{
    std::vector<float> out;
    out.reserve(mCount);
    std::size_t start = (mNext + mValues.size() - mCount) % mValues.size();
    for (std::size_t i = 0; i < mCount; ++i)
        out.push_back(float(mValues[(start + i) % mValues.size()]));
    return out;
}

Summary RollingStats::summary() const
{
    std::vector<double> values;
    values.reserve(mCount);
    for (float v : history())
        values.push_back(v);
    Summary s = summarize(values);
    if (mCount > 0)
        s.last = mValues[(mNext + mValues.size() - 1) % mValues.size()];
    return s;
}

Summary summarize(std::vector<double> values)
{
    Summary s;
    s.count = values.size();
    if (values.empty())
        return s;
    s.last = values.back();
    double sum = 0.0;
    for (double v : values)
        sum += v;
    s.mean = sum / double(values.size());
    double squares = 0.0;
    for (double v : values)
        squares += (v - s.mean) * (v - s.mean);
    s.stddev = values.size() > 1 ? std::sqrt(squares / double(values.size() - 1)) : 0.0;
    std::sort(values.begin(), values.end());
    s.min = values.front();
    s.max = values.back();
    s.median = median(std::move(values));
    return s;
}

double median(std::vector<double> values)
{
    if (values.empty())
        return 0.0;
    std::sort(values.begin(), values.end());
    const std::size_t mid = values.size() / 2;
    return values.size() % 2 ? values[mid] : 0.5 * (values[mid - 1] + values[mid]);
}

double upperMedian(std::vector<double> values)
{
    if (values.empty())
        return 0.0;
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

}  // namespace util
