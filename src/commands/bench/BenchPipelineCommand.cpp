// BenchPipelineCommand.cpp: `hdrlab bench pipeline`: where the app's own post chain stands against
// the memory floor. Renders the default scene headless through the same App frame loop as a normal
// run and, per configuration (size x bins x operator x path), reports for every stage (scene,
// histogram, scan, curve with its sub-stages, apply), the whole chain and the frame:
//   median time   the profiler's per-pass times (GL timer queries, or CUDA events for the CUDA
//                 stages), read frames later as always: no per-frame stall is added;
//   traffic       the least bytes the stage must read and write (post/StageTraffic.h);
//   floor         bytes read / read rate + bytes written / write rate (commands/bench/BenchFloors.h), the rates
//                 measured first by streaming kernels that only read or only write, GL compute and
//                 CUDA, several configurations each, at the frame's size (commands/bench/BenchBandwidth.h), the
//                 best of them; the header prints every rate, how it was measured, and the device's
//                 physical peak where it is known;
//   time / floor  how far the stage is from moving its bytes once at the device's streaming rates;
//   x ref         time / the same stage of a minimal reference chain (a plain histogram with the
//                 hardware log2 on a linear copy of the frame, a one-dispatch curve, a plain apply; GL,
//                 and CUDA where present) timed right after the configuration's frames on its last
//                 frame (commands/bench/ReferenceBench.h): how far the stage is from a pass that
//                 simply streams; the reference's own rows follow each table, pooled at the end.
// A stage under 0.95x its floor means the floor is wrong: the bench says so loudly after the tables
// and exits with 3 (tables, CSV and chart are still written). CPU fallback times are never checked.
// The frame row is wall-clock time per frame over the timed frames (one glFinish at each end), so
// stalls between stages (CUDA interop map/unmap) show there even when every stage looks fast.
// Paths: "gl" (the default GL methods), "gl-fused" (the histogram binned in the scene's deferred
// lighting pass: compare its scene/lighting row with the gl path's), every CUDA histogram method with
// the GL scan, and every CUDA scan with the GL histogram; unavailable paths are skipped with the reason.
// --chart draws the chain's median time against bins, one line per (path, operator, size).
// Limits: one scene (the default), one camera path (every configuration renders the same frames);
// sub-stages are timed but have no traffic model; on software GL (llvmpipe) every time is the CPU
// time of the pass (the profiler's fallback) and the rates are CPU-clock numbers, which the output
// says.
#include "app/App.h"
#include "commands/bench/BenchBandwidth.h"
#include "commands/bench/BenchCommand.h"
#include "commands/bench/BenchFloors.h"
#include "commands/bench/BenchLatency.h"
#include "commands/bench/BenchScopes.h"
#include "commands/bench/ReferenceBench.h"
#include "commands/bench/peers/PeerBench.h"
#include "gl/Gl.h"
#include "platform/GlContext.h"
#include "post/PostPipeline.h"
#include "post/StageTraffic.h"
#include "post/histogram/HistogramFusedLighting.h"
#include "post/histogram/HistogramMethod.h"
#include "post/scan/ScanMethod.h"
#include "post/tonemap/ToneOperator.h"
#include "profiling/Profiler.h"
#include "scene/PreExposure.h"
#include "shared/HostDevice.h"
#include "util/BuildInfo.h"
#include "util/Log.h"
#include "util/Paths.h"
#include "util/Stats.h"
#include "util/SvgChart.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace app {

