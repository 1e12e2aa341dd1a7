#include "ui/PlotLabels.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <utility>

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

namespace {

/// How the greedy placement goes: the markers' order, and where a label is tried first.
struct Strategy
{
    bool rightToLeft = true;  ///< markers from the rightmost (else from the leftmost)
    bool rightFirst = true;   ///< right of the line in every row before left of it (else both sides per row)
};

std::vector<PlacedLabel> placeGreedily(const std::vector<MarkerLabel>& markers,
                                       float left,
                                       float right,
                                       int rows,
                                       float gap,
                                       Strategy strategy)
{
    std::vector<PlacedLabel> placed(markers.size());
    std::vector<std::size_t> order(markers.size());
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return strategy.rightToLeft ? markers[a].x > markers[b].x : markers[a].x < markers[b].x;
    });

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
        const float rightOfLine = markers[i].x + gap;
        const float leftOfLine = markers[i].x - gap - markers[i].width;
        if (strategy.rightFirst) {
            // Right of the line from the lowest row up; else left of it from the highest row down (a
            // label left of its line sits over the lines of markers further left: high up, fewer rise
            // through it).
            for (int row = 0; row < rows && placed[i].row < 0; ++row)
                if (fits(i, row, rightOfLine))
                    placed[i] = {row, rightOfLine};
            for (int row = rows - 1; row >= 0 && placed[i].row < 0; --row)
                if (fits(i, row, leftOfLine))
                    placed[i] = {row, leftOfLine};
        } else {
            for (int row = 0; row < rows && placed[i].row < 0; ++row)
                for (float labelLeft : {rightOfLine, leftOfLine})
                    if (placed[i].row < 0 && fits(i, row, labelLeft))
                        placed[i] = {row, labelLeft};
        }
        done.push_back(i);
    }
    return placed;
}

}  // namespace

std::vector<PlacedLabel> placeMarkerLabels(const std::vector<MarkerLabel>& markers,
                                           float left,
                                           float right,
                                           int rows,
                                           float gap)
{
    // A few greedy placements; the one that labels the most markers wins, then the one with the
    // fewest rows. Right to left with labels right of their lines is tried first: the line of a
    // marker left of a label must rise past it, so giving the right one the lower row lets close
    // markers climb a staircase leftwards.
    std::vector<PlacedLabel> best;
    auto score = [](const std::vector<PlacedLabel>& placed) {
        int unplaced = 0;
        int usedRows = 0;
        for (const PlacedLabel& label : placed) {
            unplaced += label.row < 0;
            usedRows = std::max(usedRows, label.row + 1);
        }
        return std::pair(unplaced, usedRows);
    };
    for (Strategy strategy :
         {Strategy{true, true}, Strategy{true, false}, Strategy{false, true}, Strategy{false, false}}) {
        std::vector<PlacedLabel> placed = placeGreedily(markers, left, right, rows, gap, strategy);
        if (best.empty() || score(placed) < score(best))
            best = std::move(placed);
    }
    return best.empty() ? std::vector<PlacedLabel>(markers.size()) : best;
}

}  // namespace ui
