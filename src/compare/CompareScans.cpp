#include "compare/CompareScans.h"

#include "compare/CompareMethods.h"

#include "gl/Query.h"
#include "post/scan/ScanMethod.h"
#include "profiling/Profiler.h"
#include "reference/Scan.h"
#include "util/Log.h"
#include "util/Stats.h"

#include <chrono>
#include <iomanip>
#include <optional>
#include <sstream>
#include <thread>

namespace app {

namespace {

/// `repeat` timed calls of `scan` (timeRepeatedly: the same three time sources as the histogram part).
void timeScans(post::PassContext& ctx, post::ScanMethod& method, unsigned repeat, auto&& scan, CompareScanRow& row)
{
    RepeatedTimes times =
        timeRepeatedly(ctx, method.timerBackend(), util::format("compare/scan/{}/time", method.id()), repeat, scan);
    row.scanMs = std::move(times.ms);
    row.timeSource = times.source;
    if (!row.scanMs.empty()) {
        const util::Summary summary = util::summarize(row.scanMs);
        row.medianMs = summary.median;
        row.minMs = summary.min;
        row.maxMs = summary.max;
    }
}

}  // namespace

CompareScanReport compareScanMethods(post::PassContext& ctx, const std::vector<std::uint32_t>& values, unsigned repeat)
{
    CompareScanReport report;
    report.length = std::uint32_t(values.size());
    report.repeat = std::max(repeat, 1u);
    const std::vector<std::uint32_t> expected = ref::inclusiveScan(values);
    const std::size_t bytes = std::max<std::size_t>(values.size(), 1) * sizeof(std::uint32_t);
    gl::Buffer input("compare/scan/input", bytes, values.empty() ? nullptr : values.data());
    gl::Buffer output("compare/scan/output", bytes);

    for (const post::ScanMethodEntry& entry : post::scanMethodRegistry()) {
        std::unique_ptr<post::ScanMethod> method = entry.create();
        CompareScanRow& row = report.rows.emplace_back();
        row.id = std::string(method->id());
        row.label = std::string(method->label());
        row.backend = std::string(post::toString(method->backend()));
        const post::Availability availability = method->availability(ctx.caps);
        if (!availability.available) {
            row.available = false;
            row.reason = availability.reason;
            continue;
        }
        if (method->maxLength() < report.length) {
            row.available = false;
            row.reason = util::format("scans at most {} elements", method->maxLength());
            continue;
        }
        try {
            auto scan = [&] { method->inclusiveScan(ctx, input, output, report.length); };
            output.clearUint(0xDEADBEEFu);
            scan();  // warm-up: shader compilation, allocations; its result is the one compared
            const auto got = output.readAll<std::uint32_t>(values.size());
            for (std::size_t i = 0; i < got.size(); ++i)
                if (got[i] != expected[i] && row.wrongElements++ == 0)
                    row.firstWrong = std::uint32_t(i);
            timeScans(ctx, *method, report.repeat, scan, row);
            row.status = method->status();
        } catch (const std::exception& error) {
            row.failed = true;
            row.reason = error.what();
        }
    }
    return report;
}

std::string formatCompareScanTable(const CompareScanReport& report)
{
    std::ostringstream out;
    out << "scan methods: " << report.length << " elements (the CPU histogram above), " << report.repeat
        << " scans per method, against the CPU inclusive scan\n";
    bool anyCpuTime = false;
    out << std::left << std::setw(24) << "method" << std::right << std::setw(11) << "median ms" << std::setw(10)
        << "min ms" << std::setw(10) << "max ms"
        << "  result\n";
    for (const CompareScanRow& row : report.rows) {
        out << std::left << std::setw(24) << row.id << std::right;
        if (!row.available || row.failed) {
            out << "  " << (row.failed ? "FAILED: " : "unavailable: ") << row.reason << "\n";
            continue;
        }
        const bool cpuTime = row.timeSource == "cpu_wall_glfinish";
        anyCpuTime = anyCpuTime || cpuTime;
        const std::string mark = cpuTime ? "*" : "";
        out << std::setw(11) << formatCompareMs(row.medianMs) + mark << std::setw(10)
            << formatCompareMs(row.minMs) + mark << std::setw(10) << formatCompareMs(row.maxMs) + mark << "  "
            << (row.exact() ? std::string("exact")
                            : util::format("DIFFERENT: {} elements, first at {}", row.wrongElements, row.firstWrong));
        if (!row.status.empty())
            out << "; " << row.status;
        out << "\n";
    }
    if (anyCpuTime)
        out << "* CPU wall time around glFinish: GL timer queries measure nothing on this renderer\n";
    return out.str();
}

std::string formatCompareScanCsv(const CompareScanReport& report)
{
    std::ostringstream out;
    out << "method,label,backend,available,reason,length,median_ms,min_ms,max_ms,time_source,exact,wrong_elements,"
           "first_wrong,status\n";
    out.precision(9);
    for (const CompareScanRow& row : report.rows) {
        const bool ran = row.available && !row.failed;
        out << row.id << "," << csvField(row.label) << "," << row.backend << "," << (row.available ? 1 : 0) << ","
            << csvField(row.failed ? "FAILED: " + row.reason : row.reason) << "," << report.length << ",";
        if (ran)
            out << row.medianMs << "," << row.minMs << "," << row.maxMs << "," << row.timeSource << ","
                << (row.exact() ? 1 : 0) << "," << row.wrongElements << "," << row.firstWrong << ",";
        else
            out << ",,,,,,,";
        out << csvField(row.status) << "\n";
    }
    return out.str();
}

}  // namespace app
