#include "compare/CompareMethods.h"

#include "gl/Query.h"
#include "post/AutoRange.h"
#include "post/histogram/HistogramMethod.h"
#include "post/scan/ScanMethod.h"
#include "post/tonemap/ToneOperator.h"
#include "profiling/Profiler.h"
#include "reference/Histogram.h"
#include "util/Log.h"
#include "util/Stats.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iomanip>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <thread>

namespace app {

namespace {

constexpr std::string_view kCurveReferenceMethod = "compute-shared-atomic";

ref::OutOfRange toReference(post::OutOfRange policy)
{
    return policy == post::OutOfRange::Separate ? ref::OutOfRange::Separate : ref::OutOfRange::Clamp;
}

/// The image's pixels (RGBA float), cropped to the image size when the texture is larger.
std::vector<float> readPixels(const post::ImageInput& image)
{
    std::vector<float> all = image.texture.readRgbaFloat();
    const glm::ivec2 textureSize = image.texture.size();
    if (textureSize == image.size)
        return all;
    std::vector<float> cropped(std::size_t(image.size.x) * std::size_t(image.size.y) * 4u);
    for (int y = 0; y < image.size.y; ++y)
        std::copy_n(all.begin() + std::ptrdiff_t((std::size_t(y) * std::size_t(textureSize.x)) * 4u),
                    std::size_t(image.size.x) * 4u,
                    cropped.begin() + std::ptrdiff_t(std::size_t(y) * image.size.x * 4u));
    return cropped;
}

struct Reference
{
    ref::Histogram histogram;
    std::vector<std::uint32_t> nearEdges;
};

/// The tone curve (or, without an operator, the normalised CDF) derived from a histogram buffer.
class CurveProbe
{
public:
    explicit CurveProbe(const post::GpuCaps& caps)
        : mCdf("compare/cdf", hd::kMaxHistogramBins * sizeof(std::uint32_t)),
          mCurve("compare/curve", hd::kCurveBufferWords * sizeof(float))
    {
        const post::PipelineSettings defaults;
        mOperator = post::createToneOperator(defaults.toneOperator);
        mScan = post::createScanMethod(defaults.scanMethod);
        if (mScan && !mScan->availability(caps).available)
            mScan.reset();
        if (mOperator && mScan)
            mMeasure = "tone curve of '" + defaults.toneOperator + "' (max |Ld - Ld_cpu| over the LUT)";
        else
            mMeasure = "normalised CDF (tone operator '" + defaults.toneOperator + "' or scan '" + defaults.scanMethod +
                       "' not registered)";
    }

    const std::string& measure() const { return mMeasure; }

