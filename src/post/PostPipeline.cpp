#include "post/PostPipeline.h"

#include "gl/ExternalObjects.h"
#include "post/PostPipelineImpl.h"
#include "profiling/Profiler.h"
#include "util/Log.h"

#include <algorithm>
#include <stdexcept>

namespace post {

namespace {

std::unique_ptr<ToneOperator> createToneOperatorOrFallback(const std::string& wanted)
{
    if (auto op = createToneOperator(wanted))
        return op;
    return toneOperatorRegistry().front().create();  // the registry is never empty
}

}  // namespace

PostPipeline::PostPipeline(gl::ShaderLibrary& shaders, profiling::Profiler& profiler, const GpuCaps& caps)
    : mImpl(std::make_unique<Impl>(shaders, profiler, caps))
{
    Impl& p = *mImpl;
    p.histogramBuffer.clearUint(0u);
    p.cdfBuffer.clearUint(0u);
    p.paramsBuffer.clearUint(0u);
    p.curveBuffer.clearUint(0u);
    p.appliedCurve.clearUint(0u);
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
const gl::Buffer& PostPipeline::appliedCurveBuffer() const
{
    return mImpl->lastOnePass ? mImpl->appliedCurve : mImpl->curveBuffer;
}
bool PostPipeline::lastFrameOnePass() const
{
    return mImpl->lastOnePass;
}
bool PostPipeline::lastCurveInHistogram() const
{
    return mImpl->lastCurveInHistogram;
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
const gl::Texture* PostPipeline::hdrOutputTexture() const
{
    return mImpl->lastDisplay.hdr && mImpl->hdrOutput ? &mImpl->hdrOutput : nullptr;
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
void PostPipeline::setFootage(bool footage)
{
    mImpl->footage = footage;
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
    mImpl->localExposure.latestProbe();  // its records arrive with the probe's
}

std::string PostPipeline::describeLocalExposureProbe(std::size_t index) const
{
    const std::vector<LocalExposureProbe>& records = mImpl->localExposure.probeRecords();
    return index < records.size() ? "; " + post::describeLocalExposureProbe(records[index]) : std::string();
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
    mImpl->curveReady = false;
    mImpl->settings.toneOperator = std::string(mImpl->tone->id());
    mImpl->profiler.resetStats();
}

PostPipeline::LastRun PostPipeline::lastRun() const
{
    const Impl& p = *mImpl;
    return {p.lastHdr,           p.lastHdrSize,          p.lastHistogramInput, p.lastHistogramInputSize,
            p.lastLocalMean,     p.lastFovYDegrees,      p.lastDtSeconds,      p.fed.has_value(),
            p.cdfFresh,          p.lastDisplay,          p.lastTiles,          p.lastTilesView,
            p.lastLocalExposure, p.lastLocalExposureView};
}

const BilateralLocalExposure& PostPipeline::localExposure() const
{
    return mImpl->localExposure;
}

const FusionLocalExposure& PostPipeline::fusionLocalExposure() const
{
    return mImpl->fusion;
}

const gl::Buffer& PostPipeline::localMeanBuffer() const
{
    return mImpl->localMean;
}

const gl::Texture* PostPipeline::sceneDepth() const
{
    return mImpl->sceneDepth;
}

bool PostPipeline::topDownRows() const
{
    return mImpl->topDownRows;
}

void PostPipeline::scanHistogramNow()
{
    Impl& p = *mImpl;
    if (p.histogram->producesCumulative())
        return;
    PassContext ctx{p.shaders, p.profiler, p.caps, p.profiler.frameIndex()};
    const auto params = p.paramsBuffer.readAll<std::uint32_t>(hd::kHistogramParamsWords);
    p.scan->inclusiveScan(ctx, p.histogramBuffer, p.cdfBuffer,
                          std::clamp(params[hd::kParamBinCount], 1u, hd::kMaxHistogramBins));
}

}  // namespace post