namespace {

/// Timed runs per streaming configuration (their median is the configuration's rate).
constexpr int kBandwidthRuns = 10;
/// The exit status when a stage came in under kFloorTolerance x its floor (errors exit with 1).
constexpr int kExitFloorBroken = 3;

/// `value` with `digits` decimals (util::format has no precision).
std::string fixed(double value, int digits)
{
    char text[64];
    std::snprintf(text, sizeof text, "%.*f", digits, value);
    return text;
}

/// `value` with 6 significant digits: floors of small stages are fractions of a microsecond.
std::string significant(double value)
{
    char text[64];
    std::snprintf(text, sizeof text, "%.6g", value);
    return text;
}

/// One measured configuration of the chain.
struct Path
{
    std::string kind;  ///< "gl", "cuda-histogram", "cuda-scan"
    std::string histogram;
    std::string scan;
};

struct StageRow
{
    std::string stage;
    std::string source;  ///< time source: gl-timer-query, cuda-event, cpu-fallback, wall-clock
    double medianUs = 0.0;
    post::Traffic traffic;  ///< empty: no traffic model (sub-stages)
};

/// "rgba32f", "rgba16f": the stored frame's GL format as the CSV and `--frame-format` name it
/// (scene::kFrameFormats).
std::string frameFormatName(unsigned internalFormat)
{
    if (internalFormat == GL_RGBA32F)
        return scene::frameFormatName(scene::FrameFormat::Rgba32f);
    return internalFormat == GL_RGBA16F ? scene::frameFormatName(scene::FrameFormat::Rgba16f) : "other";
}

std::string rateText(const std::optional<BandwidthSample>& sample)
{
    if (!sample)
        return "-";
    return fixed(sample->bytesPerSecond() * 1e-9, 1) + " GB/s (" + sample->configuration + ")";
}

/// The UTC time now, "2026-11-24 09:12 UTC".
std::string utcNow()
{
    const std::time_t now = std::time(nullptr);
    std::tm utc{};
    gmtime_r(&now, &utc);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%d %H:%M UTC", &utc);
    return text;
}

std::string timeSourceName(profiling::TimeSource source)
{
    switch (source) {
        case profiling::TimeSource::GlTimerQuery:
            return "gl-timer-query";
        case profiling::TimeSource::CudaEvent:
            return "cuda-event";
        case profiling::TimeSource::CpuFallback:
            return "cpu-fallback";
    }
    return "unknown";
}

class PipelineBench
{
public:
    PipelineBench(const CommonOptions& common, const BenchOptions& options)
        : mOptions(options), mApp(benchAppOptions(common, options))
    {
        measureBandwidth();
    }

    void printHeader()
    {
        const gl::GlInfo& gl = mApp.glInfo();
        std::printf(
            "hdrlab bench pipeline on %s (%s, OpenGL %s): %u timed frames after %u warm-up frames per "
            "configuration, default scene\n",
            gl.renderer.c_str(), gl.vendor.c_str(), gl.version.c_str(), mOptions.frames, mOptions.warmup);
        std::printf("build: %s, run at %s\n", util::gitRevision(), utcNow().c_str());
        const std::uint64_t frameBytes = post::frameBytesPerPixelOf(mApp.frameFormat());
        const std::optional<FrameStoreStatus> store = mApp.frameStore();
        std::printf("scene frame: %s, %llu bytes per pixel (the floors count the frame at this size)\n",
                    store ? describeFrameFormat(*store).c_str() : frameFormatName(mApp.frameFormat()).c_str(),
                    (unsigned long long)frameBytes);
        if (!mApp.caps().glTimersUseful)
            std::printf(
                "NOTE: %s is a software renderer: its GL timer queries measure nothing, so every time "
                "below is a CPU fallback (the CPU time of each pass), not a GPU number; the floors use "
                "rates timed with the CPU clock, and the floor check is off.\n",
                gl.renderer.c_str());
        if (!mApp.caps().cudaAvailable)
            std::printf("CUDA paths skipped: %s\n", mApp.caps().cudaReason.c_str());
        printRates();
        const std::vector<LatencySample> latency = measureDispatchLatency(mApp.shaders(), mApp.caps().glTimersUseful);
        if (!latency.empty()) {
            std::printf("dispatch latency (GL_TIMESTAMP pairs as the profiler takes them, median of 64):");
            for (const LatencySample& sample : latency)
                std::printf("%s %s %.2f us", &sample == latency.data() ? "" : ";", sample.what.c_str(),
                            sample.medianUs);
            std::printf("\n");
        }
    }

    /// Runs every configuration; the floor check's verdict afterwards: checkFloors(floorRows()).
    void run()
    {
        std::vector<std::string> operators;
        if (!mOptions.toneOperator || *mOptions.toneOperator == "all") {
            if (mOptions.toneOperator)
                for (const post::ToneOperatorEntry& entry : post::toneOperatorRegistry())
                    operators.emplace_back(entry.id);
            else
                operators.push_back(mApp.pipeline().settings().toneOperator);
        } else {
            operators.push_back(*mOptions.toneOperator);
        }
        mSeveralOperators = operators.size() > 1;
        for (glm::ivec2 size : mOptions.sizes) {
            mApp.resizeFrame(size);
            for (unsigned bins : mOptions.bins)
                for (const std::string& op : operators)
                    for (const Path& path : paths())
                        measure(size, bins, op, path);
        }
    }

