// BenchPipelineCommand.cpp: `hdrlab bench pipeline`: where the app's own post chain stands against
// the memory floor. Renders the default scene headless through the same App frame loop as a normal
// run and, per configuration (size x bins x operator x path), reports for every stage (scene,
// histogram, scan, curve with its sub-stages, apply), the whole chain and the frame:
//   median time   the profiler's per-pass times (GL timer queries, or CUDA events for the CUDA
//                 stages), read frames later as always: no per-frame stall is added;
//   bytes         the least device-memory traffic the stage must move (post/StageTraffic.h);
//   floor         bytes / the measured copy bandwidth (a compute-shader copy of a large buffer, timed
//                 with a GL_TIME_ELAPSED query: read + write bytes per second);
//   time / floor  how far the stage is from moving its bytes once at copy speed.
// The frame row is wall-clock time per frame over the timed frames (one glFinish at each end), so
// stalls between stages (CUDA interop map/unmap) show there even when every stage looks fast.
// Paths: "gl" (the default GL methods), "gl-fused" (the histogram binned in the scene's deferred
// lighting pass: compare its scene/lighting row with the gl path's), every CUDA histogram method with
// the GL scan, and every CUDA scan with the GL histogram; unavailable paths are skipped with the reason.
// --chart draws the chain's median time against bins, one line per (path, operator, size).
// Limits: one scene (the default), one camera path (every configuration renders the same frames);
// sub-stages are timed but have no traffic model; on software GL (llvmpipe) every time is the CPU
// time of the pass (the profiler's fallback), which the output says.
#include "app/App.h"
#include "app/Commands.h"
#include "gl/Buffer.h"
#include "gl/Program.h"
#include "gl/Query.h"
#include "platform/GlContext.h"
#include "post/PostPipeline.h"
#include "post/StageTraffic.h"
#include "post/histogram/HistogramFusedLighting.h"
#include "post/histogram/HistogramMethod.h"
#include "post/scan/ScanMethod.h"
#include "post/tonemap/ToneOperator.h"
#include "profiling/Profiler.h"
#include "shared/HostDevice.h"
#include "util/Log.h"
#include "util/Paths.h"
#include "util/SvgChart.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace app {

