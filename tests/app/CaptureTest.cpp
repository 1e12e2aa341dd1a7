// CaptureTest.cpp: the capture writers: trace-event JSON that Perfetto/chrome://tracing accept, with
// every pass and the metadata; the CSV; the summary table.
#include "profiling/Capture.h"
#include "support/TestPaths.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace {

const std::vector<std::string> kPassNames = {
    "scene", "scene/opaque", "histogram/compute-shared-atomic", "scan/compute-scan", "tonemap/percentile", "ui"};

/// Frames as the profiler records them; GL timestamps on even frames, CPU fallback on odd ones.
std::deque<profiling::FrameRecord> makeFrames(int count)
{
    std::deque<profiling::FrameRecord> frames;
    for (int f = 0; f < count; ++f) {
        profiling::FrameRecord frame;
        frame.frame = std::uint64_t(10 + f);
        frame.cpuStartMs = 100.0 + 16.0 * f;
        frame.cpuFrameMs = 16.0;
        double at = frame.cpuStartMs + 0.1;
        for (std::size_t i = 0; i < kPassNames.size(); ++i) {
            profiling::PassRecord pass;
            pass.name = kPassNames[i];
            pass.cpuStartMs = at;
            pass.cpuMs = 0.5 + 0.1 * double(i);
            pass.gpuMs = 1.0 + double(i) + 0.01 * f;
            if (f % 2 == 0) {
                pass.gpuStartMs = at + 0.2;
                pass.source = profiling::TimeSource::GlTimerQuery;
            } else {
                pass.source = profiling::TimeSource::CpuFallback;
            }
            at += pass.cpuMs + 0.05;
            frame.passes.push_back(pass);
        }
        frames.push_back(frame);
    }
    return frames;
}

profiling::CaptureMetadata makeMetadata()
{
    profiling::CaptureMetadata meta;
    for (const char* key : profiling::kCaptureMetadataKeys)
        meta.emplace_back(key, std::string("value of ") + key);
    return meta;
}

TEST(CaptureTest, TraceEventJsonIsValidAndComplete)
{
    auto frames = makeFrames(4);
    nlohmann::json root = nlohmann::json::parse(profiling::toTraceEventJson(frames, makeMetadata()));

    ASSERT_TRUE(root.contains("traceEvents"));
    ASSERT_TRUE(root["traceEvents"].is_array());
    EXPECT_EQ(root["displayTimeUnit"], "ms");
    ASSERT_TRUE(root["otherData"].is_object());
    for (const char* key : profiling::kCaptureMetadataKeys)
        EXPECT_EQ(root["otherData"][key], std::string("value of ") + key) << key;

    std::set<std::string> cpuNames, gpuNames, threadNames;
    std::size_t complete = 0;
    for (const auto& event : root["traceEvents"]) {
        ASSERT_TRUE(event.contains("ph") && event.contains("pid") && event.contains("name")) << event.dump();
        std::string phase = event["ph"];
        if (phase == "M") {
            if (event["name"] == "thread_name")
                threadNames.insert(event["args"]["name"].get<std::string>());
            continue;
        }
        ASSERT_EQ(phase, "X") << event.dump();
        ++complete;
        ASSERT_TRUE(event["ts"].is_number() && event["dur"].is_number() && event["tid"].is_number()) << event.dump();
        EXPECT_GE(event["ts"].get<double>(), 0.0);
        EXPECT_GE(event["dur"].get<double>(), 0.0);
        if (event["name"] == "frame")
            continue;
        ASSERT_TRUE(event["args"].contains("frame") && event["args"].contains("gpu_source")) << event.dump();
        (event["tid"] == 1 ? cpuNames : gpuNames).insert(event["name"].get<std::string>());
    }
    EXPECT_EQ(threadNames.size(), 2u) << "a CPU track and a GPU track";
    for (const std::string& name : kPassNames) {
        EXPECT_TRUE(cpuNames.count(name)) << name;
        EXPECT_TRUE(gpuNames.count(name)) << name;
    }
    // One frame event + a CPU and a GPU event per pass, per frame.
    EXPECT_EQ(complete, frames.size() * (1 + 2 * kPassNames.size()));
}

TEST(CaptureTest, KeyValuesBecomeCounterEventsOfTheirFrames)
{
    // Frames 10..13; key values for 11 and 13, and one for a frame not recorded (left out).
    const profiling::FrameKeyValues keys{{11, 1.5f}, {13, -2.25f}, {99, 7.0f}};
    const auto root = nlohmann::json::parse(profiling::toTraceEventJson(makeFrames(4), makeMetadata(), 0, keys));
    std::map<double, float> counters;  // ts -> ev
    for (const auto& event : root["traceEvents"])
        if (event["ph"] == "C") {
            EXPECT_EQ(event["name"], "key value (EV)");
            counters[event["ts"].get<double>()] = event["args"]["ev"].get<float>();
        }
    ASSERT_EQ(counters.size(), 2u);
    EXPECT_EQ(counters.at((100.0 + 16.0) * 1000.0), 1.5f);    // frame 11 starts at 116 ms
    EXPECT_EQ(counters.at((100.0 + 48.0) * 1000.0), -2.25f);  // frame 13 at 148 ms
}