    /// The chain's median time against bins, one series per (path, operator, size) configuration.
    util::ChartData chart() const
    {
        util::ChartData data = mChart;
        data.title = "hdrlab bench pipeline: post chain time against bins, " + mApp.glInfo().renderer;
        data.xLabel = "histogram bins";
        data.yLabel = "chain median time (us)";
        data.note = util::format("median of {} frames per configuration, default scene", mOptions.frames);
        if (!mGlPath.empty())
            data.note += "; gl = " + mGlPath;
        if (mCpuFallback)
            data.note += "; CPU fallback times (GL timer queries measure nothing on this renderer)";
        return data;
    }

    std::string csv() const
    {
        std::ostringstream out;
        out << "size,bins,operator,path,histogram_method,scan_method,stage,time_source,median_us,bytes,floor_us,"
               "time_over_floor,copy_gb_per_s,frames,read_bytes,write_bytes,read_gb_per_s,write_gb_per_s,"
               "frame_format,ref_us,time_over_ref,ref_api,exposure_ev\n";
        out << mCsv.str();
        return out.str();
    }

    const std::vector<FloorCheckRow>& floorRows() const { return mFloorRows; }

    /// The reference chain's rounds pooled per (size, bins, API).
    void printReferenceTable() const { std::printf("%s", mReferenceRounds.table().c_str()); }

    /// The floor check's summary line, or why it did not run.
    void printFloorCheck(const std::vector<FloorViolation>& violations) const
    {
        const auto checked = std::size_t(std::count_if(mFloorRows.begin(), mFloorRows.end(), floorCheckApplies));
        if (checked == 0) {
            std::printf("\nfloor check: not run (no stage has GPU times and GPU-measured rates here)\n");
        } else if (violations.empty()) {
            std::printf("\nfloor check: passed: all %zu stages with a floor came in at %.2fx their floor or above\n",
                        checked, kFloorTolerance);
        } else {
            std::fflush(stdout);
            std::fprintf(stderr, "\n%s", describeFloorViolations(violations).c_str());
        }
    }

private:
    /// The read and write rates at each frame size (and 1 GiB for reference on a GPU), before any frame.
    void measureBandwidth()
    {
        const post::GpuCaps& caps = mApp.caps();
        const std::uint64_t bytesPerPixel = post::frameBytesPerPixelOf(mApp.frameFormat());
        BandwidthPlan plan;
        plan.runs = kBandwidthRuns;
        plan.sweep = caps.glTimersUseful;
        for (glm::ivec2 size : mOptions.sizes) {
            const std::uint64_t bytes = streamBytesFor(post::pixelCount(size) * bytesPerPixel);
            if (std::find(plan.bufferBytes.begin(), plan.bufferBytes.end(), bytes) == plan.bufferBytes.end())
                plan.bufferBytes.push_back(bytes);
        }
        if (caps.glTimersUseful && std::find(plan.bufferBytes.begin(), plan.bufferBytes.end(), kReferenceStreamBytes) ==
                                       plan.bufferBytes.end())
            plan.bufferBytes.push_back(kReferenceStreamBytes);
        mRateBytes = plan.bufferBytes;
        if (caps.cudaAvailable)
            mCuda = measureCudaBandwidth(plan);
        else
            mCuda.unavailableReason = caps.cudaReason;
        if (mCuda.multiprocessors > 0)
            plan.multiprocessors = mCuda.multiprocessors;
        mSamples = measureGlBandwidth(mApp.shaders(), caps.glTimersUseful, plan);
        mSamples.insert(mSamples.end(), mCuda.samples.begin(), mCuda.samples.end());
    }

    std::uint64_t frameStreamBytes(glm::ivec2 size) const
    {
        return streamBytesFor(post::pixelCount(size) * post::frameBytesPerPixelOf(mApp.frameFormat()));
    }

