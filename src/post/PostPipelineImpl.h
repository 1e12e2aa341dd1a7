// PostPipelineImpl.h: the pipeline's state, shared by its three source files (private to post/):
// PostPipeline.cpp owns the stages and outputs, PostPipelineRun.cpp runs a frame,
// PostPipelineSettings.cpp applies settings.
#pragma once

#include "post/AutoRange.h"
#include "post/Downsample.h"
#include "post/HistogramReadback.h"
#include "post/LocalAdaptationSource.h"
#include "post/PostPipeline.h"
#include "post/TonemapApply.h"
#include "post/localexposure/BilateralLocalExposure.h"
#include "post/localexposure/FusionLocalExposure.h"
#include "post/tonemap/MeteringMask.h"
#include "shared/LocalTiles.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace post {

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
    /// One-pass mode: the curve the picture was made with (the previous frame's), swapped with
    /// curveBuffer at the start of a one-pass frame, so no copy is made and both stay readable.
    gl::Buffer appliedCurve = createCurveBuffer("post.curve.applied");
    bool curveReady = false;            ///< a curve has been computed (the one-pass mode has one to apply)
    bool lastOnePass = false;           ///< the last run's picture came out of the histogram pass
    bool lastCurveInHistogram = false;  ///< the last run's curve was built by the histogram pass
    gl::Buffer displayBins{"post.display-histogram", TonemapApply::kDisplayBins * sizeof(std::uint32_t)};
    gl::Texture output;
    gl::Texture hdrOutput;  ///< display.target hdr10: linear BT.2020 cd/m^2 (GL_RGBA32F), same size as output
    gl::Buffer hdrViewParams = createHistogramParamsBuffer("post.hdr10-view-params");  ///< its false-colour view
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
    bool footage = false;  ///< setFootage: cuts may occur between frames
    std::optional<PictureInfo> picture;
    std::optional<FedHistogram> fed;
    bool cdfFresh = true;  ///< the CDF buffer holds this frame's CDF (false: scan in-curve, and no operator needed one)
    PixelProbe probe;
    std::vector<glm::ivec2> probePoints;  ///< from the picture's top-left
    bool topDownRows = false;
    std::optional<ProbeSnapshot> latestProbe;
    std::unique_ptr<LocalAdaptationSource> localSource;  ///< CUDA summed-area table, created on first use
    gl::Buffer localMean;                                ///< float[w*h] mean log2 L around each pixel
    BilateralLocalExposure localExposure;                ///< local_exposure.method bilateral (and its views)
    bool lastLocalExposure = false;      ///< the last run's apply pass applied local exposure (or showed a term)
    bool lastLocalExposureView = false;  ///< ... and showed a term (--view local-*)
    FusionLocalExposure fusion;          ///< local_exposure.method fusion
    bool lastFusion = false;             ///< the last run's local exposure was fusion's
    bool warnedFusionView = false;       ///< the views fusion has no term for were refused once
    std::optional<HistogramSnapshot> latest;
    /// The selected tile's histogram (at word 0) and tile-curve block (at kMaxHistogramBins).
    AsyncReadback tileReadback{"view.tile.readback", std::size_t(hd::kMaxHistogramBins) + hd::kTileCurveStride};
    std::optional<TileSnapshot> latestTile;
    bool tileSelected = false;  ///< the last run queued a tile copy
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

    // What the checks against the CPU references need from the last run (PostPipeline::lastRun;
    // verify/PipelineVerify). The caller's frame must still be alive.
    const gl::Texture* lastHdr = nullptr;
    glm::ivec2 lastHdrSize{0};
    const gl::Texture* lastHistogramInput = nullptr;
    glm::ivec2 lastHistogramInputSize{0};
    bool lastTiles = false;      ///< the last run's apply pass blended the operator's tile curves
    bool lastTilesView = false;  ///< ... and showed a view of them (local-gain, local-tiles)
    bool lastLocalMean = false;  ///< the last run's apply pass used the local mean (or showed it)
    float lastFovYDegrees = 60.0f;
    double lastDtSeconds = 1.0 / 60.0;
    ApplyDisplay lastDisplay;  ///< what the last apply pass was told (transform, HDR10 scaling)

    // The steps of PostPipeline::run that stand on their own (PostPipelineRun.cpp).
    /// The histogram's input (the frame, or its downsampled copy) and the run's last* fields.
    ImageInput histogramInputFor(PassContext& ctx, const ImageInput& hdr, double dtSeconds, float fovYDegrees);
    /// The frame's histogram spec (units folded in) and its params: a fed histogram's, the manual
    /// range, or the automatic range's next step.
    HistogramSpec writeRange(PassContext& ctx, const ImageInput& histogramImage, bool fusedFrame, double dtSeconds);
    /// The panels' readbacks: histogram, curve, display bins, the probed tile's curves.
    void enqueueReadbacks(PassContext& ctx, glm::ivec2 size);
    /// The probe's values at probePoints (and the local exposure's terms there).
    void runProbe(PassContext& ctx, const ImageInput& hdr);
    /// What the run returns: the picture, or the false-colour, metering or anti-aliased view of it.
    const gl::Texture& displayedPicture(PassContext& ctx, const ImageInput& hdr, const ImageInput& histogramImage);

    std::uint32_t effectiveBins(const HistogramMethod& method,
                                const ScanMethod* scanMethod,
                                std::uint32_t wanted,
                                std::string& why) const;
};

}  // namespace post