TEST(CaptureTest, GpuEventsUseTimestampsOrSitUnderTheCpuEvent)
{
    auto frames = makeFrames(2);
    nlohmann::json root = nlohmann::json::parse(profiling::toTraceEventJson(frames, {}));
    for (const auto& event : root["traceEvents"]) {
        if (event["ph"] != "X" || event["tid"] != 2 || event["name"] != "scene")
            continue;
        const auto& pass = frames.at(std::size_t(event["args"]["frame"].get<int>() - 10)).passes[0];
        double expectedStart = pass.gpuStartMs.value_or(pass.cpuStartMs) * 1000.0;
        EXPECT_NEAR(event["ts"].get<double>(), expectedStart, 1e-6);
        EXPECT_NEAR(event["dur"].get<double>(), *pass.gpuMs * 1000.0, 1e-6);
        EXPECT_EQ(event["args"]["gpu_source"], pass.gpuStartMs ? "gl-timer-query" : "cpu-fallback");
    }
}

TEST(CaptureTest, CsvHasAHeaderAndOneRowPerFrameAndPass)
{
    auto frames = makeFrames(3);
    std::istringstream csv(profiling::toCsv(frames));
    std::string line;
    ASSERT_TRUE(std::getline(csv, line));
    EXPECT_EQ(line, "frame,pass,cpu_ms,gpu_ms,gpu_source");
    std::size_t rows = 0;
    while (std::getline(csv, line)) {
        ++rows;
        EXPECT_EQ(std::count(line.begin(), line.end(), ','), 4) << line;
    }
    EXPECT_EQ(rows, frames.size() * kPassNames.size());
    std::istringstream again(profiling::toCsv(frames));
    std::getline(again, line);
    std::getline(again, line);
    EXPECT_EQ(line, "10,scene,0.500000,1.000000,gl-timer-query");
}

TEST(CaptureTest, FilesAreWrittenAndAMissingFolderIsAnError)
{
    auto dir = testing_support::scratchDir("capture");
    auto frames = makeFrames(2);
    profiling::writeTraceEventJson(dir / "c.json", frames, makeMetadata());
    profiling::writeCsv(dir / "c.csv", frames);
    std::ifstream json(dir / "c.json");
    EXPECT_NO_THROW(nlohmann::json::parse(json));
    EXPECT_TRUE(std::filesystem::exists(dir / "c.csv"));
    EXPECT_THROW(profiling::writeCsv(dir / "missing" / "c.csv", frames), std::runtime_error);
    EXPECT_FALSE(std::filesystem::exists(dir / "missing"));
}

TEST(CaptureTest, SummaryGivesMedianMinMaxAndSource)
{
    auto frames = makeFrames(5);
    auto summary = profiling::summarizePasses(frames);
    ASSERT_EQ(summary.size(), kPassNames.size());
    EXPECT_EQ(summary[0].name, "scene");
    EXPECT_EQ(summary[0].frames, 5u);
    EXPECT_NEAR(summary[0].minGpuMs, 1.00, 1e-12);
    EXPECT_NEAR(summary[0].maxGpuMs, 1.04, 1e-12);
    EXPECT_NEAR(summary[0].medianGpuMs, 1.02, 1e-12);
    EXPECT_NEAR(summary[0].meanGpuMs, 1.02, 1e-12);
    std::string table = profiling::formatSummaryTable(summary);
    for (const std::string& name : kPassNames)
        EXPECT_NE(table.find(name), std::string::npos) << name;
    EXPECT_NE(table.find("median"), std::string::npos);
}

TEST(CaptureTest, EmptyRecordingStillGivesValidFiles)
{
    nlohmann::json root = nlohmann::json::parse(profiling::toTraceEventJson({}, makeMetadata()));
    EXPECT_TRUE(root["traceEvents"].is_array());
    EXPECT_EQ(profiling::toCsv({}), "frame,pass,cpu_ms,gpu_ms,gpu_source\n");
    EXPECT_TRUE(profiling::summarizePasses({}).empty());
}

TEST(CaptureTest, BuildMetadataCarriesVersionRevisionBuildTypeAndDate)
{
    std::set<std::string> keys;
    for (const auto& [key, value] : profiling::buildMetadata()) {
        keys.insert(key);
        EXPECT_FALSE(value.empty()) << key;
    }
    for (const char* key : {"build_type", "git_revision", "hdrlab_version", "date"})
        EXPECT_TRUE(keys.count(key)) << key;
}

}  // namespace