namespace {

constexpr std::string_view kPrefix = "hdrlab bench pipeline: ";

/// Bandwidth of a compute-shader buffer-to-buffer copy (bytes read + bytes written per second).
struct CopyBandwidth
{
    std::uint64_t bufferBytes = 0;
    double medianMs = 0.0;
    bool gpuTimed = true;  ///< false: CPU wall clock around glFinish (software GL)
    double bytesPerSecond() const { return medianMs > 0.0 ? 2.0 * double(bufferBytes) / (medianMs * 1e-3) : 0.0; }
};

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

double median(std::vector<double> values)
{
    if (values.empty())
        return 0.0;
    std::sort(values.begin(), values.end());
    const std::size_t mid = values.size() / 2;
    return values.size() % 2 ? values[mid] : 0.5 * (values[mid - 1] + values[mid]);
}

CopyBandwidth measureCopyBandwidth(bool glTimersUseful, const gl::ShaderLibrary& shaders)
{
    constexpr int kRuns = 10;
    CopyBandwidth result;
    // Large enough to leave every cache (the H200's L2 is 60 MiB); smaller where the CPU copies.
    result.bufferBytes = glTimersUseful ? (std::uint64_t(512) << 20) : (std::uint64_t(64) << 20);
    gl::Buffer source("bench.copy-source", result.bufferBytes);
    gl::Buffer target("bench.copy-target", result.bufferBytes);
    source.clearUint(0x3c003c00u);
    // Shader cores stream the copy (bench/StreamCopy.comp), as hdrlab's passes do: a GL buffer copy
    // may take a DMA copy engine instead (177 GB/s on the H200, against TB/s for the SMs).
    const gl::Program program = shaders.buildCompute("bench.stream-copy", "bench/StreamCopy.comp");
    const auto elements = std::uint32_t(result.bufferBytes / 16);
    constexpr unsigned kGroups = 4096;  // grid-stride: enough groups to fill any GPU
    const auto copy = [&] {
        source.bindBase(GL_SHADER_STORAGE_BUFFER, 0);
        target.bindBase(GL_SHADER_STORAGE_BUFFER, 1);
        program.use();
        program.set(0, elements);
        glDispatchCompute(kGroups, 1, 1);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    };
    copy();  // first touch, not timed
    std::vector<double> ms;
    if (glTimersUseful) {
        std::vector<gl::Query> queries;
        for (int run = 0; run < kRuns; ++run) {
            queries.emplace_back("bench.copy-time", GL_TIME_ELAPSED);
            queries.back().begin();
            copy();
            queries.back().end();
        }
        for (const gl::Query& query : queries)  // a tool's one wait, after all copies are queued
            ms.push_back(double(query.waitResult()) * 1e-6);
    }
    if (median(ms) <= 0.0) {  // no GPU timer (llvmpipe): time the copy on the CPU clock
        result.gpuTimed = false;
        ms.clear();
        for (int run = 0; run < kRuns; ++run) {
            glFinish();
            const auto start = std::chrono::steady_clock::now();
            copy();
            glFinish();
            ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
        }
    }
    result.medianMs = median(ms);
    return result;
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
    std::uint64_t bytes = 0;  ///< 0: no traffic model (sub-stages)
};

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

/// Per-frame sums of the named scopes, their median, and the weakest time source among them.
struct ScopeTimes
{
    std::vector<double> perFrameMs;
    profiling::TimeSource source = profiling::TimeSource::GlTimerQuery;
    bool found = false;
};

ScopeTimes collect(const std::vector<profiling::FrameRecord>& frames, const std::vector<std::string>& scopes)
{
    ScopeTimes times;
    for (const profiling::FrameRecord& frame : frames) {
        double sum = 0.0;
        bool any = false;
        for (const profiling::PassRecord& pass : frame.passes) {
            if (std::find(scopes.begin(), scopes.end(), pass.name) == scopes.end() || !pass.gpuMs)
                continue;
            sum += *pass.gpuMs;
            any = true;
            // Report the least precise source among the summed passes (GL < CUDA events < CPU fallback).
            if (int(pass.source) > int(times.source))
                times.source = pass.source;
        }
        if (any) {
            times.perFrameMs.push_back(sum);
            times.found = true;
        }
    }
    return times;
}

/// The scopes nested under `parent` ("tonemap/ward/curve/foveal" under "tonemap/ward/curve"), in
/// the order they first appear.
std::vector<std::string> childScopes(const std::vector<profiling::FrameRecord>& frames, const std::string& parent)
{
    std::vector<std::string> children;
    const std::string prefix = parent + "/";
    for (const profiling::FrameRecord& frame : frames)
        for (const profiling::PassRecord& pass : frame.passes)
            if (pass.name.rfind(prefix, 0) == 0 &&
                std::find(children.begin(), children.end(), pass.name) == children.end())
                children.push_back(pass.name);
    return children;
}

class PipelineBench
{
public:
    PipelineBench(const CommonOptions& common, const BenchOptions& options)
        : mOptions(options), mApp(benchAppOptions(common, options))
    {
        mCopy = measureCopyBandwidth(mApp.caps().glTimersUseful, mApp.shaders());
    }

