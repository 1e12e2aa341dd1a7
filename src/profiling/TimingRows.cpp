#include "profiling/TimingRows.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

namespace profiling {

std::vector<TimingRow> timingRows(const std::vector<PassStats>& passes,
                                  std::optional<std::uint64_t> latestFrame,
                                  int staleFrames)
{
    std::vector<TimingRow> rows;
    if (!latestFrame)
        return rows;
    std::map<std::string, const PassStats*> visible;
    for (const PassStats& pass : passes)
        if (pass.lastFrame <= *latestFrame && *latestFrame - pass.lastFrame < std::uint64_t(std::max(staleFrames, 1)))
            visible.emplace(pass.name, &pass);

    // The nearest enclosing pass still in the table ("" for none). Bounded: parents could form a cycle
    // if a name ran under different scopes in different frames.
    auto shownParent = [&](const PassStats& pass) -> std::string {
        std::string parent = pass.parent;
        for (std::size_t step = 0; step <= passes.size() && !parent.empty(); ++step) {
            if (visible.count(parent))
                return parent;
            auto it = std::find_if(passes.begin(), passes.end(), [&](const PassStats& p) { return p.name == parent; });
            if (it == passes.end())
                return {};
            parent = it->parent;
        }
        return {};
    };
    std::map<std::string, std::vector<const PassStats*>> children;  // in `passes` order
    std::vector<const PassStats*> roots;
    for (const PassStats& pass : passes) {
        if (!visible.count(pass.name))
            continue;
        std::string parent = shownParent(pass);
        if (parent.empty() || parent == pass.name)
            roots.push_back(&pass);
        else
            children[parent].push_back(&pass);
    }

    std::vector<const PassStats*> emitted;
    auto emit = [&](auto&& self, const PassStats& pass, const std::string& parent, int depth) -> void {
        if (std::find(emitted.begin(), emitted.end(), &pass) != emitted.end())
            return;  // a cycle: each pass once
        emitted.push_back(&pass);
        TimingRow row;
        row.name = pass.name;
        const bool underParent = !parent.empty() && pass.name.size() > parent.size() + 1 &&
                                 pass.name.compare(0, parent.size(), parent) == 0 && pass.name[parent.size()] == '/';
        row.label = underParent ? pass.name.substr(parent.size() + 1) : pass.name;
        row.depth = depth;
        row.source = pass.source;
        row.gpu = pass.gpu;
        row.cached = pass.cached;
        row.lastGpuMs = pass.lastGpuMs;
        rows.push_back(std::move(row));
        if (auto it = children.find(pass.name); it != children.end())
            for (const PassStats* child : it->second)
                self(self, *child, pass.name, depth + 1);
    };
    for (const PassStats* root : roots)
        emit(emit, *root, std::string(), 0);
    // Passes caught in a parent cycle have no root: still shown, at the top level.
    for (const PassStats& pass : passes)
        if (visible.count(pass.name))
            emit(emit, pass, std::string(), 0);
    return rows;
}

std::vector<TimingRow> timingRows(const Profiler& profiler)
{
    return timingRows(profiler.passStats(), profiler.latestFrame());
}

TimeUnit tableUnit(const std::vector<TimingRow>& rows)
{
    for (const TimingRow& row : rows)
        if (row.gpu.count > 0 && row.gpu.mean >= 1.0)
            return TimeUnit::Milliseconds;
    return TimeUnit::Microseconds;
}

TimeUnit tableUnit(const std::vector<TimingRow>& rows, TimeUnit previous)
{
    double largest = -1.0;
    for (const TimingRow& row : rows)
        if (row.gpu.count > 0)
            largest = std::max(largest, row.gpu.mean);
    if (largest < 0.0)
        return previous;
    if (largest >= 1.0)
        return TimeUnit::Milliseconds;
    if (largest < kBackToMicroseconds)
        return TimeUnit::Microseconds;
    return previous;
}

std::string_view unitName(TimeUnit unit)
{
    return unit == TimeUnit::Microseconds ? "\xC2\xB5s" : "ms";
}

std::string formatTime(double ms, TimeUnit unit)
{
    const double value = unit == TimeUnit::Microseconds ? ms * 1000.0 : ms;
    if (!std::isfinite(value))
        return "?";
    const double magnitude = std::abs(value);
    // Decimals for three significant digits, at most 2 (4 characters keep the columns narrow);
    // rounding may carry into the next decade.
    const int decimals = magnitude >= 99.95 ? 0 : magnitude >= 9.995 ? 1 : 2;
    char text[32];
    std::snprintf(text, sizeof text, "%.*f", decimals, value);
    return text;
}

std::vector<std::string> timingHeaders(TimeUnit unit, bool lastAndStd, char separator)
{
    const std::string suffix = separator + std::string(unitName(unit));
    std::vector<std::string> headers = {"pass", "mean" + suffix, "min" + suffix, "max" + suffix};
    if (lastAndStd) {
        headers.push_back("last" + suffix);
        headers.push_back("std" + suffix);
    }
    headers.push_back("src");
    return headers;
}

TimingCells timingCells(const TimingRow& row, TimeUnit unit)
{
    TimingCells cells;
    if (row.cached) {
        cells.mean = "cached";
        return cells;
    }
    cells.source = sourceTag(row.source);
    if (row.gpu.count == 0) {
        cells.mean = "-";
        return cells;
    }
    cells.mean = formatTime(row.gpu.mean, unit);
    cells.min = formatTime(row.gpu.min, unit);
    cells.max = formatTime(row.gpu.max, unit);
    cells.last = formatTime(row.gpu.last, unit);
    cells.stddev = formatTime(row.gpu.stddev, unit);
    return cells;
}

std::string_view sourceTag(TimeSource source)
{
    switch (source) {
        case TimeSource::GlTimerQuery:
            return "G";
        case TimeSource::CudaEvent:
            return "C";
        case TimeSource::CpuFallback:
            return "cpu";
    }
    return "?";
}

std::string_view sourceLegend()
{
    return "G GPU timer \xC2\xB7 C CUDA event \xC2\xB7 cpu CPU time (fallback)";
}

}  // namespace profiling
