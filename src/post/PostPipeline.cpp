#include "post/PostPipeline.h"

#include "gl/Debug.h"
#include "gl/ExternalObjects.h"
#include "post/AutoRange.h"
#include "post/Downsample.h"
#include "post/HistogramReadback.h"
#include "post/LocalAdaptationSource.h"
#include "post/TonemapApply.h"
#include "post/histogram/HistogramFusedLighting.h"
#include "post/tonemap/MeteringMask.h"
#include "post/tonemap/ToneEqualize.h"
#include "post/tonemap/ToneExposure.h"
#include "post/tonemap/TonePercentile.h"
#include "post/tonemap/ToneShaders.h"
#include "post/tonemap/ToneWard.h"
#include "profiling/Profiler.h"
#include "reference/Histogram.h"
#include "reference/Image.h"
#include "reference/Metering.h"
#include "reference/Scan.h"
#include "reference/TonePercentileRef.h"
#include "reference/ToneReference.h"
#include "reference/ToneWardExact.h"
#include "util/Log.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <numbers>
#include <span>
#include <sstream>
#include <stdexcept>

namespace post {

namespace {

/// Window half-size of the local-mean view when no operator asks for local adaptation.
constexpr int kLocalMeanViewRadius = 48;

std::unique_ptr<ToneOperator> createToneOperatorOrFallback(const std::string& wanted)
{
    if (auto op = createToneOperator(wanted))
        return op;
    return toneOperatorRegistry().front().create();  // the registry is never empty
}

/// Ward's frame fit against its serial CPU model (reference/ToneWardExact), bit for bit: the curve
/// words and the fit's state. nullopt when Ward did not run a frame fit; "" when every word is equal,
/// else the first difference.
std::optional<std::string> wardFrameFitCheck(const ToneOperator& op,
                                             const HistogramMethod& method,
                                             const std::vector<float>& curve)
{
    const auto* ward = dynamic_cast<const ToneWard*>(&op);
    if (!ward || ward->pcondActive() || ward->hasFedHistogram() || !ward->fovealImage())
        return std::nullopt;
    using namespace ward_state;
    const post::WardSettings& s = ward->settings();
    const auto params = ward->paramsBuffer().readAll<std::uint32_t>(hd::kHistogramParamsWords);
    const std::uint32_t n = std::clamp(params[hd::kParamBinCount], 2u, kWardMaxBins);
    const hd::LuminanceWeights weights{std::bit_cast<float>(params[hd::kParamLumaR]),
                                       std::bit_cast<float>(params[hd::kParamLumaG]),
                                       std::bit_cast<float>(params[hd::kParamLumaB])};
    const auto state = ward->stateBuffer().readAll<float>(kWords);
    const auto bins = ward->histogramBuffer().readAll<std::uint32_t>(n);
    ref::WardExactFit expected;
    if (!s.histogramBySelectedMethod || method.exactBinning()) {  // the same bins either way
        const glm::ivec2 grid = ward->fovealImage().size();
        expected = ref::wardFrameFitExact(ward->fovealImage().readRgbaFloat(), grid.x, grid.y, s, n, weights,
                                          kWardCurveSamples);
    } else {  // a method that may move samples between bins: the ceiling stage on its bins
        ref::WardExactRange range;
        range.bwmin = state[kBwmin];
        range.bwmax = state[kBwmax];
        range.bwavg = state[kBwavg];
        range.samples = state[kSamples];
        range.valid = state[kRangeValid] != 0.0f;
        range.duplicated = state[kDuplicated] != 0.0f;
        expected = ref::wardCeilingFitExact(bins, range, s, kWardCurveSamples);
    }
    const auto differs = [](float a, float b) {
        return std::bit_cast<std::uint32_t>(a) != std::bit_cast<std::uint32_t>(b);
    };
    const std::pair<const char*, std::pair<float, float>> words[] = {
        {"outcome", {state[kOutcome], float(expected.outcome)}},
        {"passes", {state[kPasses], float(expected.passes)}},
        {"bwmin", {state[kBwmin], expected.range.bwmin}},
        {"bwmax", {state[kBwmax], expected.range.bwmax}},
        {"bwavg", {state[kBwavg], expected.range.bwavg}},
        {"final total", {state[kFinalTotal], expected.finalTotal}},
        {"linear scale", {state[kLinearScale], expected.linearScale}},
        {"curve log min", {curve[hd::kCurveLogMin], expected.curveLogMin}},
        {"curve log max", {curve[hd::kCurveLogMax], expected.curveLogMax}},
        {"curve scale", {curve[hd::kCurveScale], expected.curveScale}},
    };
    for (const auto& [name, pair] : words)
        if (differs(pair.first, pair.second))
            return util::format("{} {} vs {}", name, pair.first, pair.second);
    if (bins != expected.bins)
        return std::string("histogram");
    for (std::size_t i = 0; i < expected.curve.size(); ++i)
        if (differs(curve[hd::kCurveHeaderWords + i], expected.curve[i]))
            return util::format("LUT sample {}: {} vs {}", i, curve[hd::kCurveHeaderWords + i], expected.curve[i]);
    return std::string();
}

/// The percentile operator's metering: the GPU's target exposure against the CPU reference's, in EV.
std::optional<std::pair<double, double>> percentileTargetCheck(const ToneOperator& op,
                                                               const std::vector<std::uint32_t>& bins,
                                                               float logMin,
                                                               float logMax)
{
    auto* percentile = dynamic_cast<const TonePercentile*>(&op);
    if (!percentile)
        return std::nullopt;
    const std::vector<float> state = percentile->stateBuffer().readAll<float>(percentile_state::kWords);
    // With a metering mask the meter read the weighted CDF (its own CPU reference: ref::weightedHistogram).
    const std::vector<std::uint32_t> cdf = percentile->meteringCdf()
                                               ? percentile->meteringCdf()->readAll<std::uint32_t>(bins.size())
                                               : ref::inclusiveScan(bins);
    const ref::PercentileTarget expected = ref::percentileExposure(cdf, logMin, logMax, percentile->settings());
    if (!expected.valid || state[percentile_state::kValid] == 0.0f)
        return std::nullopt;
    return std::pair<double, double>(state[percentile_state::kTarget], expected.targetEv);
}

/// The percentile operator's weighted CDF against ref::weightedHistogram of the histogram image:
/// the largest difference (of hd::kMeteringCdfTotal) and what it may be; nullopt without a mask in use.
struct MeteringCheck
{
    double maxDifference = 0.0;
    double tolerance = 0.0;
};
std::optional<MeteringCheck> meteringCheck(const ToneOperator& op,
                                           const std::vector<float>& pixels,
                                           glm::ivec2 size,
                                           bool topDownRows,
                                           const gl::Texture* depth,
                                           glm::ivec2 frameSize,
                                           float logMin,
                                           float logMax,
                                           std::uint32_t bins,
                                           std::uint32_t policy,
                                           const hd::LuminanceWeights& luminance)
{
    auto* percentile = dynamic_cast<const TonePercentile*>(&op);
    if (!percentile || !percentile->meteringCdf())
        return std::nullopt;
    const MeteringSettings& m = percentile->settings().meteringMask;
    ref::MeteringScene scene;
    scene.luminance = luminance;
    scene.width = size.x;
    scene.height = size.y;
    scene.topDownRows = topDownRows;
    MeteringWeights weights;
    if (m.mask == MeteringMaskType::Texture) {
        try {
            weights = loadMeteringWeights(m.texturePath);
            scene.maskValues = weights.values.data();
            scene.maskWidth = weights.width;
            scene.maskHeight = weights.height;
        } catch (const std::exception&) {
            // the operator meters the whole frame then, as the reference does without values
        }
    }
    std::vector<float> depthValues;
    if (m.excludeSky && depth && depth->size() == frameSize) {
        depthValues.resize(std::size_t(frameSize.x) * std::size_t(frameSize.y));
        glGetTextureImage(depth->id(), 0, GL_DEPTH_COMPONENT, GL_FLOAT, GLsizei(depthValues.size() * sizeof(float)),
                          depthValues.data());
        scene.depth = depthValues.data();
        scene.depthWidth = frameSize.x;
        scene.depthHeight = frameSize.y;
    }
    const ref::WeightedHistogram cpu = ref::weightedHistogram(pixels.data(), m, scene, logMin, logMax, bins, policy);
    const std::vector<std::uint32_t> gpu = percentile->meteringCdf()->readAll<std::uint32_t>(bins);
    MeteringCheck check;
    // sqrt and pow may move a weight by one 1/65535 step (MeteringMask.h); 1 for the double division.
    std::uint64_t pixelsInBins = 0;
    for (std::uint32_t count : cpu.pixels)
        pixelsInBins += count;
    const bool exact = m.mask == MeteringMaskType::Average || m.mask == MeteringMaskType::Texture;
    check.tolerance = 1.0 + (exact || cpu.total == 0
                                 ? 0.0
                                 : std::ceil(double(hd::kMeteringCdfTotal) * double(pixelsInBins) / double(cpu.total)));
    for (std::uint32_t i = 0; i < bins; ++i)
        check.maxDifference = std::max(check.maxDifference, std::abs(double(gpu[i]) - double(cpu.cdf[i])));
    return check;
}

bool isFiniteRange(float logMin, float logMax)
{
    return std::isfinite(logMin) && std::isfinite(logMax) && logMin < logMax;
}

/// Display-value tolerance of a GPU tone curve against its CPU reference (about half an 8-bit step).
constexpr double kCurveTolerance = 2e-3;
/// EV tolerance of the GPU percentile target against the CPU reference (float vs double metering).
constexpr double kTargetToleranceEv = 1e-3;

/// Largest display difference between the GPU curve and the operator's CPU reference curve built from
/// the same histogram and settings; nullopt when the operator has no reference. The percentile
/// operator adapts over frames, so its curve is checked at the exposure the GPU holds now (its
/// metering is checked apart, by percentileTargetCheck).
std::optional<double> compareCurveWithReference(const ToneOperator& op,
                                                const std::vector<float>& gpuCurve,
                                                const std::vector<std::uint32_t>& bins,
                                                float logMin,
                                                float logMax,
                                                const std::vector<float>& frame,
                                                glm::ivec2 frameSize,
                                                const std::vector<float>& histogramImage,
                                                glm::ivec2 histogramSize,
                                                float fovYDegrees,
                                                double dtSeconds,
                                                const hd::LuminanceWeights& luminance,
                                                const LuminanceUnits& units,
                                                const std::optional<PictureInfo>& picture,
                                                bool topDownRows,
                                                std::vector<float>& topFirst)
{
    ref::CurveInputs inputs;
    inputs.luminance = luminance;
    inputs.fovYDegrees = fovYDegrees;
    inputs.dtSeconds = dtSeconds;
    inputs.bins = bins;
    inputs.logMin = logMin;
    inputs.logMax = logMax;
    inputs.rgba = frame.data();
    inputs.width = frameSize.x;
    inputs.height = frameSize.y;
    if (auto* equalize = dynamic_cast<const ToneEqualize*>(&op)) {
        inputs.equalize = equalize->settings();
        inputs.rgba = histogramImage.data();  // per-channel histograms come from the histogram image
        inputs.width = histogramSize.x;
        inputs.height = histogramSize.y;
    } else if (auto* percentile = dynamic_cast<const TonePercentile*>(&op)) {
        inputs.percentile = percentile->settings();
        const std::vector<float> state = percentile->stateBuffer().readAll<float>(percentile_state::kWords);
        if (state[percentile_state::kValid] != 0.0f) {
            inputs.previousExposureEv = state[percentile_state::kExposure];
            inputs.dtSeconds = 0.0;  // no adaptation step: the curve at the current exposure
        }
    } else if (auto* ward = dynamic_cast<const ToneWard*>(&op)) {
        inputs.ward = ward->settings();
        if (ward->hasFedHistogram())
            return std::nullopt;    // a fed histogram has no picture to compare with
        if (ward->pcondActive()) {  // pcond sampling: the reference reads the picture top row first
            ref::PcondPicture pcond;
            topFirst = frame;
            if (!topDownRows)
                for (int y = 0; y < frameSize.y; ++y)
                    std::copy_n(frame.begin() + std::ptrdiff_t(y) * frameSize.x * 4, std::size_t(frameSize.x) * 4,
                                topFirst.begin() + std::ptrdiff_t(frameSize.y - 1 - y) * frameSize.x * 4);
            pcond.rgba = topFirst.data();
            pcond.width = frameSize.x;
            pcond.height = frameSize.y;
            const PictureInfo live;
            const PictureInfo& info = picture ? *picture : live;
            pcond.weights = units.weights;
            pcond.efficacy = units.efficacy;
            pcond.exposure = units.storedExposure();
            pcond.pixelAspect = info.pixelAspect;
            if (picture && picture->view) {
                pcond.view = {true, picture->view->type, picture->view->horizontalDegrees,
                              picture->view->verticalDegrees};
            } else if (!picture) {
                const double degree = std::numbers::pi / 180.0;
                const double aspect = double(frameSize.x) / double(std::max(frameSize.y, 1));
                pcond.view = {true, 'v', 2.0 * std::atan(std::tan(fovYDegrees * degree / 2.0) * aspect) / degree,
                              double(fovYDegrees)};
            }
            inputs.wardPcond = pcond;
        }
    } else if (auto* exposure = dynamic_cast<const ToneExposure*>(&op)) {
        inputs.exposure = exposure->settings();
    } else {
        return std::nullopt;
    }
    const std::vector<float> expected = ref::referenceCurve(op.id(), inputs);
    if (expected.size() != gpuCurve.size())
        return std::nullopt;
    const int channels = int(gpuCurve[hd::kCurveChannels]) == 3 ? 3 : 1;
    double worst = 0.0;
    for (int c = 0; c < channels; ++c)
        worst = std::max(worst, ref::curveMaxDifference(gpuCurve, expected, c, logMin - 1.0, logMax + 1.0));
    return worst;
}

}  // namespace

struct PostPipeline::Impl
{
    Impl(gl::ShaderLibrary& shaderLibrary, profiling::Profiler& timing, const GpuCaps& gpuCaps)
        : shaders(shaderLibrary), profiler(timing), caps(gpuCaps)
    {
    }