    /// The header's rate table: every size, read / write / copy, the best GL and CUDA configuration.
    void printRates() const
    {
        // Configurations per size (the workgroup counts follow the buffer's size): those of the largest.
        const auto count = [&](const char* api) {
            return std::count_if(mSamples.begin(), mSamples.end(), [&](const BandwidthSample& sample) {
                return sample.api == api && sample.direction == StreamDirection::Read &&
                       sample.bufferBytes == mRateBytes.back();
            });
        };
        const bool gpuTimed = !mSamples.empty() && mSamples.front().gpuTimed;
        const std::string cuda = mCuda.unavailableReason.empty()
                                     ? util::format("cuda/StreamBandwidth.cu, {} configuration(s)", count("cuda"))
                                     : "not measured (" + mCuda.unavailableReason + ")";
        std::printf(
            "memory floors: a stage's floor = bytes it must read / read rate + bytes it must write / write rate, "
            "at the best rates measured at its frame's size by streaming kernels that only read or only write "
            "(GL compute: bench/StreamRead.comp, bench/StreamWrite.comp, %zu configuration(s); CUDA: %s; median of "
            "%d runs each, %s; a buffer smaller than the L2 partly stays there between runs, as a frame an "
            "earlier pass just wrote can). A stage under %.2fx its floor fails the bench.\n",
            std::size_t(count("gl-compute")), cuda.c_str(), kBandwidthRuns,
            gpuTimed ? "GL timer queries and CUDA events" : "CPU clock around glFinish", kFloorTolerance);
        std::printf("\n| buffer | direction | GL compute | CUDA | floors use |\n|---|---|---|---|---:|\n");
        for (std::uint64_t bytes : mRateBytes) {
            std::string what = "reference";
            for (glm::ivec2 size : mOptions.sizes)
                if (frameStreamBytes(size) == bytes)
                    what = util::format("{}x{} frame", size.x, size.y);
            const std::string buffer = fixed(double(bytes) * 1e-6, 2) + " MB (" + what + ")";
            const FloorRates rates = floorRatesAt(mSamples, bytes);
            const bool frameSize = what != "reference";
            for (StreamDirection direction : {StreamDirection::Read, StreamDirection::Write, StreamDirection::Copy}) {
                std::string used = "-";
                if (frameSize && direction != StreamDirection::Copy)
                    used = fixed((direction == StreamDirection::Read ? rates.readBytesPerSecond
                                                                     : rates.writeBytesPerSecond) *
                                     1e-9,
                                 1) +
                           " GB/s";
                const std::string label = direction == StreamDirection::Copy ? "copy (reference, read + write)"
                                                                             : std::string(toString(direction));
                std::printf("| %s | %s | %s | %s | %s |\n", buffer.c_str(), label.c_str(),
                            rateText(bestSample(mSamples, direction, bytes, "gl-compute")).c_str(),
                            rateText(bestSample(mSamples, direction, bytes, "cuda")).c_str(), used.c_str());
            }
        }
        const std::string device = mCuda.deviceName.empty() ? mApp.glInfo().renderer : mCuda.deviceName;
        if (const std::optional<DevicePeak> peak = devicePeakBandwidth(device)) {
            std::printf(
                "\ndevice peak: %.1f GB/s (%.*s, %.*s, data sheet; for reference: rates above it come from the "
                "L2 cache)\n",
                peak->bytesPerSecond * 1e-9, int(peak->model.size()), peak->model.data(), int(peak->memory.size()),
                peak->memory.data());
        } else {
            std::printf("\ndevice peak: not known for %s\n", device.c_str());
        }
    }

    std::vector<Path> paths() const
    {
        const post::PipelineSettings defaults;
        std::vector<Path> list{{"gl", defaults.histogramMethod, defaults.scanMethod}};
        // The histogram binned in the scene's deferred lighting pass (scene/lighting with and without it).
        list.push_back({"gl-fused", std::string(post::HistogramFusedLighting::kId), defaults.scanMethod});
        if (!mApp.caps().cudaAvailable)
            return list;  // said once in the header
        for (const post::HistogramMethodEntry& entry : post::histogramMethodRegistry())
            if (entry.id.rfind("cuda-", 0) == 0)
                list.push_back({"cuda-histogram", std::string(entry.id), defaults.scanMethod});
        for (const post::ScanMethodEntry& entry : post::scanMethodRegistry())
            if (entry.id.rfind("cuda-", 0) == 0)
                list.push_back({"cuda-scan", defaults.histogramMethod, std::string(entry.id)});
        return list;
    }

