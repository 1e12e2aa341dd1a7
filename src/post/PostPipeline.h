// PostPipeline.h: the per-frame post-processing pipeline, from the HDR frame to the display image.
//
//   [downsample] -> [range: manual, or auto by GPU min/max reduction] -> histogram/<method>
//   -> scan/<method> (skipped when the method yields the cumulative histogram) -> tonemap/<operator>
//   (curve on the GPU) -> one apply pass (Ld/Lw colour ratio, sRGB encode) -> [display/aa: FXAA-style
//   anti-aliasing of the display image, on rendered scene frames only (post/DisplayAntiAliasing.h)]
//
// The pipeline owns the stage outputs (histogram, CDF, params, curve), sized for the largest bin
// count, and wraps every stage in a profiler scope and debug group, so a method only does its own
// work. Nothing in run() reads back synchronously; the histogram view gets its data through an
// asynchronous readback a few frames late.
//
// Sources: PostPipeline.cpp owns the stages and outputs, PostPipelineRun.cpp runs a frame (and
// prepares the fused histogram), PostPipelineSettings.cpp applies settings; the plain structs are in
// post/PipelineSettings.h. The check of a frame against the CPU references (--verify) sits above
// post/ and reference/: verify/PipelineVerify.h.
#pragma once

#include "post/DisplayAntiAliasing.h"
#include "post/FalseColour.h"
#include "post/HistogramCsv.h"
#include "post/LuminanceUnits.h"
#include "post/ParkedParameters.h"
#include "post/PipelineSettings.h"
#include "post/PixelProbe.h"
#include "post/PostTypes.h"
#include "post/histogram/HistogramMethod.h"
#include "post/scan/ScanMethod.h"
#include "post/tonemap/ToneOperator.h"

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gl {
class SharedAllocator;
}

namespace post {

class BilateralLocalExposure;
class FusionLocalExposure;

class PostPipeline
{
public:
    PostPipeline(gl::ShaderLibrary& shaders, profiling::Profiler& profiler, const GpuCaps& caps);
    ~PostPipeline();

    /// Runs the pipeline on `hdr`; returns the display image (GL_RGBA8, sRGB-encoded), same size.
    const gl::Texture& run(const ImageInput& hdr, double dtSeconds, float fovYDegrees);

    const PipelineSettings& settings() const;
    /// Applies new settings (switching methods, bins, range...); unavailable or unknown methods are
    /// refused with the reason in `message` and the previous choice is kept. Returns true if anything changed.
    bool applySettings(const PipelineSettings& settings, std::string* message = nullptr);

    HistogramMethod& histogramMethod();
    ScanMethod* scanMethod();  ///< nullptr when the histogram method yields the CDF ("built in")
    ToneOperator& toneOperator();
    const GpuCaps& caps() const;
    /// Recreates the stage outputs CUDA passes touch (histogram, CDF, params, local mean, downsampled
    /// input) through `allocator`, so CUDA reaches them without map/unmap (post/CudaInterop.h); null
    /// goes back to plain GL storage. Call before the first run; the allocator must outlive the pipeline.
    void setSharedAllocator(gl::SharedAllocator* allocator);
    /// Message about the last clamp or refusal (e.g. "scatter-blend supports 1024 bins; using 1024").
    const std::string& notice() const;

    std::optional<HistogramSnapshot> latestSnapshot() const;

    /// What the last run() read and made, for the checks against the CPU references
    /// (verify/PipelineVerify.h, tools and tests); the caller's frame must still be alive.
    struct LastRun
    {
        const gl::Texture* hdr = nullptr;  ///< the frame (nullptr: the pipeline has not run yet)
        glm::ivec2 hdrSize{0};
        const gl::Texture* histogramInput = nullptr;  ///< the (possibly downsampled) image binned
        glm::ivec2 histogramInputSize{0};
        bool usedLocalMean = false;  ///< the apply pass used the local mean (or showed it)
        float fovYDegrees = 60.0f;
        double dtSeconds = 1.0 / 60.0;
        bool fedHistogram = false;       ///< the histogram came from setFedHistogram: nothing was measured
        bool cdfFresh = true;            ///< the CDF buffer holds this frame's CDF (false: scan in-curve, none needed)
        ApplyDisplay display{};          ///< the apply pass's display transform and HDR10 scaling
        bool usedTiles = false;          ///< the apply pass blended the operator's tile curves (LocalTileCurves)
        bool tilesView = false;          ///< ... and showed a view instead (local-gain, local-tiles)
        bool usedLocalExposure = false;  ///< the apply pass applied the bilateral local exposure (localExposure())
        bool localExposureView = false;  ///< ... and showed one of its terms instead (local-base ... local-exposure)
    };
    LastRun lastRun() const;
    /// float[w*h]: the mean log2 L around each pixel of the last run (when LastRun::usedLocalMean).
    const gl::Buffer& localMeanBuffer() const;
    /// The bilateral local exposure's grid and blur of the last run (when LastRun::usedLocalExposure).
    const BilateralLocalExposure& localExposure() const;
    /// The fusion local exposure's meter and map of the last run (local_exposure.method fusion).
    const FusionLocalExposure& fusionLocalExposure() const;
    /// "; local exposure +0.42 EV (log2 L ..., bilateral ..., ...)" for probe point `index` while local
    /// exposure runs (its own probe pass, read back with the probe's records); empty otherwise.
    std::string describeLocalExposureProbe(std::size_t index) const;
    const gl::Texture* sceneDepth() const;
    bool topDownRows() const;
    /// Runs the scan method's stand-alone scan of the histogram into the CDF buffer now (for the check
    /// of a frame whose scan in-curve made no CDF); does nothing when the method builds the CDF.
    void scanHistogramNow();