    gl::ShaderLibrary& shaders;
    profiling::Profiler& profiler;
    const GpuCaps& caps;
    PipelineSettings settings;
    std::unique_ptr<HistogramMethod> histogram;
    std::unique_ptr<ScanMethod> scan;
    std::unique_ptr<ToneOperator> tone;
    std::string notice;
    ParkedParameters parked;                   ///< settings of the methods and operators not in use
    gl::SharedAllocator* allocator = nullptr;  ///< shared GL/CUDA storage for the CUDA-touched outputs

    gl::Buffer histogramBuffer{"post.histogram", hd::kHistogramBufferWords * sizeof(std::uint32_t)};
    gl::Buffer cdfBuffer{"post.cdf", hd::kMaxHistogramBins * sizeof(std::uint32_t)};
    gl::Buffer paramsBuffer = createHistogramParamsBuffer("post.histogram-params");
    gl::Buffer curveBuffer = createCurveBuffer("post.curve");
    gl::Buffer displayBins{"post.display-histogram", TonemapApply::kDisplayBins * sizeof(std::uint32_t)};
    gl::Texture output;
    Downsample downsample;
    AutoRange autoRange;
    TonemapApply apply;
    HistogramReadback readback;
    ViewMode viewMode = ViewMode::ToneMapped;
    bool legendStrip = false;
    FalseColour falseColour;
    gl::Texture falseColourOutput;  ///< the false-colour view, same size as output
    gl::Texture meteringOutput;     ///< the metering view, same size as output
    DisplayAntiAliasing antiAliasing;
    gl::Texture antiAliasedOutput;  ///< the anti-aliased display image, same size as output
    bool lastAntiAliased = false;   ///< the last run returned antiAliasedOutput
    MeteringMask meteringView;      ///< draws the metering view (the percentile operator's mask settings)
    const gl::Texture* sceneDepth = nullptr;
    std::optional<PictureInfo> picture;
    std::optional<FedHistogram> fed;
    bool cdfFresh = true;  ///< the CDF buffer holds this frame's CDF (false: scan in-curve, and no operator needed one)
    PixelProbe probe;
    std::vector<glm::ivec2> probePoints;  ///< from the picture's top-left
    bool topDownRows = false;
    std::optional<ProbeSnapshot> latestProbe;
    std::unique_ptr<LocalAdaptationSource> localSource;  ///< CUDA summed-area table, created on first use
    gl::Buffer localMean;                                ///< float[w*h] mean log2 L around each pixel
    std::optional<HistogramSnapshot> latest;
    bool resetRange = true;
    std::optional<image::RadianceHeader> inputRadiance;  ///< the input file's units (setInputRadiance)
    LuminanceUnits units;                                ///< resolved from it and the input.* settings
    LuminanceUnits frameUnits;  ///< `units` with the last run's frame pre-exposure (ImageInput::preExposure)