    /// LUT values of the curve built from `histogram`, or the normalised CDF when there is no operator.
    std::vector<double> curveOf(post::PassContext& ctx,
                                const post::ImageInput& image,
                                const gl::Buffer& histogram,
                                const gl::Buffer& params,
                                const post::HistogramSpec& spec,
                                post::HistogramMethod& method)
    {
        const std::uint32_t bins = spec.binCount;
        if (!mOperator || !mScan) {
            const auto words = histogram.readAll<std::uint32_t>(bins);
            std::vector<double> cdf(bins, 0.0);
            double sum = 0.0;
            for (std::uint32_t i = 0; i < bins; ++i)
                cdf[i] = (sum += words[i]);
            for (double& value : cdf)
                value = sum > 0.0 ? value / sum : 0.0;
            return cdf;
        }
        mScan->inclusiveScan(ctx, histogram, mCdf, bins);
        mOperator->resetState();
        post::ToneInputs inputs{image, image, histogram, mCdf, params, spec, 1.0 / 60.0, 60.0f, method, mScan.get()};
        mOperator->computeCurve(ctx, inputs, mCurve);
        const auto curve = mCurve.readAll<float>(hd::kCurveBufferWords);
        if (curve[hd::kCurveMode] == hd::kCurveModeLinearScale)
            return {double(curve[hd::kCurveScale])};
        const int samples = std::clamp(int(curve[hd::kCurveSampleCount]), 1, int(hd::kMaxCurveSamples));
        std::vector<double> values(static_cast<std::size_t>(samples));
        for (int i = 0; i < samples; ++i)
            values[std::size_t(i)] = curve[hd::kCurveHeaderWords + std::size_t(i)];
        return values;
    }

private:
    std::unique_ptr<post::ToneOperator> mOperator;
    std::unique_ptr<post::ScanMethod> mScan;
    gl::Buffer mCdf;
    gl::Buffer mCurve;
    std::string mMeasure;
};

/// A small relative difference as text, 2 significant digits ("2.2e-06").
std::string formatRelative(double value)
{
    std::ostringstream out;
    out << std::setprecision(2) << value;
    return out.str();
}

double maxDifference(const std::vector<double>& a, const std::vector<double>& b)
{
    if (a.size() != b.size())
        return std::numeric_limits<double>::infinity();
    double worst = 0.0;
    for (std::size_t i = 0; i < a.size(); ++i)
        worst = std::max(worst, std::abs(a[i] - b[i]));
    return worst;
}

/// K builds of `method`, timed (timeRepeatedly); the histogram is left in `histogram`.
void timeBuilds(post::PassContext& ctx,
                post::HistogramMethod& method,
                const post::ImageInput& image,
                const post::HistogramSpec& spec,
                const post::HistogramTargets& targets,
                unsigned repeat,
                CompareRow& row)
{
    method.build(ctx, image, spec, targets);  // warm-up: shader compilation, allocations, first readback
    RepeatedTimes times = timeRepeatedly(ctx, method.timerBackend(), util::format("compare/{}/time", method.id()),
                                         repeat, [&] { method.build(ctx, image, spec, targets); });
    row.buildMs = std::move(times.ms);
    row.gpuTimer = std::string_view(times.source) != "cpu_wall_glfinish";
    if (!row.buildMs.empty()) {
        util::Summary summary = util::summarize(row.buildMs);
        row.medianMs = summary.median;
        row.minMs = summary.min;
        row.maxMs = summary.max;
    }
}

}  // namespace

RepeatedTimes timeRepeatedly(const post::PassContext& ctx,
                             profiling::TimerBackend* timer,
                             std::string_view label,
                             unsigned repeat,
                             const std::function<void()>& work)
{
    RepeatedTimes times;
    if (timer) {
        // CUDA methods: CUDA events on their stream (GL timer queries do not see CUDA work).
        times.source = "cuda_events";
        for (unsigned k = 0; k < repeat; ++k) {
            const int token = timer->begin();
            work();
            timer->end(token);
            std::optional<double> ms;
            for (int attempt = 0; attempt < 100000 && !ms; ++attempt) {
                ms = timer->tryElapsedMs(token);
                if (!ms)
                    std::this_thread::sleep_for(std::chrono::microseconds(50));
            }
            timer->release(token);
            if (ms)
                times.ms.push_back(*ms);
        }
    } else if (ctx.caps.glTimersUseful) {
        times.source = "gl_time_elapsed";
        std::vector<gl::Query> queries;
        for (unsigned k = 0; k < repeat; ++k) {
            queries.emplace_back(util::format("{}[{}]", label, k), GL_TIME_ELAPSED);
            queries.back().begin();
            work();
            queries.back().end();
        }
        glFinish();
        for (const gl::Query& query : queries)
            times.ms.push_back(double(query.waitResult()) * 1e-6);
    } else {
        times.source = "cpu_wall_glfinish";
        for (unsigned k = 0; k < repeat; ++k) {
            glFinish();
            const auto start = std::chrono::steady_clock::now();
            work();
            glFinish();
            const auto elapsed = std::chrono::steady_clock::now() - start;
            times.ms.push_back(std::chrono::duration<double, std::milli>(elapsed).count());
        }
    }
    return times;
}

CompareReport compareMethods(post::PassContext& ctx, const post::ImageInput& image, const CompareSettings& settings)
{
    CompareReport report;
    report.size = image.size;
    report.bins = std::clamp(settings.bins, 1u, hd::kMaxHistogramBins);
    report.outOfRange = settings.outOfRange;
    report.repeat = std::max(settings.repeat, 1u);
    report.renderer = ctx.caps.gl.renderer;
    if (image.size.x <= 0 || image.size.y <= 0)
        throw std::invalid_argument("compare: the image has no pixels");

    const std::vector<float> pixels = readPixels(image);
    // A pre-exposed frame (post::ImageInput::preExposure): the GPU and the CPU reference both bin
    // the stored texels with the weights times 2^-k, which is the scene's own luminance.
    post::LuminanceUnits units;
    units.preExposure = image.preExposure;
    const hd::LuminanceWeights weights = units.effectiveWeights();
    if (settings.range) {
        report.logMin = settings.range->first;
        report.logMax = settings.range->second;
    } else if (auto range = ref::autoRange(pixels.data(), image.size.x, image.size.y, weights)) {
        report.logMin = range->logMin;
        report.logMax = std::max(range->logMax, range->logMin + post::AutoRange::kMinimumSpan);
    } else {
        report.logMin = -10.0f;
        report.logMax = 20.0f;
    }

    gl::Buffer params = post::createHistogramParamsBuffer("compare/params");
    gl::Buffer histogram("compare/histogram", hd::kHistogramBufferWords * sizeof(std::uint32_t));
    gl::Buffer cumulative("compare/cumulative", hd::kMaxHistogramBins * sizeof(std::uint32_t));
    gl::Buffer cpuHistogram("compare/cpu-histogram", hd::kHistogramBufferWords * sizeof(std::uint32_t));
    CurveProbe curves(ctx.caps);
    report.curveMeasure = curves.measure();

    std::map<std::uint32_t, Reference> references;
    std::map<std::uint32_t, std::vector<double>> cpuCurves;
    std::unique_ptr<post::HistogramMethod> curveMethod = post::createHistogramMethod(kCurveReferenceMethod);
    auto referenceFor = [&](std::uint32_t bins) -> const Reference& {
        auto found = references.find(bins);
        if (found != references.end())
            return found->second;
        Reference entry;
        entry.histogram = ref::buildHistogram(pixels.data(), image.size.x, image.size.y, report.logMin, report.logMax,
                                              bins, toReference(settings.outOfRange), weights);
        entry.nearEdges = ref::countNearEdges(pixels.data(), image.size.x, image.size.y, report.logMin, report.logMax,
                                              bins, ref::gpuBinTolerance(report.logMin, report.logMax, bins), weights);
        return references.emplace(bins, std::move(entry)).first->second;
    };

    gl::Texture frameBackup;  // the frame before a fused method's render
    auto restoreFrame = [&] {
        if (!frameBackup.valid())
            return;
        const glm::ivec2 textureSize = frameBackup.size();
        glCopyImageSubData(frameBackup.id(), GL_TEXTURE_2D, 0, 0, 0, 0, image.texture.id(), GL_TEXTURE_2D, 0, 0, 0, 0,
                           textureSize.x, textureSize.y, 1);
        glMemoryBarrier(GL_ALL_BARRIER_BITS);
        frameBackup = gl::Texture();
    };

    for (const post::HistogramMethodEntry& entry : post::histogramMethodRegistry()) {
        if (!settings.onlyMethods.empty() && std::find(settings.onlyMethods.begin(), settings.onlyMethods.end(),
                                                       std::string(entry.id)) == settings.onlyMethods.end())
            continue;
        std::unique_ptr<post::HistogramMethod> method = entry.create();
        CompareRow& row = report.rows.emplace_back();
        row.id = std::string(method->id());
        row.label = std::string(method->label());
        row.backend = std::string(post::toString(method->backend()));
        row.limits = method->limits();
        post::Availability availability = method->availability(ctx.caps);
        if (!availability.available) {
            row.available = false;
            row.reason = availability.reason;
            continue;
        }
        post::FusedHistogramOutputs* fused = method->fusedOutputs();
        if (method->needsFusedProducer() && (!fused || !settings.renderFused)) {
            row.available = false;
            row.reason = std::string(post::kNeedsFusedProducer);
            continue;
        }
        if (post::ReadbackLatency* readback = method->readbackLatency())
            readback->setSynchronous(true);  // compare the frame's own histogram, not one from frames ago
        row.bins = std::min(report.bins, method->maxBins(ctx.caps));
        post::HistogramSpec spec{row.bins, settings.outOfRange};
        spec.luminance = weights;
        spec.cdPerUnit = float(units.cdPerUnit());
        spec.storedScale = units.storedScale();
        post::writeHistogramParams(params, report.logMin, report.logMax, spec, image.size);
        post::HistogramTargets targets{histogram, params, method->producesCumulative() ? &cumulative : nullptr};
        try {
            std::optional<Reference> storedFrame;  // the fused method's: the frame as its own render stored it
            double rerenderDifference = 0.0;       // its largest relative difference from the first render
            if (fused) {
                // The render rewrites the frame (rounding it as it stores it): the other methods get it back.
                const glm::ivec2 textureSize = image.texture.size();
                frameBackup = gl::Texture("compare/frame-backup", image.texture.format(), textureSize);
                glCopyImageSubData(image.texture.id(), GL_TEXTURE_2D, 0, 0, 0, 0, frameBackup.id(), GL_TEXTURE_2D, 0, 0,
                                   0, 0, textureSize.x, textureSize.y, 1);
                post::FusedHistogramTarget& target = fused->prepare(params, image.size, nullptr);
                settings.renderFused(target);
                if (!target.produced)
                    throw std::runtime_error("the frame's producer did not bin it");
                const std::vector<float> stored = readPixels(image);
                if (stored != pixels) {
                    for (std::size_t i = 0; i < stored.size(); ++i)
                        if (stored[i] != pixels[i] && std::isfinite(pixels[i]) && pixels[i] != 0.0f)
                            rerenderDifference =
                                std::max(rerenderDifference, std::abs(double(stored[i]) / double(pixels[i]) - 1.0));
                    Reference entry;
                    entry.histogram =
                        ref::buildHistogram(stored.data(), image.size.x, image.size.y, report.logMin, report.logMax,
                                            row.bins, toReference(settings.outOfRange), weights);
                    entry.nearEdges = ref::countNearEdges(
                        stored.data(), image.size.x, image.size.y, report.logMin, report.logMax, row.bins,
                        ref::gpuBinTolerance(report.logMin, report.logMax, row.bins), weights);
                    storedFrame = std::move(entry);
                }
            }
            timeBuilds(ctx, *method, image, spec, targets, report.repeat, row);
            if (fused) {
                fused->endFrame();
                restoreFrame();
            }
            const auto words = histogram.readAll<std::uint32_t>(hd::kHistogramBufferWords);
            const Reference& reference = storedFrame ? *storedFrame : referenceFor(row.bins);
            row.histogram.assign(words.begin(), words.begin() + row.bins);
            row.countersCompared = method->fillsCounters();
            std::array<std::uint32_t, hd::kCounterCount> counters{};
            for (std::size_t i = 0; i < hd::kCounterCount; ++i)
                counters[i] = row.countersCompared ? words[hd::kHistogramCountersOffset + i]
                                                   : std::uint32_t(reference.histogram.counters[i]);
            const ref::HistogramComparison comparison =
                ref::compareHistograms(row.histogram, counters.data(), reference.histogram, reference.nearEdges);
            row.gpuTotal = comparison.gpuTotal;
            row.cpuTotal = comparison.cpuTotal;
            row.maxBinDifference = comparison.maxBinDifference;
            row.l1Difference = comparison.l1Difference;
            row.countersEqual = comparison.countersEqual;
            row.onlyNeighbourMoves = comparison.onlyNeighbourMoves;
            row.status = method->status();
            if (fused)
                row.status +=
                    "; time: the finish only" +
                    (storedFrame
                         ? "; checked on the frame it binned (its shader variant's frame differs from the first "
                           "render by up to " +
                               formatRelative(rerenderDifference) + " relative)"
                         : std::string());

            if (!cpuCurves.count(row.bins)) {
                std::vector<std::uint32_t> upload(hd::kHistogramBufferWords, 0u);
                std::copy(reference.histogram.bins.begin(), reference.histogram.bins.end(), upload.begin());
                for (std::size_t i = 0; i < hd::kCounterCount; ++i)
                    upload[hd::kHistogramCountersOffset + i] = std::uint32_t(reference.histogram.counters[i]);
                cpuHistogram.update(std::span<const std::uint32_t>(upload));
                cpuCurves[row.bins] =
                    curves.curveOf(ctx, image, cpuHistogram, params, spec, curveMethod ? *curveMethod : *method);
            }
            row.curveDifference =
                maxDifference(curves.curveOf(ctx, image, histogram, params, spec, *method), cpuCurves[row.bins]);
        } catch (const std::exception& error) {
            row.failed = true;
            row.reason = error.what();
            restoreFrame();
        }
    }
    report.cpuHistogram = referenceFor(report.bins).histogram.bins;
    return report;
}

CompareReport compareMethods(gl::ShaderLibrary& shaders,
                             const post::GpuCaps& caps,
                             const post::ImageInput& hdr,
                             const post::PipelineSettings& settings,
                             unsigned repeat,
                             std::function<void(post::FusedHistogramTarget& target)> renderFused)
{
    const glm::ivec2 size = hdr.size;
    profiling::Profiler profiler(caps.glTimersUseful);
    post::PassContext ctx{shaders, profiler, caps, 0};
    CompareSettings compare;
    compare.bins = settings.spec.binCount;
    compare.repeat = repeat;
    compare.outOfRange = settings.spec.outOfRange;
    if (settings.rangeMode == post::RangeMode::Manual)
        compare.range = std::make_pair(settings.logMin, settings.logMax);
    compare.renderFused = std::move(renderFused);
    CompareReport report = compareMethods(ctx, hdr, compare);
    report.source = util::format("current frame {}x{}", size.x, size.y);
    return report;
}

std::string formatCompareMs(double ms)
{
    std::ostringstream out;
    out << std::fixed << std::setprecision(ms < 10.0 ? 3 : 1) << ms;
    return out.str();
}

std::string csvField(const std::string& text)
{
    if (text.find_first_of(",\"\n") == std::string::npos)
        return text;
    std::string quoted = "\"";
    for (char c : text)
        quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    return quoted + "\"";
}

namespace {

std::string formatDifference(const std::optional<double>& value)
{
    if (!value)
        return "-";
    std::ostringstream out;
    out << std::setprecision(3) << *value;
    return out.str();
}

std::string verdict(const CompareRow& row)
{
    if (row.exact())
        return "exact";
    if (row.gpuTotal == row.cpuTotal && row.countersEqual && row.onlyNeighbourMoves)
        return "edge moves only";
    return "DIFFERENT";
}

}  // namespace

std::string formatCompareTable(const CompareReport& report)
{
    std::ostringstream out;
    out << "hdrlab compare: " << report.source << ", " << report.size.x << "x" << report.size.y << ", " << report.bins
        << " bins over log2 L [" << report.logMin << ", " << report.logMax << "], out-of-range "
        << (report.outOfRange == post::OutOfRange::Separate ? "separate" : "clamp") << ", " << report.repeat
        << " builds per method, " << report.renderer << "\n";
    bool anyCpuTime = false;
    out << std::left << std::setw(24) << "method" << std::right << std::setw(6) << "bins" << std::setw(11)
        << "median ms" << std::setw(10) << "min ms" << std::setw(10) << "max ms" << std::setw(22) << "total gpu/cpu"
        << std::setw(9) << "max bin" << std::setw(10) << "L1" << std::setw(11) << "curve"
        << "  result\n";
    for (const CompareRow& row : report.rows) {
        out << std::left << std::setw(24) << row.id << std::right;
        if (!row.available || row.failed) {
            out << "  " << (row.failed ? "FAILED: " : "unavailable: ") << row.reason << "\n";
            continue;
        }
        anyCpuTime = anyCpuTime || !row.gpuTimer;
        std::string mark = row.gpuTimer ? "" : "*";
        out << std::setw(6) << row.bins << std::setw(11) << formatCompareMs(row.medianMs) + mark << std::setw(10)
            << formatCompareMs(row.minMs) + mark << std::setw(10) << formatCompareMs(row.maxMs) + mark << std::setw(22)
            << util::format("{}/{}", row.gpuTotal, row.cpuTotal) << std::setw(9) << row.maxBinDifference
            << std::setw(10) << row.l1Difference << std::setw(11) << formatDifference(row.curveDifference) << "  "
            << verdict(row) << (row.countersCompared ? "" : " (no counters)");
        if (!row.status.empty())
            out << "; " << row.status;
        out << "\n";
    }
    if (anyCpuTime)
        out << "* CPU wall time around glFinish: GL timer queries measure nothing on this renderer\n";
    out << "curve: " << report.curveMeasure << "\n";
    return out.str();
}

std::string formatCompareCsv(const CompareReport& report, bool header)
{
    std::ostringstream out;
    if (header)
        out << "method,label,backend,available,reason,bins,median_ms,min_ms,max_ms,time_source,gpu_total,cpu_total,"
               "max_bin_difference,l1_difference,counters_compared,counters_equal,only_neighbour_moves,curve_"
               "difference,"
               "curve_measure,width,height,log_min,log_max,status\n";
    out.precision(9);
    for (const CompareRow& row : report.rows) {
        const bool ran = row.available && !row.failed;
        out << row.id << "," << csvField(row.label) << "," << row.backend << "," << (row.available ? 1 : 0) << ","
            << csvField(row.failed ? "FAILED: " + row.reason : row.reason) << "," << row.bins << ",";
        if (ran)
            out << row.medianMs << "," << row.minMs << "," << row.maxMs << ","
                << (row.gpuTimer ? "gl_time_elapsed" : "cpu_wall_glfinish") << "," << row.gpuTotal << ","
                << row.cpuTotal << "," << row.maxBinDifference << "," << row.l1Difference << ","
                << (row.countersCompared ? 1 : 0) << "," << (row.countersEqual ? 1 : 0) << ","
                << (row.onlyNeighbourMoves ? 1 : 0) << "," << formatDifference(row.curveDifference) << ",";
        else
            out << ",,,,,,,,,,,,";
        out << csvField(report.curveMeasure) << "," << report.size.x << "," << report.size.y << "," << report.logMin
            << "," << report.logMax << "," << csvField(row.status) << "\n";
    }
    return out.str();
}

util::ChartData compareTimeChart(const std::vector<CompareReport>& reports)
{
    util::ChartData chart;
    bool cpuTimes = false;
    std::map<std::string, std::size_t> seriesOf;  // method id -> index, in the order first seen
    std::set<std::string> notRun;                 // unavailable or failed at every bin count
    for (const CompareReport& report : reports)
        for (const CompareRow& row : report.rows) {
            if (!row.available || row.failed || row.buildMs.empty()) {
                notRun.insert(row.id);
                continue;
            }
            auto [found, added] = seriesOf.emplace(row.id, chart.series.size());
            if (added)
                chart.series.push_back({row.id, {}});
            cpuTimes = cpuTimes || !row.gpuTimer;
            chart.series[found->second].points.push_back({double(row.bins), row.medianMs});
        }
    for (const auto& [id, index] : seriesOf)
        notRun.erase(id);
    if (!reports.empty()) {
        const CompareReport& first = reports.front();
        chart.title = util::format("hdrlab compare: {}, {}x{}", first.source, first.size.x, first.size.y);
        chart.note = util::format("{} builds per method, median; {}", first.repeat, first.renderer);
    }
    chart.xLabel = "histogram bins";
    chart.yLabel = "median build time (ms)";
    if (cpuTimes)
        chart.note += "; CPU wall time around glFinish (GL timer queries measure nothing on this renderer)";
    if (!notRun.empty())
        chart.note += util::format("; {} more method{} unavailable or failed (see the table)", notRun.size(),
                                   notRun.size() == 1 ? "" : "s");
    return chart;
}

void addToSweep(std::vector<CompareReport>& sweep, CompareReport latest)
{
    std::erase_if(sweep, [&](const CompareReport& earlier) {
        return earlier.source != latest.source || earlier.size != latest.size || earlier.renderer != latest.renderer ||
               earlier.outOfRange != latest.outOfRange || earlier.bins == latest.bins;
    });
    sweep.push_back(std::move(latest));
}

}  // namespace app
