#include "profiling/Capture.h"

#include "util/BuildInfo.h"
#include "util/OutputFile.h"
#include "util/Stats.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <iomanip>
#include <map>
#include <sstream>

namespace profiling {
namespace {

constexpr int kProcessId = 1;
constexpr int kCpuTrack = 1;
constexpr int kGpuTrack = 2;

double toMicroseconds(double ms)
{
    return std::max(0.0, ms * 1000.0);
}

nlohmann::ordered_json threadName(int tid, const char* name)
{
    return {{"name", "thread_name"}, {"ph", "M"}, {"pid", kProcessId}, {"tid", tid}, {"args", {{"name", name}}}};
}

nlohmann::ordered_json completeEvent(const std::string& name,
                                     const char* category,
                                     int tid,
                                     double startMs,
                                     double durationMs,
                                     nlohmann::ordered_json args)
{
    return {{"name", name},
            {"cat", category},
            {"ph", "X"},
            {"pid", kProcessId},
            {"tid", tid},
            {"ts", toMicroseconds(startMs)},
            {"dur", std::max(0.0, durationMs * 1000.0)},
            {"args", std::move(args)}};
}

std::string formatUtc(const char* pattern)
{
    std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    std::tm utc{};
    gmtime_r(&now, &utc);
    std::ostringstream out;
    out << std::put_time(&utc, pattern);
    return out.str();
}

std::string fixed(double value, int decimals)
{
    std::ostringstream out;
    out << std::fixed << std::setprecision(decimals) << value;
    return out.str();
}

}  // namespace

std::string_view sourceToken(TimeSource source)
{
    switch (source) {
        case TimeSource::GlTimerQuery:
            return "gl-timer-query";
        case TimeSource::CudaEvent:
            return "cuda-event";
        case TimeSource::CpuFallback:
            return "cpu-fallback";
    }
    return "unknown";
}

CaptureMetadata buildMetadata()
{
    return {{"build_type", HDRLAB_BUILD_TYPE},
            {"git_revision", util::gitRevision()},
            {"hdrlab_version", HDRLAB_VERSION},
            {"date", formatUtc("%Y-%m-%dT%H:%M:%SZ")}};
}

std::string timestampForFileName()
{
    return formatUtc("%Y%m%d-%H%M%S");
}

std::string toTraceEventJson(const std::deque<FrameRecord>& frames,
                             const CaptureMetadata& metadata,
                             std::uint64_t droppedFrames,
                             const FrameKeyValues& keyValues)
{
    const std::map<std::uint64_t, float> keyValueByFrame(keyValues.begin(), keyValues.end());
    nlohmann::ordered_json events = nlohmann::ordered_json::array();
    events.push_back({{"name", "process_name"}, {"ph", "M"}, {"pid", kProcessId}, {"args", {{"name", "hdrlab"}}}});
    events.push_back(threadName(kCpuTrack, "CPU (pass submission)"));
    events.push_back(threadName(kGpuTrack, "GPU (pass execution)"));
    for (const FrameRecord& frame : frames) {
        if (const auto key = keyValueByFrame.find(frame.frame); key != keyValueByFrame.end())
            events.push_back({{"name", "key value (EV)"},
                              {"ph", "C"},
                              {"pid", kProcessId},
                              {"tid", kCpuTrack},
                              {"ts", toMicroseconds(frame.cpuStartMs)},
                              {"args", {{"ev", key->second}}}});
        if (frame.cpuFrameMs > 0.0)
            events.push_back(completeEvent("frame", "frame", kCpuTrack, frame.cpuStartMs, frame.cpuFrameMs,
                                           {{"frame", frame.frame}}));
        for (const PassRecord& pass : frame.passes) {
            nlohmann::ordered_json args = {{"frame", frame.frame}, {"gpu_source", sourceToken(pass.source)}};
            events.push_back(completeEvent(pass.name, "cpu", kCpuTrack, pass.cpuStartMs, pass.cpuMs, args));
            if (pass.gpuMs) {
                // Without a GPU timestamp (CPU fallback, CUDA events) the GPU slice sits under the CPU one.
                double start = pass.gpuStartMs.value_or(pass.cpuStartMs);
                events.push_back(completeEvent(pass.name, "gpu", kGpuTrack, start, *pass.gpuMs, args));
            }
        }
    }
    nlohmann::ordered_json other = nlohmann::ordered_json::object();
    for (const auto& [key, value] : metadata)
        other[key] = value;
    other["recorded_frames"] = frames.size();
    other["dropped_frames"] = droppedFrames;

    nlohmann::ordered_json root;
    root["traceEvents"] = std::move(events);
    root["displayTimeUnit"] = "ms";
    root["otherData"] = std::move(other);
    return root.dump(1) + "\n";
}

std::string toCsv(const std::deque<FrameRecord>& frames)
{
    std::ostringstream out;
    out << "frame,pass,cpu_ms,gpu_ms,gpu_source\n";
    for (const FrameRecord& frame : frames)
        for (const PassRecord& pass : frame.passes)
            out << frame.frame << ',' << pass.name << ',' << fixed(pass.cpuMs, 6) << ','
                << (pass.gpuMs ? fixed(*pass.gpuMs, 6) : std::string()) << ',' << sourceToken(pass.source) << '\n';
    return out.str();
}

void writeTraceEventJson(const std::filesystem::path& path,
                         const std::deque<FrameRecord>& frames,
                         const CaptureMetadata& metadata,
                         std::uint64_t droppedFrames,
                         const FrameKeyValues& keyValues)
{
    util::writeTextOutput(path, toTraceEventJson(frames, metadata, droppedFrames, keyValues));
}

void writeCsv(const std::filesystem::path& path, const std::deque<FrameRecord>& frames)
{
    util::writeTextOutput(path, toCsv(frames));
}

std::vector<PassSummary> summarizePasses(const std::deque<FrameRecord>& frames)
{
    std::vector<std::string> order;
    std::map<std::string, std::vector<double>> samples;
    std::map<std::string, TimeSource> sources;
    for (const FrameRecord& frame : frames)
        for (const PassRecord& pass : frame.passes) {
            if (!pass.gpuMs)
                continue;
            auto [it, inserted] = samples.try_emplace(pass.name);
            if (inserted)
                order.push_back(pass.name);
            it->second.push_back(*pass.gpuMs);
            sources[pass.name] = pass.source;
        }
    std::vector<PassSummary> out;
    for (const std::string& name : order) {
        util::Summary s = util::summarize(samples[name]);
        out.push_back({name, s.count, s.mean, s.median, s.min, s.max, sources[name]});
    }
    return out;
}

std::string formatSummaryTable(const std::vector<PassSummary>& passes)
{
    std::size_t nameWidth = 4;
    for (const PassSummary& pass : passes)
        nameWidth = std::max(nameWidth, pass.name.size());
    std::ostringstream out;
    auto cell = [&out](const std::string& text, std::size_t width, bool left) {
        out << (left ? std::left : std::right) << std::setw(int(width)) << text << "  ";
    };
    cell("pass", nameWidth, true);
    cell("frames", 6, false);
    for (const char* title : {"mean ms", "median ms", "min ms", "max ms"})
        cell(title, 10, false);
    out << "time source\n";
    for (const PassSummary& pass : passes) {
        cell(pass.name, nameWidth, true);
        cell(std::to_string(pass.frames), 6, false);
        for (double value : {pass.meanGpuMs, pass.medianGpuMs, pass.minGpuMs, pass.maxGpuMs})
            cell(fixed(value, 3), 10, false);
        out << toString(pass.source) << '\n';
    }
    return out.str();
}

}  // namespace profiling