    /// Resolves the luminance definition again; a new one restarts the automatic range.
    void updateUnits();

    // The fused histogram: whether the source has a producer, what was prepared for this frame, and the
    // auto range's smoothed state (params-shaped: only the range words are used) for the next frame.
    bool fusedProducer = false;
    bool fusedPrepared = false;
    bool fusedResetFrame = false;  ///< this frame binned with the manual range after a reset
    glm::ivec2 fusedPreparedSize{0};
    int fusedPreparedPreExposure = 0;
    gl::Buffer fusedRangeState = createHistogramParamsBuffer("post.fused-auto-range");

    // What verify() needs from the last run (the caller's frame must still be alive).
    const gl::Texture* lastHdr = nullptr;
    glm::ivec2 lastHdrSize{0};
    const gl::Texture* lastHistogramInput = nullptr;
    glm::ivec2 lastHistogramInputSize{0};
    bool lastLocalMean = false;  ///< the last run's apply pass used the local mean (or showed it)
    float lastFovYDegrees = 60.0f;
    double lastDtSeconds = 1.0 / 60.0;

    std::uint32_t effectiveBins(const HistogramMethod& method,
                                const ScanMethod* scanMethod,
                                std::uint32_t wanted,
                                std::string& why) const;
};

void PostPipeline::Impl::updateUnits()
{
    LuminanceUnits next = resolveLuminanceUnits(settings.inputUnits, settings.cdPerUnit, inputRadiance);
    if (next == units)
        return;
    units = std::move(next);
    resetRange = true;
}

std::uint32_t PostPipeline::Impl::effectiveBins(const HistogramMethod& method,
                                                const ScanMethod* scanMethod,
                                                std::uint32_t wanted,
                                                std::string& why) const
{
    std::uint32_t limit = std::min(method.maxBins(caps), hd::kMaxHistogramBins);
    std::string limiter(method.id());
    if (scanMethod && !method.producesCumulative() && scanMethod->maxLength() < limit) {
        limit = scanMethod->maxLength();
        limiter = std::string(scanMethod->id());
    }
    limit = std::max(limit, 1u);
    std::uint32_t bins = std::clamp(wanted, 1u, limit);
    if (bins != wanted)
        why = util::format("{} supports {} bins; using {}", limiter, limit, bins);
    return bins;
}

PostPipeline::PostPipeline(gl::ShaderLibrary& shaders, profiling::Profiler& profiler, const GpuCaps& caps)
    : mImpl(std::make_unique<Impl>(shaders, profiler, caps))
{
    Impl& p = *mImpl;
    p.histogramBuffer.clearUint(0u);
    p.cdfBuffer.clearUint(0u);
    p.paramsBuffer.clearUint(0u);
    p.curveBuffer.clearUint(0u);
    p.displayBins.clearUint(0u);

    p.histogram = createHistogramMethod(p.settings.histogramMethod);
    if (!p.histogram || !p.histogram->availability(caps).available) {
        for (const HistogramMethodEntry& entry : histogramMethodRegistry()) {
            auto candidate = entry.create();
            if (candidate->availability(caps).available) {
                p.histogram = std::move(candidate);
                break;
            }
        }
    }
    if (!p.histogram)
        throw std::runtime_error("no histogram method is available on this GPU");
    p.settings.histogramMethod = std::string(p.histogram->id());

    p.scan = createScanMethod(p.settings.scanMethod);
    if (!p.scan || !p.scan->availability(caps).available) {
        for (const ScanMethodEntry& entry : scanMethodRegistry()) {
            auto candidate = entry.create();
            if (candidate->availability(caps).available) {
                p.scan = std::move(candidate);
                break;
            }
        }
    }
    if (!p.scan)
        throw std::runtime_error("no scan method is available on this GPU");
    p.settings.scanMethod = std::string(p.scan->id());

    p.tone = createToneOperatorOrFallback(p.settings.toneOperator);
    p.settings.toneOperator = std::string(p.tone->id());
    p.settings.spec.binCount = p.effectiveBins(*p.histogram, p.scan.get(), p.settings.spec.binCount, p.notice);
}

PostPipeline::~PostPipeline() = default;

const PipelineSettings& PostPipeline::settings() const
{
    return mImpl->settings;
}
HistogramMethod& PostPipeline::histogramMethod()
{
    return *mImpl->histogram;
}
ScanMethod* PostPipeline::scanMethod()
{
    return mImpl->histogram->producesCumulative() ? nullptr : mImpl->scan.get();
}
ToneOperator& PostPipeline::toneOperator()
{
    return *mImpl->tone;
}
const GpuCaps& PostPipeline::caps() const
{
    return mImpl->caps;
}
const std::string& PostPipeline::notice() const
{
    return mImpl->notice;
}
std::optional<HistogramSnapshot> PostPipeline::latestSnapshot() const
{
    return mImpl->latest;
}
const gl::Buffer& PostPipeline::histogramBuffer() const
{
    return mImpl->histogramBuffer;
}
const gl::Buffer& PostPipeline::cdfBuffer() const
{
    return mImpl->cdfBuffer;
}
const gl::Buffer& PostPipeline::paramsBuffer() const
{
    return mImpl->paramsBuffer;
}
const gl::Buffer& PostPipeline::curveBuffer() const
{
    return mImpl->curveBuffer;
}
const gl::Texture& PostPipeline::outputTexture() const
{
    if (mImpl->viewMode == ViewMode::Metering && mImpl->meteringOutput)
        return mImpl->meteringOutput;
    if (mImpl->viewMode == ViewMode::FalseColour && mImpl->falseColourOutput)
        return mImpl->falseColourOutput;
    return mImpl->lastAntiAliased ? mImpl->antiAliasedOutput : mImpl->output;
}
bool PostPipeline::antiAliased() const
{
    return mImpl->lastAntiAliased;
}
const gl::Texture& PostPipeline::toneMappedTexture() const
{
    return mImpl->output;
}
void PostPipeline::setViewMode(ViewMode mode, bool legendStrip)
{
    mImpl->viewMode = mode;
    mImpl->legendStrip = legendStrip;
}
ViewMode PostPipeline::viewMode() const
{
    return mImpl->viewMode;
}
void PostPipeline::setProbePoints(std::vector<glm::ivec2> points)
{
    if (points.size() > hd::kMaxProbes)
        points.resize(hd::kMaxProbes);
    mImpl->probePoints = std::move(points);
}
void PostPipeline::setSceneDepth(const gl::Texture* depth)
{
    mImpl->sceneDepth = depth;
}
void PostPipeline::setFedHistogram(std::optional<FedHistogram> histogram)
{
    mImpl->fed = std::move(histogram);
}

void PostPipeline::setPictureInfo(std::optional<PictureInfo> picture)
{
    mImpl->picture = std::move(picture);
}

const std::optional<PictureInfo>& PostPipeline::pictureInfo() const
{
    return mImpl->picture;
}

void PostPipeline::setTopDownRows(bool topDown)
{
    mImpl->topDownRows = topDown;
}
std::optional<ProbeSnapshot> PostPipeline::latestProbe() const
{
    return mImpl->latestProbe;
}
void PostPipeline::pollProbe()
{
    if (auto snapshot = mImpl->probe.poll())
        mImpl->latestProbe = std::move(*snapshot);
}

void PostPipeline::setSharedAllocator(gl::SharedAllocator* allocator)
{
    Impl& p = *mImpl;
    p.allocator = allocator;
    p.histogramBuffer =
        gl::createBuffer(allocator, "post.histogram", hd::kHistogramBufferWords * sizeof(std::uint32_t));
    p.cdfBuffer = gl::createBuffer(allocator, "post.cdf", hd::kMaxHistogramBins * sizeof(std::uint32_t));
    p.paramsBuffer =
        gl::createBuffer(allocator, "post.histogram-params", hd::kHistogramParamsWords * sizeof(std::uint32_t));
    p.histogramBuffer.clearUint(0u);
    p.cdfBuffer.clearUint(0u);
    p.paramsBuffer.clearUint(0u);
    p.localMean = gl::Buffer();
    p.downsample.setSharedAllocator(allocator);
    p.resetRange = true;
}

void PostPipeline::setFusedHistogramProducer(bool available)
{
    Impl& p = *mImpl;
    p.fusedProducer = available;
    if (available || !p.histogram->needsFusedProducer())
        return;
    const std::string fused(p.histogram->id());
    PipelineSettings wanted = p.settings;
    wanted.histogramMethod = PipelineSettings{}.histogramMethod;
    applySettings(wanted);
    p.notice = fused + " " + std::string(kNeedsFusedProducer) + "; using " + p.settings.histogramMethod;
    util::logWarning("{}", p.notice);
}

bool PostPipeline::hasFusedHistogramProducer() const
{
    return mImpl->fusedProducer;
}

Availability PostPipeline::histogramAvailability(const HistogramMethod& method) const
{
    Availability availability = method.availability(mImpl->caps);
    if (availability.available && method.needsFusedProducer() && !mImpl->fusedProducer)
        return Availability::no(std::string(kNeedsFusedProducer));
    return availability;
}

FusedHistogramTarget* PostPipeline::prepareFusedHistogram(glm::ivec2 frameSize, float fovYDegrees, int preExposure)
{
    Impl& p = *mImpl;
    p.fusedPrepared = false;
    auto* fused = dynamic_cast<HistogramFusedLighting*>(p.histogram.get());
    if (!fused || !p.fusedProducer || p.fed || frameSize.x <= 0 || frameSize.y <= 0)
        return nullptr;
    LuminanceUnits units = p.units;  // as run() bins every other method, with this frame's k
    units.preExposure = preExposure;
    HistogramSpec spec = p.settings.spec;
    spec.luminance = units.effectiveWeights();
    spec.cdPerUnit = float(units.cdPerUnit());
    spec.storedScale = units.storedScale();
    p.fusedResetFrame = false;
    if (p.settings.rangeMode == RangeMode::Manual) {
        writeHistogramParams(p.paramsBuffer, p.settings.logMin, p.settings.logMax, spec, frameSize);
    } else if (p.resetRange) {  // no smoothed range yet: this frame bins with the manual range
        writeHistogramParams(p.paramsBuffer, p.settings.logMin, p.settings.logMax, spec, frameSize);
        p.paramsBuffer.copyTo(p.fusedRangeState, 0, 0, hd::kHistogramParamsWords * sizeof(std::uint32_t));
        p.fusedResetFrame = true;
        p.resetRange = false;
    } else {  // the range smoothed up to the previous frame
        writeHistogramShape(p.paramsBuffer, spec, frameSize);
        static_assert(hd::kParamLogMax == hd::kParamLogMin + 1);
        p.fusedRangeState.copyTo(p.paramsBuffer, hd::kParamLogMin * sizeof(std::uint32_t),
                                 hd::kParamLogMin * sizeof(std::uint32_t), 2 * sizeof(std::uint32_t));
    }
    p.fusedPrepared = true;
    p.fusedPreparedSize = frameSize;
    p.fusedPreparedPreExposure = preExposure;
    return &fused->prepare(p.paramsBuffer, frameSize, p.tone->fovealTarget(frameSize, fovYDegrees));
}

ParkedParameters& PostPipeline::parkedParameters()
{
    return mImpl->parked;
}

void PostPipeline::setInputRadiance(const std::optional<image::RadianceHeader>& header)
{
    if (header == mImpl->inputRadiance)
        return;
    mImpl->inputRadiance = header;
    mImpl->updateUnits();
}

const std::optional<image::RadianceHeader>& PostPipeline::inputRadiance() const
{
    return mImpl->inputRadiance;
}

const LuminanceUnits& PostPipeline::luminanceUnits() const
{
    return mImpl->units;
}

const LuminanceUnits& PostPipeline::frameUnits() const
{
    return mImpl->frameUnits;
}

void PostPipeline::setToneOperator(std::unique_ptr<ToneOperator> op)
{
    if (!op)
        return;
    mImpl->tone = std::move(op);
    mImpl->settings.toneOperator = std::string(mImpl->tone->id());
    mImpl->profiler.resetStats();
}

bool PostPipeline::applySettings(const PipelineSettings& wanted, std::string* message)
{
    Impl& p = *mImpl;
    std::vector<std::string> refusals;
    PipelineSettings next = p.settings;
    std::unique_ptr<HistogramMethod> newHistogram;
    std::unique_ptr<ScanMethod> newScan;
    std::unique_ptr<ToneOperator> newTone;

    if (wanted.histogramMethod != p.settings.histogramMethod) {
        newHistogram = createHistogramMethod(wanted.histogramMethod);
        if (!newHistogram) {
            refusals.push_back("unknown histogram method '" + wanted.histogramMethod + "'");
        } else if (Availability a = histogramAvailability(*newHistogram); !a.available) {
            refusals.push_back("histogram method '" + wanted.histogramMethod + "' is unavailable: " + a.reason);
            newHistogram.reset();
        } else {
            next.histogramMethod = wanted.histogramMethod;
        }
    }
    if (wanted.scanMethod != p.settings.scanMethod) {
        newScan = createScanMethod(wanted.scanMethod);
        if (!newScan) {
            refusals.push_back("unknown scan method '" + wanted.scanMethod + "'");
        } else if (Availability a = newScan->availability(p.caps); !a.available) {
            refusals.push_back("scan method '" + wanted.scanMethod + "' is unavailable: " + a.reason);
            newScan.reset();
        } else {
            next.scanMethod = wanted.scanMethod;
        }
    }
    if (wanted.toneOperator != p.settings.toneOperator) {
        newTone = createToneOperator(wanted.toneOperator);
        if (!newTone)
            refusals.push_back("unknown tone operator '" + wanted.toneOperator + "'");
        else
            next.toneOperator = wanted.toneOperator;
    }
    if (wanted.spec.outOfRange == OutOfRange::Clamp || wanted.spec.outOfRange == OutOfRange::Separate)
        next.spec.outOfRange = wanted.spec.outOfRange;
    else
        refusals.push_back("unknown out-of-range policy");
    if (wanted.rangeMode == RangeMode::Manual || wanted.rangeMode == RangeMode::Auto)
        next.rangeMode = wanted.rangeMode;
    if (isFiniteRange(wanted.logMin, wanted.logMax)) {
        next.logMin = wanted.logMin;
        next.logMax = wanted.logMax;
    } else {
        refusals.push_back(util::format("invalid range {}:{} (needs finite MIN < MAX)", wanted.logMin, wanted.logMax));
    }
    if (std::isfinite(wanted.autoRangeSpeed) && wanted.autoRangeSpeed >= 0.0f)
        next.autoRangeSpeed = wanted.autoRangeSpeed;
    else
        refusals.push_back(
            util::format("invalid auto-range speed {} (needs a finite value >= 0)", wanted.autoRangeSpeed));
    if (Downsample::isValidFactor(wanted.downsample))
        next.downsample = wanted.downsample;
    else
        refusals.push_back(util::format("invalid downsample factor {} (1, 2, 4 or 8)", wanted.downsample));
    if (wanted.inputUnits == UnitsMode::Auto || wanted.inputUnits == UnitsMode::Radiance ||
        wanted.inputUnits == UnitsMode::Plain)
        next.inputUnits = wanted.inputUnits;
    else
        refusals.push_back("unknown input units");
    if (std::isfinite(wanted.cdPerUnit) && wanted.cdPerUnit >= 0.0)
        next.cdPerUnit = wanted.cdPerUnit;
    else
        refusals.push_back(util::format(
            "invalid cd/m^2 per unit {} (needs a finite value >= 0; 0: by the input's rule)", wanted.cdPerUnit));
    if (wanted.viewLocalMean && !p.caps.cudaAvailable)
        refusals.push_back("the local-mean view needs the CUDA summed-area table: " + p.caps.cudaReason);
    else
        next.viewLocalMean = wanted.viewLocalMean;
    if (wanted.antiAliasing == AntiAliasing::Off || wanted.antiAliasing == AntiAliasing::Fxaa)
        next.antiAliasing = wanted.antiAliasing;
    else
        refusals.push_back("unknown anti-aliasing mode");

    const HistogramMethod& histogramAfter = newHistogram ? *newHistogram : *p.histogram;
    const ScanMethod& scanAfter = newScan ? *newScan : *p.scan;
    std::string clampNotice;
    next.spec.binCount = p.effectiveBins(histogramAfter, &scanAfter, wanted.spec.binCount, clampNotice);
    if (histogramAfter.needsFusedProducer() && next.downsample > 1) {
        next.downsample = 1;
        clampNotice += std::string(clampNotice.empty() ? "" : "; ") + std::string(histogramAfter.id()) +
                       " bins the full frame as it is lit: downsample 1";
    }

    const bool changed = newHistogram || newScan || newTone || next.spec.binCount != p.settings.spec.binCount ||
                         next.spec.outOfRange != p.settings.spec.outOfRange || next.rangeMode != p.settings.rangeMode ||
                         next.logMin != p.settings.logMin || next.logMax != p.settings.logMax ||
                         next.autoRangeSpeed != p.settings.autoRangeSpeed || next.downsample != p.settings.downsample ||
                         next.viewLocalMean != p.settings.viewLocalMean || next.inputUnits != p.settings.inputUnits ||
                         next.cdPerUnit != p.settings.cdPerUnit || next.antiAliasing != p.settings.antiAliasing;
    if (next.rangeMode != p.settings.rangeMode || next.downsample != p.settings.downsample ||
        (newHistogram && (newHistogram->needsFusedProducer() || p.histogram->needsFusedProducer())))
        p.resetRange = true;  // (the fused method's auto range has its own state)
    // A replaced method's settings are kept and come back when it is chosen again.
    if (newHistogram)
        p.histogram = p.parked.swapIn(p.histogram, std::move(newHistogram));
    if (newScan)
        p.scan = p.parked.swapIn(p.scan, std::move(newScan));
    if (newTone)
        p.tone = p.parked.swapIn(p.tone, std::move(newTone));
    p.settings = next;
    p.updateUnits();

    std::string text;
    for (const std::string& refusal : refusals)
        text += (text.empty() ? "" : "; ") + refusal;
    if (!clampNotice.empty())
        text += (text.empty() ? "" : "; ") + clampNotice;
    if (!text.empty() || changed)
        p.notice = text;
    if (message)
        *message = text;
    if (changed)
        p.profiler.resetStats();
    return changed;
}

const gl::Texture& PostPipeline::run(const ImageInput& hdr, double dtSeconds, float fovYDegrees)
{
    Impl& p = *mImpl;
    if (hdr.size.x <= 0 || hdr.size.y <= 0)
        throw std::invalid_argument(util::format("post pipeline: empty input image ({}x{})", hdr.size.x, hdr.size.y));
    if (auto snapshot = p.readback.poll()) {
        p.latest = std::move(*snapshot);
        p.latest->markers = p.tone->markers();
    }
    pollProbe();

    PassContext ctx{p.shaders, p.profiler, p.caps, p.profiler.frameIndex()};
    if (!p.output || p.output.size() != hdr.size)
        p.output = gl::Texture("post.display", GL_RGBA8, hdr.size);
    p.lastAntiAliased = false;

    // The fused method's histogram was binned by the frame's producer with the params written before it.
    auto* fused = dynamic_cast<HistogramFusedLighting*>(p.histogram.get());
    const bool fusedFrame = fused && p.fusedPrepared && p.fusedPreparedSize == hdr.size &&
                            p.fusedPreparedPreExposure == hdr.preExposure && !p.fed;
    if (fused && p.fusedPrepared && p.fusedPreparedPreExposure != hdr.preExposure)  // weights of another 2^-k
        fused->discardFrame(
            util::format("the lighting pass binned this frame for pre-exposure k = {}, but it is "
                         "stored with k = {}: the histogram is empty",
                         p.fusedPreparedPreExposure, hdr.preExposure));
    p.fusedPrepared = false;

    if (p.settings.downsample > 1) {
        auto scope = p.profiler.scope("downsample");
        const ImageInput reduced = p.downsample.run(ctx, hdr, p.settings.downsample);
        p.lastHistogramInput = &p.downsample.texture();
        p.lastHistogramInputSize = reduced.size;
    } else {
        p.lastHistogramInput = &hdr.texture;
        p.lastHistogramInputSize = hdr.size;
    }
    const ImageInput histogramImage{*p.lastHistogramInput, p.lastHistogramInputSize, hdr.preExposure};
    p.lastHdr = &hdr.texture;
    p.lastHdrSize = hdr.size;
    p.lastFovYDegrees = fovYDegrees;
    p.lastDtSeconds = dtSeconds;

    // The frame's units: the input's definition with the frame's pre-exposure folded in, so every
    // pass (histogram, range, curves, apply, probe, views, CUDA) sees the scene's own luminance.
    p.frameUnits = p.units;
    p.frameUnits.preExposure = hdr.preExposure;
    HistogramSpec spec = p.settings.spec;
    spec.luminance = p.frameUnits.effectiveWeights();
    spec.cdPerUnit = float(p.frameUnits.cdPerUnit());
    spec.storedScale = p.frameUnits.storedScale();
    if (p.fed) {  // a histogram from a file: its range and counts, no measurement
        spec.binCount = std::uint32_t(p.fed->counts.size());
        spec.outOfRange = OutOfRange::Clamp;
        writeHistogramParams(p.paramsBuffer, p.fed->logMin, p.fed->logMax, spec, histogramImage.size);
        std::vector<std::uint32_t> words(hd::kHistogramBufferWords, 0u);
        std::copy(p.fed->counts.begin(), p.fed->counts.end(), words.begin());
        p.histogramBuffer.update(std::span<const std::uint32_t>(words));
    } else if (fusedFrame) {
        // Written by prepareFusedHistogram; the auto range's next step follows the histogram stage.
    } else if (p.settings.rangeMode == RangeMode::Manual) {
        writeHistogramParams(p.paramsBuffer, p.settings.logMin, p.settings.logMax, spec, histogramImage.size);
    } else {
        auto scope = p.profiler.scope("range/auto");
        writeHistogramShape(p.paramsBuffer, spec, histogramImage.size);
        p.autoRange.update(ctx, histogramImage, p.paramsBuffer, dtSeconds, p.settings.autoRangeSpeed, p.resetRange,
                           p.settings.logMin, p.settings.logMax);
        p.resetRange = false;
    }

    const bool builtInCdf = p.histogram->producesCumulative() && !p.fed;
    if (!p.fed) {
        auto scope = p.profiler.scope("histogram/" + std::string(p.histogram->id()), p.histogram->timerBackend());
        HistogramTargets targets{p.histogramBuffer, p.paramsBuffer, builtInCdf ? &p.cdfBuffer : nullptr};
        // One read of the frame for all metering: the operator's foveal image comes out of this pass
        // where the method can make it and the histogram reads the full frame.
        if (p.histogram->fillsFovealImage() && p.settings.downsample <= 1)
            targets.foveal = p.tone->fovealTarget(hdr.size, fovYDegrees);
        p.histogram->build(ctx, histogramImage, spec, targets);
    }
    if (fused) {
        if (fusedFrame && p.settings.rangeMode == RangeMode::Auto) {
            // The next frame's range from this frame's min/max, which the lighting pass reduced.
            auto scope = p.profiler.scope("range/auto");
            p.autoRange.updateFromBits(ctx, fused->outputs(), hd::kFusedMinBits * sizeof(std::uint32_t),
                                       p.fusedRangeState, dtSeconds, p.settings.autoRangeSpeed, p.fusedResetFrame,
                                       p.settings.logMin, p.settings.logMax);
        }
        fused->endFrame();
    }
    // Scan "in-curve": no dispatch here for an operator that scans in its curve dispatch (it fills the
    // CDF) or uses no CDF (then none is made); other operators get the method's stand-alone scan.
    const bool scanInCurve =
        !builtInCdf && p.scan->fusedIntoCurve() && (p.tone->scansInCurve() || !p.tone->usesPipelineCdf());
    p.cdfFresh = !scanInCurve;
    if (!builtInCdf && !scanInCurve) {
        auto scope = p.profiler.scope("scan/" + std::string(p.scan->id()), p.scan->timerBackend());
        p.scan->inclusiveScan(ctx, p.histogramBuffer, p.cdfBuffer, spec.binCount);
    }
    // Local adaptation (percentile's option) and its view: the CUDA summed-area table of log2 L.
    std::optional<LocalMeanInput> local;
    const int localRadius = p.tone->localAdaptationRadius();
    if ((localRadius >= 0 || p.settings.viewLocalMean) && p.caps.cudaAvailable) {
        if (!p.localSource)
            p.localSource = createLocalAdaptationSource();
        if (p.localSource) {
            const std::size_t bytes = std::size_t(hdr.size.x) * std::size_t(hdr.size.y) * sizeof(float);
            if (p.localMean.size() < bytes)
                p.localMean = gl::createBuffer(p.allocator, "post.local-mean", bytes);
            auto scope = p.profiler.scope("local-adaptation/cuda-sat", p.localSource->timerBackend());
            p.localSource->run(hdr.texture, hdr.size, p.paramsBuffer, p.localMean,
                               localRadius >= 0 ? localRadius : kLocalMeanViewRadius);
            local.emplace(LocalMeanInput{p.localMean, p.settings.viewLocalMean});
        }
    }
    p.lastLocalMean = local.has_value();
    {
        const std::string stage = "tonemap/" + std::string(p.tone->id());
        auto scope = p.profiler.scope(stage);
        ToneInputs inputs{hdr,  histogramImage, p.histogramBuffer, p.cdfBuffer,  p.paramsBuffer,
                          spec, dtSeconds,      fovYDegrees,       *p.histogram, builtInCdf ? nullptr : p.scan.get()};
        inputs.depth = p.sceneDepth;
        inputs.topDownRows = p.topDownRows;
        inputs.picture = p.picture ? &*p.picture : nullptr;
        inputs.units = &p.frameUnits;
        bool cdfWritten = false;
        if (scanInCurve && p.tone->scansInCurve()) {
            inputs.fusedCdf = &p.cdfBuffer;
            inputs.fusedCdfWritten = &cdfWritten;
        }
        {
            auto curveScope = p.profiler.scope(stage + "/curve");
            p.tone->computeCurve(ctx, inputs, p.curveBuffer);
            if (cdfWritten)
                p.cdfFresh = true;
        }
        auto applyScope = p.profiler.scope(stage + "/apply");
        p.apply.apply(ctx, hdr, p.paramsBuffer, p.curveBuffer, p.output, local ? &*local : nullptr);
    }
    {
        auto scope = p.profiler.scope("view/readback");
        p.tone->flushStateReadback();  // the operator's key value, asked for while it built the curve
        p.apply.buildDisplayHistogram(ctx, p.output, p.displayBins);
        ReadbackSources sources{p.histogramBuffer, p.paramsBuffer, p.curveBuffer, p.displayBins,
                                TonemapApply::kDisplayBins};
        p.readback.enqueue(sources, ctx.frameIndex, p.histogram->fillsCounters());
    }
    if (!p.probePoints.empty()) {
        auto scope = p.profiler.scope("view/probe");
        std::vector<glm::ivec2> texels;
        for (const glm::ivec2 point : p.probePoints)
            texels.push_back({point.x, p.topDownRows ? point.y : hdr.size.y - 1 - point.y});
        p.probe.run(ctx, hdr, p.output, p.paramsBuffer, p.curveBuffer, texels, p.topDownRows);
    }
    if (p.viewMode == ViewMode::FalseColour) {
        auto scope = p.profiler.scope("view/false-colour");
        if (!p.falseColourOutput || p.falseColourOutput.size() != hdr.size)
            p.falseColourOutput = gl::Texture("post.false-colour", GL_RGBA8, hdr.size);
        p.falseColour.run(ctx, hdr, p.paramsBuffer, p.falseColourOutput, p.legendStrip, p.topDownRows);
        return p.falseColourOutput;
    }
    if (p.viewMode == ViewMode::Metering) {
        auto scope = p.profiler.scope("view/metering");
        if (!p.meteringOutput || p.meteringOutput.size() != hdr.size)
            p.meteringOutput = gl::Texture("post.metering-view", GL_RGBA8, hdr.size);
        // Other operators meter every pixel equally: their view is the image at full weight.
        const auto* percentile = dynamic_cast<const TonePercentile*>(p.tone.get());
        const MeteringSettings mask = percentile ? percentile->settings().meteringMask : MeteringSettings{};
        const MeteringFrame frame{hdr, histogramImage, p.paramsBuffer, p.sceneDepth, p.topDownRows};
        p.meteringView.active(mask, frame);
        p.meteringView.overlay(ctx, mask, frame, p.output, p.meteringOutput);
        return p.meteringOutput;
    }
    if (p.settings.antiAliasing == AntiAliasing::Fxaa && p.sceneDepth) {
        auto scope = p.profiler.scope("display/aa");
        if (!p.antiAliasedOutput || p.antiAliasedOutput.size() != hdr.size)
            p.antiAliasedOutput = gl::Texture("post.display-aa", GL_RGBA8, hdr.size);
        p.antiAliasing.run(ctx, p.output, p.antiAliasedOutput);
        p.lastAntiAliased = true;
        return p.antiAliasedOutput;
    }
    return p.output;
}

VerifyReport PostPipeline::verify()
{
    Impl& p = *mImpl;
    VerifyReport report;
    std::ostringstream text;
    if (!p.lastHistogramInput || !p.lastHdr) {
        report.ok = false;
        report.text = "verify: the pipeline has not run yet\n";
        return report;
    }
    if (p.fed) {
        report.ok = false;
        report.text = "verify: the histogram was fed from a file; there is no measurement to check\n";
        return report;
    }
    const std::vector<float> pixels = p.lastHistogramInput->readRgbaFloat();
    const auto params = p.paramsBuffer.readAll<std::uint32_t>(hd::kHistogramParamsWords);
    const float logMin = std::bit_cast<float>(params[hd::kParamLogMin]);
    const float logMax = std::bit_cast<float>(params[hd::kParamLogMax]);
    const std::uint32_t bins = std::clamp(params[hd::kParamBinCount], 1u, hd::kMaxHistogramBins);
    const ref::OutOfRange policy =
        params[hd::kParamOutOfRange] == hd::kOutOfRangeSeparate ? ref::OutOfRange::Separate : ref::OutOfRange::Clamp;
    const hd::LuminanceWeights weights{std::bit_cast<float>(params[hd::kParamLumaR]),
                                       std::bit_cast<float>(params[hd::kParamLumaG]),
                                       std::bit_cast<float>(params[hd::kParamLumaB])};
    const float cdPerUnit = std::bit_cast<float>(params[hd::kParamCdPerUnit]);
    const glm::ivec2 size = p.lastHistogramInputSize;

    const auto gpuWords = p.histogramBuffer.readAll<std::uint32_t>(hd::kHistogramBufferWords);
    const std::vector<std::uint32_t> gpuBins(gpuWords.begin(), gpuWords.begin() + bins);
    const ref::Histogram cpu =
        ref::buildHistogram(pixels.data(), size.x, size.y, logMin, logMax, bins, policy, weights);
    std::array<std::uint32_t, hd::kCounterCount> gpuCounters{};
    const bool counters = p.histogram->fillsCounters();
    for (std::size_t i = 0; i < hd::kCounterCount; ++i)
        gpuCounters[i] = counters ? gpuWords[hd::kHistogramCountersOffset + i] : std::uint32_t(cpu.counters[i]);
    const auto nearEdges = ref::countNearEdges(pixels.data(), size.x, size.y, logMin, logMax, bins,
                                               ref::gpuBinTolerance(logMin, logMax, bins), weights);
    const ref::HistogramComparison cmp = ref::compareHistograms(gpuBins, gpuCounters.data(), cpu, nearEdges);

    report.gpuTotal = cmp.gpuTotal;
    report.cpuTotal = cmp.cpuTotal;
    report.maxBinDifference = cmp.maxBinDifference;
    report.l1Difference = cmp.l1Difference;
    text << "histogram " << p.histogram->id() << ": " << size.x << "x" << size.y << " input, " << bins
         << " bins over log2 L [" << logMin << ", " << logMax << "]\n";
    text << "units: " << p.units.describe() << "\n";
    if (p.frameUnits.preExposure != 0)
        text << "frame pre-exposed by 2^" << p.frameUnits.preExposure << ": the weights include 2^"
             << -p.frameUnits.preExposure << "\n";
    text << "totals: gpu " << cmp.gpuTotal << ", cpu " << cmp.cpuTotal
         << (cmp.gpuTotal == cmp.cpuTotal ? " (equal)" : " (DIFFERENT)") << "\n";
    text << "counters (NaN, Inf, <=0, below, above): cpu " << cpu.counters[hd::kCounterNaN] << ", "
         << cpu.counters[hd::kCounterInf] << ", " << cpu.counters[hd::kCounterNonPositive] << ", "
         << cpu.counters[hd::kCounterBelow] << ", " << cpu.counters[hd::kCounterAbove]
         << (counters ? (cmp.countersEqual ? " (gpu equal)" : " (gpu DIFFERENT)") : " (method fills no counters)")
         << "\n";
    text << "max per-bin difference " << cmp.maxBinDifference << ", L1 " << cmp.l1Difference << "\n";
    const bool exactBinning = p.histogram->exactBinning();
    const bool binsOk = exactBinning ? cmp.l1Difference == 0 : cmp.onlyNeighbourMoves;
    if (exactBinning)
        text << "bins: " << (cmp.l1Difference == 0 ? "exact" : "DIFFERENT (the method bins exactly by design)") << "\n";
    else
        text << "bins (an option trades exactness for speed): differences only between neighbouring bins: "
             << (cmp.onlyNeighbourMoves ? "yes" : util::format("NO (first at edge {})", cmp.firstUnexplainedEdge))
             << "\n";

    if (!p.cdfFresh) {  // scan in-curve with an operator that needed no CDF: scan now, to check the scan
        PassContext ctx{p.shaders, p.profiler, p.caps, p.profiler.frameIndex()};
        p.scan->inclusiveScan(ctx, p.histogramBuffer, p.cdfBuffer, bins);
        glFinish();
        text << "(the operator used no CDF this frame; scanned now with '" << p.scan->id() << "' stand-alone)\n";
    }
    const auto gpuCdf = p.cdfBuffer.readAll<std::uint32_t>(bins);
    const auto cpuCdf = ref::inclusiveScan(gpuBins);
    const bool cdfOk = gpuCdf == cpuCdf;
    text << "CDF (" << (p.histogram->producesCumulative() ? "built in" : std::string(p.scan->id()))
         << ") vs CPU scan of the GPU histogram: " << (cdfOk ? "exact" : "DIFFERENT") << "\n";

    // The apply pass against ref::applyCurve, both through the GPU's curve.
    const auto curve = p.curveBuffer.readAll<float>(hd::kCurveBufferWords);
    const std::vector<float> hdrPixels = p.lastHdr->readRgbaFloat();
    // With local adaptation the reference uses the same local mean map (checked against its CPU
    // reference by the CUDA tests); the local-mean view is not a tone mapping and is compared as such.
    std::vector<float> localMean;
    if (p.lastLocalMean)
        localMean = p.localMean.readAll<float>(std::size_t(p.lastHdrSize.x) * std::size_t(p.lastHdrSize.y));
    const std::vector<std::uint8_t> expected =
        p.settings.viewLocalMean && p.lastLocalMean
            ? p.output.readRgba8()
            : ref::applyCurve(hdrPixels.data(), p.lastHdrSize.x, p.lastHdrSize.y, curve.data(),
                              p.lastLocalMean ? localMean.data() : nullptr, weights, cdPerUnit);
    const std::vector<std::uint8_t> actual = p.output.readRgba8();
    int worst = 0;
    for (std::size_t i = 0; i < expected.size() && i < actual.size(); ++i)
        worst = std::max(worst, std::abs(int(expected[i]) - int(actual[i])));
    text << "apply pass vs CPU reference (same curve): max difference " << worst << " LSB"
         << (worst <= 1 ? "" : " (TOO LARGE)") << "\n";
    std::vector<float> topFirst;
    const auto curveCheck = compareCurveWithReference(*p.tone, curve, gpuBins, logMin, logMax, hdrPixels, p.lastHdrSize,
                                                      pixels, size, p.lastFovYDegrees, p.lastDtSeconds, weights,
                                                      p.frameUnits, p.picture, p.topDownRows, topFirst);
    bool curveOk = true;
    if (curveCheck) {
        report.curveMaxDifference = *curveCheck;
        curveOk = *curveCheck <= kCurveTolerance;
        text << "tone curve of '" << p.tone->id() << "' vs its CPU reference (same histogram): max display difference "
             << *curveCheck << (curveOk ? "" : util::format(" (ABOVE {})", kCurveTolerance)) << "\n";
    } else {
        text << "tone curve of '" << p.tone->id()
             << "': no CPU reference; compared histogram, CDF and apply pass only\n";
    }
    if (const auto metering = meteringCheck(*p.tone, pixels, size, p.topDownRows, p.sceneDepth, p.lastHdrSize, logMin,
                                            logMax, bins, params[hd::kParamOutOfRange], weights)) {
        const bool meteringOk = metering->maxDifference <= metering->tolerance;
        curveOk = curveOk && meteringOk;
        text << "metering mask: weighted CDF vs CPU reference: max difference " << metering->maxDifference << " of 2^30"
             << (meteringOk ? "" : util::format(" (ABOVE {})", metering->tolerance)) << "\n";
    }
    if (const auto wardFit = wardFrameFitCheck(*p.tone, *p.histogram, curve)) {
        curveOk = curveOk && wardFit->empty();
        text << "ward frame fit vs its serial CPU model (reference/ToneWardExact): "
             << (wardFit->empty() ? std::string("bit-exact") : "DIFFERENT (" + *wardFit + ")") << "\n";
    }
    if (const auto target = percentileTargetCheck(*p.tone, gpuBins, logMin, logMax)) {
        const bool targetOk = std::abs(target->first - target->second) <= kTargetToleranceEv;
        curveOk = curveOk && targetOk;
        text << "percentile target exposure: gpu " << target->first << " EV, cpu " << target->second << " EV"
             << (targetOk ? "" : util::format(" (DIFFERS BY MORE THAN {} EV)", kTargetToleranceEv)) << "\n";
    }

    report.ok = cmp.gpuTotal == cmp.cpuTotal && cmp.countersEqual && binsOk && cdfOk && worst <= 1 && curveOk;
    text << (report.ok ? "verify: OK\n" : "verify: FAILED\n");
    report.text = text.str();
    return report;
}

}  // namespace post