    /// Renders the warm-up frames, then the timed ones with the profiler recording; the rendered frames'
    /// records (not waitForTimings' empty harvest frames) and the wall time of the timed frames.
    std::vector<profiling::FrameRecord> recordFrames(double& wallMs)
    {
        mApp.rewindCameraPath();
        mApp.renderFrames(int(mOptions.warmup));
        mApp.waitForTimings();
        profiling::Profiler& profiler = mApp.profiler();
        profiler.clearRecording();
        profiler.startRecording();
        const auto start = std::chrono::steady_clock::now();
        mApp.renderFrames(int(mOptions.frames));
        mApp.waitForTimings();
        wallMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        // CUDA events can arrive a little after glFinish; a frame whose results are late stays
        // pending, so harvest again a few times rather than lose it.
        for (int retry = 0; retry < 4 && profiler.recordedFrames().size() <= mOptions.frames; ++retry)
            mApp.waitForTimings();
        profiler.stopRecording();
        // waitForTimings' own harvest frames have no passes: keep the rendered frames only.
        std::vector<profiling::FrameRecord> frames;
        for (const profiling::FrameRecord& frame : profiler.recordedFrames())
            if (!frame.passes.empty())
                frames.push_back(frame);
        profiler.clearRecording();
        return frames;
    }

