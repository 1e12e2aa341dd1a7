#include "post/PostPipeline.h"

#include "gl/Debug.h"
#include "gl/ExternalObjects.h"
#include "post/PostPipelineImpl.h"
#include "post/histogram/TileHistogramTarget.h"
#include "profiling/Profiler.h"
#include "shared/LocalExposure.h"
#include "util/Log.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>

namespace post {

namespace {

/// Window half-size of the local-mean view when no operator asks for local adaptation.
constexpr int kLocalMeanViewRadius = 48;

/// A local histogram operator's tile curves for the apply pass (SDR only: HDR10 shows its global curve).
std::optional<TileCurvesInput> tileCurvesFor(const ToneOperator& op, bool hdr, ViewMode mode)
{
    const LocalTileCurves* tiles = op.traits().localTiles ? op.localTiles() : nullptr;
    if (!tiles || !tiles->curves || hdr)
        return std::nullopt;
    return TileCurvesInput{*tiles->curves, mode == ViewMode::LocalGain, mode == ViewMode::LocalTiles};
}

bool isLocalExposureView(ViewMode mode)
{
    return mode == ViewMode::LocalBase || mode == ViewMode::LocalBlurred || mode == ViewMode::LocalDetail ||
           mode == ViewMode::LocalExposure;
}

/// The views of the bilateral method's terms, which fusion does not have (only its exposure).
bool isBilateralOnlyView(ViewMode mode)
{
    return mode == ViewMode::LocalBase || mode == ViewMode::LocalBlurred || mode == ViewMode::LocalDetail;
}

/// The apply pass's local exposure (bilateral, or fusion's map when `fusion`) from the settings, the view
/// and the operator.
LocalExposureInput localExposureInputFor(const BilateralLocalExposure& le,
                                         const LocalExposureSettings& s,
                                         ViewMode mode,
                                         const ToneTraits& traits,
                                         const ExposureFusion* fusion = nullptr)
{
    LocalExposureInput in;
    in.method = fusion ? 2 : 1;
    if (fusion) {
        in.adjustment = &fusion->exposureLog2Texture();
        in.uvScale = fusion->uvScale();
        if (isBilateralOnlyView(mode))
            mode = ViewMode::ToneMapped;  // refused in run(): fusion has no such term
    } else {
        in.grid = &le.grid();
        in.blur = &le.blurBuffer();
        in.tiles = le.tiles();
    }
    in.view = mode == ViewMode::LocalBase       ? hd::kLocalExposureViewBase
              : mode == ViewMode::LocalBlurred  ? hd::kLocalExposureViewBlurred
              : mode == ViewMode::LocalDetail   ? hd::kLocalExposureViewDetail
              : mode == ViewMode::LocalExposure ? hd::kLocalExposureViewExposure
                                                : hd::kLocalExposureViewNone;
    in.midSource = traits.curveCarriesExposure ? hd::kLocalExposureMidFromCurve : hd::kLocalExposureMidFromFrame;
    in.highlightContrastScale = s.highlightContrastScale;
    in.shadowContrastScale = s.shadowContrastScale;
    in.detailStrength = s.detailStrength;
    in.blurredLuminanceBlend = s.blurredLuminanceBlend;
    in.middleGreyBias = s.middleGreyBias;
    return in;
}

/// The tile under the first probe point inside the frame (top-left coordinates; the app's first point
/// is the mouse, outside the picture when the mouse is elsewhere, so --probe's first point follows).
std::optional<glm::ivec2> selectedTile(const std::vector<glm::ivec2>& points,
                                       glm::ivec2 frame,
                                       bool topDownRows,
                                       const LocalTileCurves& tiles)
{
    for (const glm::ivec2 point : points) {
        if (point.x < 0 || point.y < 0 || point.x >= frame.x || point.y >= frame.y)
            continue;
        const glm::ivec2 texel{point.x, topDownRows ? point.y : frame.y - 1 - point.y};
        return glm::min(texel / glm::max(tiles.tileSize, glm::ivec2(1)), tiles.tiles - 1);
    }
    return std::nullopt;
}

/// Queues the copy of the selected tile's histogram and curve block (never waits; a busy ring skips).
void enqueueTileReadback(AsyncReadback& readback, const LocalTileCurves& tiles, glm::ivec2 tile, std::uint64_t frame)
{
    const std::uint32_t index = std::uint32_t(tile.y * tiles.tiles.x + tile.x);
    const std::uint32_t bins = tiles.histograms ? tiles.bins : 0u;
    const gl::Buffer& histograms = tiles.histograms ? *tiles.histograms : *tiles.curves;
    readback.enqueue({{histograms, bins, 0, std::size_t(index) * bins},
                      {*tiles.curves, hd::kTileCurveStride, hd::kMaxHistogramBins, hd::hdTileCurveBase(index)}},
                     frame,
                     {std::uint32_t(tile.x), std::uint32_t(tile.y),
                      std::uint32_t(tiles.tiles.x) | (std::uint32_t(tiles.tiles.y) << 16), bins});
}

TileSnapshot decodeTile(const AsyncReadback::Result& slot)
{
    TileSnapshot t;
    t.frame = slot.frame;
    t.tile = {int(slot.tag[0]), int(slot.tag[1])};
    t.tiles = {int(slot.tag[2] & 0xffffu), int(slot.tag[2] >> 16)};
    const std::size_t bins = std::min<std::size_t>(slot.tag[3], hd::kMaxHistogramBins);
    const auto word = [&](std::size_t i) { return i < slot.words.size() ? slot.words[i] : 0u; };
    for (std::size_t i = 0; i < bins; ++i)
        t.bins.push_back(word(i));
    const std::size_t at = hd::kMaxHistogramBins;
    const float mode = std::bit_cast<float>(word(at + hd::kCurveMode));
    const float samples = std::bit_cast<float>(word(at + hd::kCurveSampleCount));
    t.curveLogMin = std::bit_cast<float>(word(at + hd::kCurveLogMin));
    t.curveLogMax = std::bit_cast<float>(word(at + hd::kCurveLogMax));
    // Each value clamped to [0, 1] as the tiled apply clamps it (TileCurveLookup.glsl).
    const auto clamped = [](float v) { return v > 0.0f ? std::min(v, 1.0f) : 0.0f; };
    if (mode == hd::kCurveModeLinearScale) {
        const float scale = std::bit_cast<float>(word(at + hd::kCurveScale));
        constexpr int kLineSamples = 64;
        for (int i = 0; i < kLineSamples; ++i) {
            const float logL = t.curveLogMin + (float(i) + 0.5f) * (t.curveLogMax - t.curveLogMin) / kLineSamples;
            t.curve.push_back(clamped(scale * std::exp2(logL)));
        }
    } else if (samples >= 1.0f) {
        const std::size_t n = std::min<std::size_t>(std::size_t(samples), hd::kMaxCurveSamples);
        for (std::size_t i = 0; i < n; ++i)
            t.curve.push_back(clamped(std::bit_cast<float>(word(at + hd::kCurveHeaderWords + i))));
    }
    return t;
}

}  // namespace

ImageInput PostPipeline::Impl::histogramInputFor(PassContext& ctx,
                                                 const ImageInput& hdr,
                                                 double dtSeconds,
                                                 float fovYDegrees)
{
    if (settings.downsample > 1) {
        auto scope = profiler.scope("downsample");
        const ImageInput reduced = downsample.run(ctx, hdr, settings.downsample);
        lastHistogramInput = &downsample.texture();
        lastHistogramInputSize = reduced.size;
    } else {
        lastHistogramInput = &hdr.texture;
        lastHistogramInputSize = hdr.size;
    }
    lastHdr = &hdr.texture;
    lastHdrSize = hdr.size;
    lastFovYDegrees = fovYDegrees;
    lastDtSeconds = dtSeconds;
    return ImageInput{*lastHistogramInput, lastHistogramInputSize, hdr.preExposure};
}

HistogramSpec PostPipeline::Impl::writeRange(PassContext& ctx,
                                             const ImageInput& histogramImage,
                                             bool fusedFrame,
                                             double dtSeconds)
{
    // The frame's units: the input's definition with the frame's pre-exposure folded in, so every
    // pass (histogram, range, curves, apply, probe, views, CUDA) sees the scene's own luminance.
    frameUnits = units;
    frameUnits.preExposure = histogramImage.preExposure;  // the frame's (the histogram input carries it)
    HistogramSpec spec = settings.spec;
    spec.luminance = frameUnits.effectiveWeights();
    spec.cdPerUnit = float(frameUnits.cdPerUnit());
    spec.storedScale = frameUnits.storedScale();
    if (fed) {  // a histogram from a file: its range and counts, no measurement
        spec.binCount = std::uint32_t(fed->counts.size());
        spec.outOfRange = OutOfRange::Clamp;
        writeHistogramParams(paramsBuffer, fed->logMin, fed->logMax, spec, histogramImage.size);
        std::vector<std::uint32_t> words(hd::kHistogramBufferWords, 0u);
        std::copy(fed->counts.begin(), fed->counts.end(), words.begin());
        histogramBuffer.update(std::span<const std::uint32_t>(words));
    } else if (fusedFrame) {
        // Written by prepareFusedHistogram; the auto range's next step follows the histogram stage.
    } else if (settings.rangeMode == RangeMode::Manual) {
        writeHistogramParams(paramsBuffer, settings.logMin, settings.logMax, spec, histogramImage.size);
    } else {
        auto scope = profiler.scope("range/auto");
        writeHistogramShape(paramsBuffer, spec, histogramImage.size);
        // On footage a cut resets the range (the operator's cut threshold), so the cut is measured unclamped.
        const ToneState* toneState = tone->state();
        const float cutResetEv = footage && toneState != nullptr ? toneState->cutThresholdEv() : 0.0f;
        autoRange.update(ctx, histogramImage, paramsBuffer, dtSeconds, settings.autoRangeSpeed, resetRange,
                         settings.logMin, settings.logMax, cutResetEv);
        resetRange = false;
    }
    return spec;
}

void PostPipeline::Impl::enqueueReadbacks(PassContext& ctx, glm::ivec2 size)
{
    {
        auto scope = profiler.scope("view/readback");
        tone->flushStateReadback();  // the operator's key value, asked for while it built the curve
        apply.buildDisplayHistogram(ctx, output, displayBins);
        ReadbackSources sources{histogramBuffer, paramsBuffer, curveBuffer, displayBins, TonemapApply::kDisplayBins};
        readback.enqueue(sources, ctx.frameIndex, histogram->fillsCounters());
        // A local operator's tile under the first probe point: its histogram and curve for the view.
        const LocalTileCurves* tiles = lastTiles ? tone->localTiles() : nullptr;
        const std::optional<glm::ivec2> tile =
            tiles ? selectedTile(probePoints, size, topDownRows, *tiles) : std::nullopt;
        tileSelected = tile.has_value();
        if (tile) {
            enqueueTileReadback(tileReadback, *tiles, *tile, ctx.frameIndex);
        } else {
            latestTile.reset();
            if (latest)
                latest->tile.reset();
        }
    }
}

void PostPipeline::Impl::runProbe(PassContext& ctx, const ImageInput& hdr)
{
    if (!probePoints.empty()) {
        auto scope = profiler.scope("view/probe");
        std::vector<glm::ivec2> texels;
        for (const glm::ivec2 point : probePoints)
            texels.push_back({point.x, topDownRows ? point.y : hdr.size.y - 1 - point.y});
        // The tile curves' values where the tiled apply ran (clahe, ward-local; SDR).
        const std::optional<TileCurvesInput> tiles =
            lastTiles ? tileCurvesFor(*tone, lastDisplay.hdr, viewMode) : std::nullopt;
        probe.run(ctx, hdr, output, paramsBuffer, lastOnePass ? appliedCurve : curveBuffer, texels, topDownRows,
                  tiles ? &tiles->tileCurves : nullptr);
        if (lastLocalExposure)  // its terms at the same points (fusion: its map's exposure)
            localExposure.probe(ctx, hdr, paramsBuffer, curveBuffer, texels,
                                localExposureInputFor(localExposure, settings.localExposure, viewMode, tone->traits(),
                                                      lastFusion ? &fusion.fusion() : nullptr));
        else
            localExposure.clearProbe();
    }
}

const gl::Texture& PostPipeline::Impl::displayedPicture(PassContext& ctx,
                                                        const ImageInput& hdr,
                                                        const ImageInput& histogramImage)
{
    if (viewMode == ViewMode::FalseColour) {
        auto scope = profiler.scope("view/false-colour");
        if (!falseColourOutput || falseColourOutput.size() != hdr.size)
            falseColourOutput = gl::Texture("post.false-colour", GL_RGBA8, hdr.size);
        if (lastDisplay.hdr) {
            // HDR10: the display light's luminance in cd/m^2 (BT.2020 weights) over a fixed range, so
            // the HDR picture can be judged without an HDR display.
            HistogramSpec view;
            view.luminance = {kBt2020LumaR, kBt2020LumaG, kBt2020LumaB};
            writeHistogramParams(hdrViewParams, kHdrViewLogMin, kHdrViewLogMax, view, hdr.size);
            falseColour.run(ctx, ImageInput{hdrOutput, hdr.size}, hdrViewParams, falseColourOutput, legendStrip,
                            topDownRows);
        } else {
            falseColour.run(ctx, hdr, paramsBuffer, falseColourOutput, legendStrip, topDownRows);
        }
        return falseColourOutput;
    }
    if (viewMode == ViewMode::Metering) {
        auto scope = profiler.scope("view/metering");
        if (!meteringOutput || meteringOutput.size() != hdr.size)
            meteringOutput = gl::Texture("post.metering-view", GL_RGBA8, hdr.size);
        // Other operators meter every pixel equally: their view is the image at full weight.
        const MeteringSettings mask = tone->traits().meteringMask;
        const MeteringFrame frame{hdr, histogramImage, paramsBuffer, sceneDepth, topDownRows};
        meteringView.active(mask, frame);
        meteringView.overlay(ctx, mask, frame, output, meteringOutput);
        return meteringOutput;
    }
    if (settings.antiAliasing == AntiAliasing::Fxaa && sceneDepth) {
        auto scope = profiler.scope("display/aa");
        if (!antiAliasedOutput || antiAliasedOutput.size() != hdr.size)
            antiAliasedOutput = gl::Texture("post.display-aa", GL_RGBA8, hdr.size);
        antiAliasing.run(ctx, output, antiAliasedOutput);
        lastAntiAliased = true;
        return antiAliasedOutput;
    }
    return output;
}

FusedHistogramTarget* PostPipeline::prepareFusedHistogram(glm::ivec2 frameSize, float fovYDegrees, int preExposure)
{
    Impl& p = *mImpl;
    p.fusedPrepared = false;
    FusedHistogramOutputs* fused = p.histogram->fusedOutputs();
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

const gl::Texture& PostPipeline::run(const ImageInput& hdr, double dtSeconds, float fovYDegrees)
{
    Impl& p = *mImpl;
    if (hdr.size.x <= 0 || hdr.size.y <= 0)
        throw std::invalid_argument(util::format("post pipeline: empty input image ({}x{})", hdr.size.x, hdr.size.y));
    if (auto snapshot = p.readback.poll()) {
        p.latest = std::move(*snapshot);
        p.latest->markers = p.tone->markers();
    }
    if (auto tile = p.tileReadback.poll(); tile && p.tileSelected)  // none arriving after the selection ended
        p.latestTile = decodeTile(*tile);
    if (p.latest)
        p.latest->tile = p.latestTile;
    pollProbe();

    PassContext ctx{p.shaders, p.profiler, p.caps, p.profiler.frameIndex()};
    if (!p.output || p.output.size() != hdr.size)
        p.output = gl::Texture("post.display", GL_RGBA8, hdr.size);
    p.lastAntiAliased = false;

    // The fused method's histogram was binned by the frame's producer with the params written before it.
    FusedHistogramOutputs* fused = p.histogram->fusedOutputs();
    const bool fusedFrame = fused && p.fusedPrepared && p.fusedPreparedSize == hdr.size &&
                            p.fusedPreparedPreExposure == hdr.preExposure && !p.fed;
    if (fused && p.fusedPrepared && p.fusedPreparedPreExposure != hdr.preExposure)  // weights of another 2^-k
        fused->discardFrame(
            util::format("the lighting pass binned this frame for pre-exposure k = {}, but it is "
                         "stored with k = {}: the histogram is empty",
                         p.fusedPreparedPreExposure, hdr.preExposure));
    p.fusedPrepared = false;

    const ImageInput histogramImage = p.histogramInputFor(ctx, hdr, dtSeconds, fovYDegrees);

    const HistogramSpec spec = p.writeRange(ctx, histogramImage, fusedFrame, dtSeconds);

    const bool builtInCdf = p.histogram->producesCumulative() && !p.fed;
    // One pass: the histogram pass maps the frame through the previous frame's curve as it reads it.
    const int localRadius = p.tone->localAdaptationRadius();
    // Local exposure (bilateral; its views also with the method off), not for the tiled operators.
    const LocalExposureSettings& localExposure = p.settings.localExposure;
    // Fusion (local_exposure.method fusion): its pass runs after the curve (it meters the curve's exposure).
    const bool fusionRuns = localExposure.method == LocalExposureMethod::Fusion && !p.tone->traits().localTiles;
    const bool bilateralRuns =
        (localExposure.method == LocalExposureMethod::Bilateral ||
         (localExposure.method == LocalExposureMethod::Off && isLocalExposureView(p.viewMode))) &&
        !p.tone->traits().localTiles;
    const bool localExposureRuns = bilateralRuns || fusionRuns;
    if (fusionRuns && isBilateralOnlyView(p.viewMode) && !p.warnedFusionView) {
        util::logWarning(
            "--view {}: local_exposure.method fusion has no bilateral base, blurred luminance or "
            "detail (its exposure is a pyramid blend of synthetic exposures); the picture is shown, "
            "--view local-exposure shows fusion's exposure",
            viewModeName(p.viewMode));
        p.warnedFusionView = true;
    }
    LocalExposureGridTarget* localExposureGrid = nullptr;
    ApplyTarget applyTarget;
    const bool onePass = p.settings.onePass && p.curveReady && !p.fed && p.histogram->appliesCurve() &&
                         p.settings.downsample <= 1 && localRadius < 0 && !p.settings.viewLocalMean &&
                         !p.tone->traits().localTiles && !p.settings.display.hdr() && !localExposureRuns;
    if (onePass) {
        std::swap(p.curveBuffer, p.appliedCurve);  // appliedCurve: the last frame's; curveBuffer gets this one's
        const ToneTraits traits = p.tone->traits();
        applyTarget =
            ApplyTarget{&p.appliedCurve, &p.output,
                        applyDisplayFor(traits.displayTransform, traits.hdrScaling, p.settings.display).transform};
    }
    // Scan "in-curve": no dispatch here for an operator that scans in its curve dispatch (it fills the
    // CDF) or uses no CDF (then none is made); other operators get the method's stand-alone scan.
    const bool scanInCurve =
        !builtInCdf && p.scan->fusedIntoCurve() && (p.tone->scansInCurve() || !p.tone->usesPipelineCdf());
    ToneInputs inputs{hdr,  histogramImage, p.histogramBuffer, p.cdfBuffer,  p.paramsBuffer,
                      spec, dtSeconds,      fovYDegrees,       *p.histogram, builtInCdf ? nullptr : p.scan.get()};
    inputs.depth = p.sceneDepth;
    inputs.topDownRows = p.topDownRows;
    inputs.picture = p.picture ? &*p.picture : nullptr;
    inputs.units = &p.frameUnits;
    inputs.footage = p.footage;
    bool cdfWritten = false;
    if (scanInCurve && p.tone->scansInCurve()) {
        inputs.fusedCdf = &p.cdfBuffer;
        inputs.fusedCdfWritten = &cdfWritten;
    }
    p.tone->setDisplay(p.settings.display);  // Ward's Ld_max is the HDR10 peak
    // The curve in the histogram pass: its last workgroup scans and builds the operator's curve.
    CurveTarget curveTarget;
    const bool curveOffered = p.settings.curveInHistogram && !p.fed && inputs.fusedCdf != nullptr &&
                              p.histogram->buildsCurve() &&
                              p.tone->offerCurveToHistogram(ctx, inputs, p.curveBuffer, curveTarget);
    if (!p.fed) {
        // A CUDA method's row is its kernels' GPU time; it times the interop hand-over apart (PassContext).
        const std::string stage = "histogram/" + std::string(p.histogram->id());
        const bool ownTiming = p.histogram->backend() == Backend::Cuda;
        std::optional<profiling::Profiler::Scope> scope;
        if (!ownTiming)
            scope.emplace(p.profiler.scope(stage, p.histogram->timerBackend()));
        PassContext stageCtx = ctx;
        if (ownTiming)
            stageCtx.stageTimingName = stage;
        HistogramTargets targets{p.histogramBuffer, p.paramsBuffer, builtInCdf ? &p.cdfBuffer : nullptr};
        if (onePass)
            targets.apply = &applyTarget;
        if (curveOffered)
            targets.curve = &curveTarget;
        // One read of the frame for all metering: the operator's foveal image comes out of this pass
        // where the method can make it and the histogram reads the full frame.
        if (p.histogram->fillsFovealImage() && p.settings.downsample <= 1)
            targets.foveal = p.tone->fovealTarget(hdr.size, fovYDegrees);
        // A local operator's tile histograms in the same read (clahe), where the method can count them.
        if (auto* sink = dynamic_cast<TileHistogramSink*>(p.histogram.get())) {
            auto* source = dynamic_cast<TileHistogramSource*>(p.tone.get());
            sink->offerTileHistograms(source ? source->tileHistogramTarget(hdr.size, histogramImage.size) : nullptr);
        }
        // The local exposure's grid from the same read, where the method can build it (full frame).
        if (bilateralRuns && localExposure.structure == LocalExposureStructure::Fused && p.settings.downsample <= 1 &&
            p.histogram->buildsLocalExposureGrid()) {
            localExposureGrid = &p.localExposure.fusedTarget(hdr.size);
            targets.localExposureGrid = localExposureGrid;
        }
        p.histogram->build(stageCtx, histogramImage, spec, targets);
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
    if (bilateralRuns) {
        // The separate pass (Unreal's structure), also where the histogram pass did not build the grid.
        if (!localExposureGrid || !localExposureGrid->written) {
            auto scope = p.profiler.scope("local-exposure/grid");
            p.localExposure.buildSeparate(ctx, hdr, p.paramsBuffer);
        }
        auto scope = p.profiler.scope("local-exposure/blur");
        p.localExposure.blur(ctx, p.paramsBuffer, hdr.size, localExposure.kernelSizePercent);
    }
    p.cdfFresh = !scanInCurve;
    if (!builtInCdf && !scanInCurve) {
        const std::string stage = "scan/" + std::string(p.scan->id());
        const bool ownTiming = p.scan->backend() == Backend::Cuda;
        std::optional<profiling::Profiler::Scope> scope;
        if (!ownTiming)
            scope.emplace(p.profiler.scope(stage, p.scan->timerBackend()));
        PassContext stageCtx = ctx;
        if (ownTiming)
            stageCtx.stageTimingName = stage;
        p.scan->inclusiveScan(stageCtx, p.histogramBuffer, p.cdfBuffer, spec.binCount);
    }
    p.lastOnePass = applyTarget.written;
    p.lastTiles = p.lastTilesView = false;
    p.lastLocalExposure = p.lastLocalExposureView = false;
    // Local adaptation (percentile's option) and its view: the CUDA summed-area table of log2 L.
    std::optional<LocalMeanInput> local;
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
        inputs.curveBuiltInHistogram = curveTarget.written;
        if (curveTarget.written) {
            p.tone->computeCurve(ctx, inputs, p.curveBuffer);  // its bookkeeping only: no dispatch to time
        } else {
            auto curveScope = p.profiler.scope(stage + "/curve");
            p.tone->computeCurve(ctx, inputs, p.curveBuffer);
        }
        p.curveReady = true;
        if (cdfWritten)
            p.cdfFresh = true;
        p.lastCurveInHistogram = curveTarget.written;
        const ToneTraits traits = p.tone->traits();
        p.lastDisplay = applyDisplayFor(traits.displayTransform, traits.hdrScaling, p.settings.display);
        if (fusionRuns && !p.lastOnePass) {  // its own row, before the apply pass that samples its map
            auto fusionScope = p.profiler.scope("local-exposure/fusion");
            p.fusion.run(ctx, hdr, p.histogramBuffer, p.paramsBuffer, p.curveBuffer,
                         fusionSettingsFor(localExposure, spec.luminance), traits.curveCarriesExposure);
        }
        if (!p.lastOnePass) {
            auto applyScope = p.profiler.scope(stage + "/apply");
            if (p.lastDisplay.hdr && (!p.hdrOutput || p.hdrOutput.size() != hdr.size))
                p.hdrOutput = gl::Texture("post.hdr10-output", GL_RGBA32F, hdr.size);
            const std::optional<TileCurvesInput> tiles = tileCurvesFor(*p.tone, p.lastDisplay.hdr, p.viewMode);
            p.lastTiles = tiles.has_value();
            p.lastTilesView = tiles && (tiles->viewGain || tiles->viewGrid);
            std::optional<LocalExposureInput> exposure;
            if (localExposureRuns && !tiles)
                exposure = localExposureInputFor(p.localExposure, localExposure, p.viewMode, traits,
                                                 fusionRuns ? &p.fusion.fusion() : nullptr);
            p.lastFusion = fusionRuns && exposure.has_value();
            p.lastLocalExposure = exposure.has_value();
            p.lastLocalExposureView = exposure && exposure->view != hd::kLocalExposureViewNone;
            p.apply.apply(ctx, hdr, p.paramsBuffer, p.curveBuffer, p.output, local ? &*local : nullptr, p.lastDisplay,
                          p.lastDisplay.hdr ? &p.hdrOutput : nullptr, tiles ? &*tiles : nullptr,
                          exposure ? &*exposure : nullptr);
        }
    }
    p.enqueueReadbacks(ctx, hdr.size);
    if (!p.probePoints.empty())
        p.runProbe(ctx, hdr);
    return p.displayedPicture(ctx, hdr, histogramImage);
}

}  // namespace post
