#include "ui/PlotLabels.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

namespace ui {

double niceStep(double span, int maxTicks)
{
    if (!(span > 0.0) || !std::isfinite(span))
        return 1.0;
    const double raw = span / double(std::max(1, maxTicks));
    const double decade = std::pow(10.0, std::floor(std::log10(raw)));
    for (double multiple : {1.0, 2.0, 5.0})
        if (multiple * decade >= raw * (1.0 - 1e-9))
            return multiple * decade;
    return 10.0 * decade;
}

std::vector<double> niceTicks(double low, double high, int maxTicks)
{
    std::vector<double> ticks;
    if (!(high > low) || !std::isfinite(low) || !std::isfinite(high))
        return ticks;
    const double step = niceStep(high - low, maxTicks);
    // Whole multiples of the step (no accumulated sum): -10 is -10, not -9.999999.
    const double first = std::ceil(low / step - 1e-9);
    const double last = std::floor(high / step + 1e-9);
    for (double k = first; k <= last; k += 1.0)
        ticks.push_back(k * step);
    return ticks;
}

std::string formatTick(double value, double step)
{
    const int decimals = step > 0.0 ? std::clamp(int(std::ceil(-std::log10(step) - 1e-9)), 0, 6) : 0;
    if (std::abs(value) < 0.5 * std::pow(10.0, -decimals))
        value = 0.0;  // no "-0"
    char text[32];
    std::snprintf(text, sizeof text, "%.*f", decimals, value);
    return text;
}

int ticksThatFit(float length, float labelWidth, float gap)
{
    const float pitch = labelWidth + gap;
    return pitch > 0.0f ? std::max(2, int(length / pitch)) : 2;
}

std::vector<PlacedLabel> placeMarkerLabels(const std::vector<MarkerLabel>& markers,
                                           float left,
                                           float right,
                                           int rows,
                                           float gap)
{
    std::vector<PlacedLabel> placed(markers.size());
    // Right to left: a label goes right of its line, so the line of a marker left of it must rise
    // past it; giving the right one the lower row lets close markers climb a staircase leftwards.
    std::vector<std::size_t> order(markers.size());
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return markers[a].x > markers[b].x; });

    std::vector<std::size_t> done;  // placed markers, in placing order
    auto fits = [&](std::size_t i, int row, float labelLeft) {
        const float labelRight = labelLeft + markers[i].width;
        if (labelLeft < left || labelRight > right)
            return false;
        for (std::size_t j : done) {
            const PlacedLabel& other = placed[j];
            if (other.row < 0)
                continue;
            // Another label in this row.
            if (other.row == row && labelLeft < other.left + markers[j].width + gap && other.left < labelRight + gap)
                return false;
            // Its line rises through this row to its label's row.
            if (other.row >= row && markers[j].x > labelLeft - gap && markers[j].x < labelRight + gap)
                return false;
            // This marker's line rises through the other label's row.
            if (other.row <= row && markers[i].x > other.left - gap &&
                markers[i].x < other.left + markers[j].width + gap)
                return false;
        }
        return true;
    };
    for (std::size_t i : order) {
        const float x = markers[i].x;
        // Right of the line in any row before left of it: a label left of its line sits over the lines
        // of the markers left of it, which then find no row.
        for (float labelLeft : {x + gap, x - gap - markers[i].width})
            for (int row = 0; row < rows && placed[i].row < 0; ++row)
                if (fits(i, row, labelLeft))
                    placed[i] = {row, labelLeft};
        done.push_back(i);
    }
    return placed;
}

}  // namespace ui