    void measure(glm::ivec2 size, unsigned bins, const std::string& op, const Path& path)
    {
        post::PostPipeline& pipeline = mApp.pipeline();
        post::PipelineSettings wanted = pipeline.settings();
        wanted.histogramMethod = path.histogram;
        wanted.scanMethod = path.scan;
        wanted.toneOperator = op;
        wanted.spec.binCount = bins;
        std::string message;
        pipeline.applySettings(wanted, &message);
        const post::PipelineSettings& got = pipeline.settings();
        if (got.histogramMethod != path.histogram || got.scanMethod != path.scan || got.toneOperator != op) {
            // Say it once per method, not once per configuration.
            if (mSkipped.insert(path.histogram + "|" + path.scan).second)
                std::printf("\nskipped %s path (histogram %s, scan %s, operator %s): %s\n", path.kind.c_str(),
                            path.histogram.c_str(), path.scan.c_str(), op.c_str(), message.c_str());
            return;
        }
        const bool builtInCdf = pipeline.histogramMethod().producesCumulative();

        double wallMs = 0.0;
        const std::vector<profiling::FrameRecord> frames = recordFrames(wallMs);
        // The reference chain on the frame just rendered, with the params the pipeline used for it.
        ReferenceRound reference;
        if (const post::PostPipeline::LastRun last = pipeline.lastRun(); last.hdr) {
            reference = measureReferenceRound(mReferenceChain, *last.hdr, pipeline.paramsBuffer(), got.spec.binCount,
                                              int(mOptions.frames), int(std::min(mOptions.warmup, 10u)),
                                              mApp.caps().glTimersUseful, mApp.caps().cudaAvailable);
            mReferenceRounds.add(util::format("{}x{}", size.x, size.y), got.spec.binCount, reference);
        }

        post::TrafficShape shape;
        shape.frame = size;
        shape.histogramImage = size;  // the bench leaves downsampling off
        shape.bins = got.spec.binCount;
        shape.fovYDegrees = mApp.cameraFovYDegrees();
        shape.frameBytesPerPixel = post::frameBytesPerPixelOf(mApp.frameFormat());
        shape.histogramInScene = pipeline.histogramMethod().needsFusedProducer();
        const std::string tonemap = "tonemap/" + op;
        const std::string histogramScope = "histogram/" + got.histogramMethod;
        const std::string scanScope = "scan/" + got.scanMethod;

        std::vector<StageRow> rows;
        post::Traffic chainTraffic;
        auto add = [&](const std::string& stage, const std::vector<std::string>& scopes, post::Traffic traffic) {
            ScopeTimes times = collectScopes(frames, scopes);
            if (!times.found)
                return false;
            rows.push_back({stage, timeSourceName(times.source), util::median(times.perFrameMs) * 1e3, traffic});
            return true;
        };
        auto addChildren = [&](const std::string& stage, const std::string& scope) {
            for (const std::string& child : childScopes(frames, scope))
                add(stage + child.substr(scope.size()), {child}, {});
        };
        const post::Traffic sceneTraffic = post::sceneMinimumTraffic(shape);
        add("scene", {"scene"}, sceneTraffic);
        addChildren("scene", "scene");  // scene/lighting: with the fused histogram's binning on the gl-fused path
        std::vector<std::string> chainScopes{histogramScope, tonemap};
        if (got.rangeMode == post::RangeMode::Auto) {
            chainScopes.push_back("range/auto");
            if (add("range", {"range/auto"}, post::autoRangeMinimumTraffic(shape)))
                chainTraffic += post::autoRangeMinimumTraffic(shape);
        }
        // One pass (tonemap.one_pass): the histogram pass also writes the picture, so its floor is the
        // apply pass's (read the frame, write the display image) and no apply row follows.
        const bool onePass = pipeline.lastFrameOnePass();
        const post::Traffic histogramTraffic =
            onePass ? post::applyMinimumTraffic(shape) : post::histogramMinimumTraffic(shape);
        add("histogram", {histogramScope}, histogramTraffic);
        addChildren("histogram", histogramScope);
        chainTraffic += histogramTraffic;
        // A CUDA method's row is its kernels; its wait for the GL work at the interop hand-over is its own
        // row (post::kInteropWaitPrefix), still in the chain and the frame.
        const std::string histogramWait = std::string(post::kInteropWaitPrefix) + histogramScope;
        if (add("interop-wait/histogram", {histogramWait}, {}))
            chainScopes.push_back(histogramWait);
        if (!builtInCdf) {
            chainScopes.push_back(scanScope);
            add("scan", {scanScope}, post::scanMinimumTraffic(shape));
            addChildren("scan", scanScope);
            const std::string scanWait = std::string(post::kInteropWaitPrefix) + scanScope;
            if (add("interop-wait/scan", {scanWait}, {}))
                chainScopes.push_back(scanWait);
            chainTraffic += post::scanMinimumTraffic(shape);
        }
        if (add("local-adaptation", {"local-adaptation/cuda-sat"}, {}))
            chainScopes.push_back("local-adaptation/cuda-sat");
        // Local exposure (local_exposure.method bilateral): the grid's own pass (structure separate, or a
        // histogram method that cannot build it; it reads the frame as the histogram does) and the blur.
        if (add("local-exposure/grid", {"local-exposure/grid"}, post::histogramMinimumTraffic(shape))) {
            chainScopes.push_back("local-exposure/grid");
            chainTraffic += post::histogramMinimumTraffic(shape);
        }
        if (add("local-exposure/blur", {"local-exposure/blur"}, {}))
            chainScopes.push_back("local-exposure/blur");
        const post::Traffic curveTraffic = pipeline.toneOperator().curveMinimumTraffic(shape);
        add("curve", {tonemap + "/curve"}, curveTraffic);
        addChildren("curve", tonemap + "/curve");
        chainTraffic += curveTraffic;
        // Local exposure (method fusion): its passes inside the tonemap stage, after the curve (already in
        // the chain through the stage's scope); the reduce reads the frame once, as the histogram does.
        if (add("local-exposure/fusion", {"local-exposure/fusion"}, post::histogramMinimumTraffic(shape))) {
            addChildren("local-exposure/fusion", "local-exposure/fusion");
            chainTraffic += post::histogramMinimumTraffic(shape);
        }
        if (!onePass) {
            add("apply", {tonemap + "/apply"}, post::applyMinimumTraffic(shape));
            chainTraffic += post::applyMinimumTraffic(shape);
        }
        add("chain", chainScopes, chainTraffic);
        const double frameUs = frames.empty() ? 0.0 : wallMs * 1e3 / double(mOptions.frames);
        rows.push_back({"frame", "wall-clock", frameUs, sceneTraffic + chainTraffic});

        post::TrafficShape referenceShape = shape;  // the reference reads the frame (never binned in the scene)
        referenceShape.histogramInScene = false;
        const std::string scanText = builtInCdf ? std::string("built-in")
                                     : pipeline.lastCurveInHistogram()
                                         ? got.scanMethod + " (curve in the histogram pass)"
                                         : got.scanMethod;
        report(size, got.spec.binCount, op, path, got, scanText, rows, frames.size(), reference, referenceShape);
        if (mOptions.peers && path.kind == "gl") {  // the engines' metering on the same frame
            double meteringUs = 0.0;
            for (const StageRow& row : rows)
                meteringUs +=
                    row.stage == "histogram" || row.stage == "scan" || row.stage == "curve" ? row.medianUs : 0.0;
            runPeerRound(mApp, mPeers,
                         {util::format("{}x{}", size.x, size.y), std::to_string(got.spec.binCount), op,
                          frameFormatName(mApp.frameFormat()), mOptions.frames},
                         meteringUs, int(std::min(mOptions.warmup, 10u)), mCsv);
        }
    }