    void printHeader() const
    {
        const platform::GlInfo& gl = mApp.glInfo();
        std::printf(
            "hdrlab bench pipeline on %s (%s, OpenGL %s): %u timed frames after %u warm-up frames per "
            "configuration, default scene\n",
            gl.renderer.c_str(), gl.vendor.c_str(), gl.version.c_str(), mOptions.frames, mOptions.warmup);
        const std::uint64_t frameBytes = post::frameBytesPerPixelOf(mApp.frameFormat());
        std::printf("scene frame: %s, %llu bytes per pixel (the floors count the frame at this size)\n",
                    frameBytes == 16 ? "RGBA32F (the default scene's sun exceeds half-float range)" : "RGBA16F",
                    (unsigned long long)frameBytes);
        std::printf("copy bandwidth: %.1f GB/s (compute-shader copy of %llu MiB, read + write, median of 10, %s)\n",
                    mCopy.bytesPerSecond() * 1e-9, (unsigned long long)(mCopy.bufferBytes >> 20),
                    mCopy.gpuTimed ? "GL timer queries" : "CPU clock around glFinish");
        if (!mApp.caps().glTimersUseful)
            std::printf(
                "NOTE: %s is a software renderer: its GL timer queries measure nothing, so every time "
                "below is a CPU fallback (the CPU time of each pass), not a GPU number; the floors use "
                "the same copy timed on the CPU.\n",
                gl.renderer.c_str());
        if (!mApp.caps().cudaAvailable)
            std::printf("CUDA paths skipped: %s\n", mApp.caps().cudaReason.c_str());
    }

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
               "time_over_floor,copy_gb_per_s,frames\n";
        out << mCsv.str();
        return out.str();
    }

private:
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

        mApp.rewindCameraPath();
        mApp.renderFrames(int(mOptions.warmup));
        mApp.waitForTimings();
        profiling::Profiler& profiler = mApp.profiler();
        profiler.clearRecording();
        profiler.startRecording();
        const auto start = std::chrono::steady_clock::now();
        mApp.renderFrames(int(mOptions.frames));
        mApp.waitForTimings();
        const double wallMs =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
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
        std::uint64_t chainBytes = 0;
        auto add = [&](const std::string& stage, const std::vector<std::string>& scopes, std::uint64_t bytes) {
            ScopeTimes times = collect(frames, scopes);
            if (!times.found)
                return false;
            rows.push_back({stage, timeSourceName(times.source), median(times.perFrameMs) * 1e3, bytes});
            return true;
        };
        auto addChildren = [&](const std::string& stage, const std::string& scope) {
            for (const std::string& child : childScopes(frames, scope))
                add(stage + child.substr(scope.size()), {child}, 0);
        };
        const std::uint64_t sceneBytes = post::pixelCount(size) * shape.frameBytesPerPixel;  // the frame written
        add("scene", {"scene"}, sceneBytes);
        addChildren("scene", "scene");  // scene/lighting: with the fused histogram's binning on the gl-fused path
        std::vector<std::string> chainScopes{histogramScope, tonemap};
        if (got.rangeMode == post::RangeMode::Auto) {
            chainScopes.push_back("range/auto");
            if (add("range", {"range/auto"}, post::autoRangeMinimumBytes(shape)))
                chainBytes += post::autoRangeMinimumBytes(shape);
        }
        add("histogram", {histogramScope}, post::histogramMinimumBytes(shape));
        addChildren("histogram", histogramScope);
        chainBytes += post::histogramMinimumBytes(shape);
        if (!builtInCdf) {
            chainScopes.push_back(scanScope);
            add("scan", {scanScope}, post::scanMinimumBytes(shape));
            addChildren("scan", scanScope);
            chainBytes += post::scanMinimumBytes(shape);
        }
        if (add("local-adaptation", {"local-adaptation/cuda-sat"}, 0))
            chainScopes.push_back("local-adaptation/cuda-sat");
        const std::uint64_t curveBytes = pipeline.toneOperator().curveMinimumBytes(shape);
        add("curve", {tonemap + "/curve"}, curveBytes);
        addChildren("curve", tonemap + "/curve");
        add("apply", {tonemap + "/apply"}, post::applyMinimumBytes(shape));
        chainBytes += curveBytes + post::applyMinimumBytes(shape);
        add("chain", chainScopes, chainBytes);
        const double frameUs = frames.empty() ? 0.0 : wallMs * 1e3 / double(mOptions.frames);
        rows.push_back({"frame", "wall-clock", frameUs, sceneBytes + chainBytes});