    // Stage outputs, for tests and tools.
    const gl::Buffer& histogramBuffer() const;
    const gl::Buffer& cdfBuffer() const;
    const gl::Buffer& paramsBuffer() const;
    /// The tone curve of the last run (from its histogram).
    const gl::Buffer& curveBuffer() const;
    /// The curve the last run's picture was made with: curveBuffer(), or in a one-pass frame the
    /// previous frame's curve.
    const gl::Buffer& appliedCurveBuffer() const;
    /// The last run's picture came out of the histogram pass (tonemap.one_pass).
    bool lastFrameOnePass() const;
    /// The last run's curve was built by the histogram pass's last workgroup (tonemap.curve_in_histogram).
    bool lastCurveInHistogram() const;
    /// The display image of the last run (GL_RGBA8, sRGB-encoded; anti-aliased when display.aa ran).
    const gl::Texture& outputTexture() const;

    /// The settings of the methods and operators not in use (post/PipelineParameters.h reads and sets them).
    ParkedParameters& parkedParameters();
    /// The display's view (--view): the tone-mapped image, or the false-colour EV view or the metering
    /// view that then replaces it in run()'s result and outputTexture(); `legendStrip` draws the
    /// false-colour legend into the image.
    void setViewMode(ViewMode mode, bool legendStrip = false);
    ViewMode viewMode() const;
    /// The tone-mapped image of the last run, whatever the view mode, before anti-aliasing (GL_RGBA8,
    /// sRGB-encoded).
    const gl::Texture& toneMappedTexture() const;
    /// The HDR10 image of the last run (GL_RGBA32F, linear BT.2020 cd/m^2; tone/DisplayOutput.h), or
    /// nullptr when it ran for SDR (display.target).
    const gl::Texture* hdrOutputTexture() const;
    /// Whether the last run anti-aliased its display image (display.aa on, a scene frame, the tone-mapped view).
    bool antiAliased() const;
    /// Pixels the probe reads each run, from the picture's top-left corner (at most hd::kMaxProbes;
    /// empty: no probe pass); outside the frame they report "outside".
    void setProbePoints(std::vector<glm::ivec2> points);
    /// The input's row 0 is the picture's top (an image uploaded as read, as `tonemap` does); default
    /// false: GL's bottom-up frames. Places the legend strip and maps probe points.
    void setTopDownRows(bool topDown);
    /// A histogram that replaces the measured one (tonemap --histogram-in): its range and counts go
    /// into the histogram buffers instead of the range stage and the histogram method's; nullopt: measure.
    void setFedHistogram(std::optional<FedHistogram> histogram);
    /// What is known of the still picture being shown (its file's view and units: post/PostTypes.h), or
    /// nullopt for a live frame (the default). Operators that depend on it (Ward's pcond sampling) read it.
    void setPictureInfo(std::optional<PictureInfo> picture);
    const std::optional<PictureInfo>& pictureInfo() const;
    /// The scene's depth for this frame (the percentile operator's sky exclusion), the frame's size;
    /// nullptr (the default) when the frame has none (a still image). Must outlive the next run().
    void setSceneDepth(const gl::Texture* depth);
    /// Whether the frames are footage (a sequence of files: shots with cuts between them); the
    /// percentile operator detects cuts only there (ToneInputs::footage). Default false.
    void setFootage(bool footage);
    /// The newest probe records read back (a few frames late); nullopt until the first arrives.
    std::optional<ProbeSnapshot> latestProbe() const;
    /// Takes the probe records that have arrived (never waits; after a glFinish, the last run's).
    void pollProbe();

    /// The fused histogram (method "fused-lighting": the scene's deferred lighting pass bins the frame as it
    /// stores it). Whether this frame's source has such a producer (default: none). Without one the method
    /// is refused with kNeedsFusedProducer, and replaced by the default method if it is in use.
    void setFusedHistogramProducer(bool available);
    bool hasFusedHistogramProducer() const;
    /// Whether `method` can run here: its availability on this GPU and, for a method that needs a fused
    /// producer, the producer (the panels grey it out with the reason).
    Availability histogramAvailability(const HistogramMethod& method) const;
    /// Before the frame renders, with the fused method in use and a producer declared: writes this
    /// frame's params (the manual range, or the auto range smoothed up to the previous frame; after a
    /// reset the manual range), clears the fused outputs and returns what the producer fills (it must
    /// outlive the producer's pass); nullptr otherwise. `fovYDegrees`: Ward's foveal grid;
    /// `preExposure`: the k the frame will be stored with (ImageInput::preExposure; its 2^-k goes into
    /// the params' weights as run() puts it there; a run() with another k does not take the fused bins).
    FusedHistogramTarget* prepareFusedHistogram(glm::ivec2 frameSize, float fovYDegrees, int preExposure = 0);

    /// Uses an operator that is not in the registry (tests, tools); ignored when null.
    void setToneOperator(std::unique_ptr<ToneOperator> op);

    /// What the input file's header says about its units: a Radiance picture's (image::ImageF::radiance),
    /// nullopt for other files and the live scene (the default). With the input.units and
    /// input.cd_per_unit settings it decides luminanceUnits(); a change restarts the automatic range.
    void setInputRadiance(const std::optional<image::RadianceHeader>& header);
    const std::optional<image::RadianceHeader>& inputRadiance() const;
    /// The luminance definition every pass uses now (cd/m^2 per unit, weights; post/LuminanceUnits.h).
    const LuminanceUnits& luminanceUnits() const;
    /// The same with the last run's frame pre-exposure folded in (ImageInput::preExposure): what the
    /// passes got as weights and cd/m^2 per unit.
    const LuminanceUnits& frameUnits() const;

private:
    struct Impl;
    std::unique_ptr<Impl> mImpl;
};

}  // namespace post