    void report(glm::ivec2 size,
                unsigned bins,
                const std::string& op,
                const Path& path,
                const post::PipelineSettings& got,
                const std::string& scanText,
                const std::vector<StageRow>& rows,
                std::size_t frameCount,
                const ReferenceRound& reference,
                const post::TrafficShape& referenceShape)
    {
        const FloorRates rates = floorRatesAt(mSamples, frameStreamBytes(size));
        const std::optional<BandwidthSample> copy = bestSample(mSamples, StreamDirection::Copy, frameStreamBytes(size));
        const std::string sizeText = util::format("{}x{}", size.x, size.y);
        const std::string configuration =
            util::format("{}, {} bins, {}, {} path (histogram {}, scan {}{})", sizeText, bins, op, path.kind,
                         got.histogramMethod, scanText, got.onePass ? ", one pass" : "");
        std::printf("\n### %s, %zu frames\n\n", configuration.c_str(), frameCount);
        std::printf(
            "| stage | timer | median us | MB read | MB written | floor us | time / floor | ref us | x ref |\n");
        std::printf("|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
        const auto csvRow = [&](const std::string& kind, const std::string& histogram, const std::string& scan,
                                const StageRow& row, double floorUs, double refUs, const std::string& refApi) {
            mCsv << sizeText << ',' << bins << ',' << op << ',' << kind << ',' << histogram << ',' << scan << ','
                 << row.stage << ',' << row.source << ',' << fixed(row.medianUs, 3) << ',';
            if (floorUs > 0.0)
                mCsv << row.traffic.total() << ',' << significant(floorUs) << ','
                     << significant(row.medianUs / floorUs);
            else
                mCsv << ",,";
            mCsv << ',' << (copy ? fixed(copy->bytesPerSecond() * 1e-9, 2) : "") << ',' << frameCount << ',';
            if (floorUs > 0.0)
                mCsv << row.traffic.readBytes << ',' << row.traffic.writeBytes;
            else
                mCsv << ',';
            mCsv << ',' << significant(rates.readBytesPerSecond * 1e-9) << ','
                 << significant(rates.writeBytesPerSecond * 1e-9) << ',' << frameFormatName(mApp.frameFormat()) << ',';
            if (refUs > 0.0)
                mCsv << significant(refUs) << ',' << significant(row.medianUs / refUs) << ',' << refApi;
            else
                mCsv << ",,";
            mCsv << ",\n";  // exposure_ev: the peer rows' (PeerBench.h)
        };
        for (const StageRow& row : rows) {
            const double floorUs = floorMicroseconds(row.traffic, rates);
            std::string floorText = "-", ratioText = "-", readText = "-", writeText = "-", refText = "-",
                        refRatioText = "-";
            if (floorUs > 0.0) {
                readText = fixed(double(row.traffic.readBytes) * 1e-6, 2);
                writeText = fixed(double(row.traffic.writeBytes) * 1e-6, 2);
                floorText = fixed(floorUs, 2);
                ratioText = fixed(row.medianUs / floorUs, 2);
                mFloorRows.push_back({configuration, row.stage, row.source, row.medianUs, row.traffic, rates});
            }
            const double refUs = reference.stageUs(row.stage, row.source);
            const ReferenceTimes* refTimes = reference.forTimeSource(row.source);
            if (refUs > 0.0) {
                refText = fixed(refUs, 2) + (refTimes->api == "cuda" ? " (cuda)" : "");
                refRatioText = fixed(row.medianUs / refUs, 2);
            }
            std::printf("| %s | %s | %.2f | %s | %s | %s | %s | %s | %s |\n", row.stage.c_str(), row.source.c_str(),
                        row.medianUs, readText.c_str(), writeText.c_str(), floorText.c_str(), ratioText.c_str(),
                        refText.c_str(), refRatioText.c_str());
            if (row.stage == "chain")
                addChartPoint(sizeText, op, path, got.histogramMethod + " + " + scanText, bins, row);
            csvRow(path.kind, got.histogramMethod, scanText, row, floorUs, refUs, refUs > 0.0 ? refTimes->api : "");
        }
        // The reference's own rows: its stages against the same floors (the copy only for reference:
        // it is no stage of the chain, so it stays out of the floor check).
        std::printf("\n%s", describeReferenceRound(reference).c_str());
        for (const ReferenceTimes* times : {&reference.gl, &reference.cuda}) {
            if (!times->measured())
                continue;
            for (const std::string& stage : kReferenceStages) {
                const post::Traffic traffic = referenceTraffic(stage, referenceShape);
                const StageRow row{stage, times->source, times->medianUs(stage), traffic};
                const double floorUs = floorMicroseconds(traffic, rates);
                if (floorUs > 0.0 && stage != "copy")
                    mFloorRows.push_back({configuration + ", reference chain (" + times->api + ")", stage,
                                          times->source, row.medianUs, traffic, rates});
                csvRow("reference-" + times->api, "reference", "in-curve", row, floorUs, 0.0, "");
            }
        }
    }

    void addChartPoint(const std::string& size,
                       const std::string& op,
                       const Path& path,
                       const std::string& methods,
                       unsigned bins,
                       const StageRow& row)
    {
        // Short legend names: the path's own method ("gl" for the default pair, said in the note).
        std::string name = path.kind == "gl" ? "gl" : path.kind == "cuda-scan" ? path.scan : path.histogram;
        if (path.kind == "gl")
            mGlPath = methods;
        if (mSeveralOperators)
            name += ", " + op;
        if (mOptions.sizes.size() > 1)
            name += ", " + size;
        auto found = std::find_if(mChart.series.begin(), mChart.series.end(),
                                  [&](const util::ChartSeries& series) { return series.name == name; });
        if (found == mChart.series.end())
            found = mChart.series.insert(mChart.series.end(), util::ChartSeries{name, {}});
        found->points.push_back({double(bins), row.medianUs});
        mCpuFallback = mCpuFallback || row.source == "cpu-fallback";
    }

    BenchOptions mOptions;
    App mApp;
    std::vector<BandwidthSample> mSamples;  ///< every streaming rate measured (GL compute and CUDA)
    std::vector<std::uint64_t> mRateBytes;  ///< the buffer sizes measured: each frame's, then the reference
    CudaBandwidth mCuda;
    std::vector<FloorCheckRow> mFloorRows;  ///< every stage row with a floor, for the check
    std::ostringstream mCsv;
    std::set<std::string> mSkipped;
    util::ChartData mChart;
    bool mSeveralOperators = false;
    std::string mGlPath;  ///< the default GL methods, "histogram + scan"
    bool mCpuFallback = false;
    GlReferenceChain mReferenceChain{mApp.shaders()};  ///< after mApp: built on its context
    ReferenceRounds mReferenceRounds;
    PeerBench mPeers{mApp.shaders()};  ///< after mApp: built on its context
};

void validate(const BenchOptions& options)
{
    if (options.sizes.empty() || options.bins.empty())
        throw std::invalid_argument("needs at least one --size and one --bins value");
    for (unsigned bins : options.bins)
        if (bins < 1 || bins > hd::kMaxHistogramBins)
            throw std::invalid_argument(util::format("--bins {}: must be 1..{}", bins, hd::kMaxHistogramBins));
    if (options.frames < 1 || options.frames > 100000)
        throw std::invalid_argument(util::format("--frames {}: must be 1..100000", options.frames));
    if (options.warmup > 100000)
        throw std::invalid_argument(util::format("--warmup {}: must be 0..100000", options.warmup));
    if (options.toneOperator && *options.toneOperator != "all" && !post::createToneOperator(*options.toneOperator))
        throw std::invalid_argument("--operator: unknown tone operator '" + *options.toneOperator +
                                    "' (see hdrlab --list, or use all)");
}

}  // namespace

int runBenchPipeline(const CommonOptions& common, const BenchOptions& options)
{
    try {
        validate(options);
        std::vector<FloorViolation> violations;
        {
            PipelineBench bench(common, options);
            bench.printHeader();
            bench.run();
            bench.printReferenceTable();
            if (options.csv) {
                util::writeFileAtomically(*options.csv, bench.csv());
                std::printf("\nwrote %s\n", options.csv->string().c_str());
            }
            if (options.chart) {
                util::writeFileAtomically(*options.chart, util::renderSvgChart(bench.chart()));
                std::printf("wrote %s\n", options.chart->string().c_str());
            }
            violations = checkFloors(bench.floorRows());
            bench.printFloorCheck(violations);
        }
        if (options.peers)  // after the bench's app is gone: one app per preset
            comparePresetsWithPeers(common, options);
        return violations.empty() ? 0 : kExitFloorBroken;
    } catch (const std::exception& error) {
        return reportCommandError(std::cerr, error);
    }
}

}  // namespace app