        report(size, got.spec.binCount, op, path, got, builtInCdf, rows, frames.size());
    }

    void report(glm::ivec2 size,
                unsigned bins,
                const std::string& op,
                const Path& path,
                const post::PipelineSettings& got,
                bool builtInCdf,
                const std::vector<StageRow>& rows,
                std::size_t frameCount)
    {
        const double bandwidth = mCopy.bytesPerSecond();
        const std::string sizeText = util::format("{}x{}", size.x, size.y);
        const std::string scanText = builtInCdf ? "built-in" : got.scanMethod;
        std::printf("\n### %s, %u bins, %s, %s path (histogram %s, scan %s), %zu frames\n\n", sizeText.c_str(), bins,
                    op.c_str(), path.kind.c_str(), got.histogramMethod.c_str(), scanText.c_str(), frameCount);
        std::printf("| stage | timer | median us | MB moved | floor us | time / floor |\n");
        std::printf("|---|---|---:|---:|---:|---:|\n");
        for (const StageRow& row : rows) {
            const double floorUs = row.bytes && bandwidth > 0.0 ? double(row.bytes) / bandwidth * 1e6 : 0.0;
            std::string floorText = "-", ratioText = "-", mbText = "-";
            if (floorUs > 0.0) {
                mbText = fixed(double(row.bytes) * 1e-6, 2);
                floorText = fixed(floorUs, 2);
                ratioText = fixed(row.medianUs / floorUs, 2);
            }
            std::printf("| %s | %s | %.2f | %s | %s | %s |\n", row.stage.c_str(), row.source.c_str(), row.medianUs,
                        mbText.c_str(), floorText.c_str(), ratioText.c_str());
            if (row.stage == "chain")
                addChartPoint(sizeText, op, path, got.histogramMethod + " + " + scanText, bins, row);
            mCsv << sizeText << ',' << bins << ',' << op << ',' << path.kind << ',' << got.histogramMethod << ','
                 << scanText << ',' << row.stage << ',' << row.source << ',' << fixed(row.medianUs, 3) << ',';
            if (floorUs > 0.0)
                mCsv << row.bytes << ',' << significant(floorUs) << ',' << significant(row.medianUs / floorUs);
            else
                mCsv << ",,";
            mCsv << ',' << fixed(bandwidth * 1e-9, 2) << ',' << frameCount << '\n';
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
    CopyBandwidth mCopy;
    std::ostringstream mCsv;
    std::set<std::string> mSkipped;
    util::ChartData mChart;
    bool mSeveralOperators = false;
    std::string mGlPath;  ///< the default GL methods, "histogram + scan"
    bool mCpuFallback = false;
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

AppOptions benchAppOptions(const CommonOptions& common, const BenchOptions& options)
{
    AppOptions app;
    app.headless = true;
    app.size = options.sizes.front();
    app.frames = 0;
    app.vsync = false;
    app.dataDir = common.dataDir;
    app.range = options.range;
    app.settingsFile = options.settingsFile;
    app.settingAssignments = options.settingAssignments;
    return app;
}

int runBenchPipeline(const CommonOptions& common, const BenchOptions& options)
{
    try {
        validate(options);
        PipelineBench bench(common, options);
        bench.printHeader();
        bench.run();
        if (options.csv) {
            util::writeFileAtomically(*options.csv, bench.csv());
            std::printf("\nwrote %s\n", options.csv->string().c_str());
        }
        if (options.chart) {
            util::writeFileAtomically(*options.chart, util::renderSvgChart(bench.chart()));
            std::printf("wrote %s\n", options.chart->string().c_str());
        }
        return 0;
    } catch (const std::exception& error) {
        std::cerr << kPrefix << error.what() << "\n";
        return 1;
    }
}

int runBenchCommand(const CommonOptions& common, const BenchOptions& options)
{
    if (options.suite == "pipeline")
        return runBenchPipeline(common, options);
    if (options.suite == "flicker")
        return runBenchFlicker(common, options);
    return runCudaBenchSuites(common, options);
}

}  // namespace app
