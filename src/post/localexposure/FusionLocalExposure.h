// FusionLocalExposure.h: the "fusion" local exposure in the pipeline (local_exposure.method=fusion;
// docs/TONE_OPERATORS.md, "Local exposure: fusion"): the exposure fusion pass (ExposureFusion.h, Mertens
// et al. 2007 after Unreal Engine 5.5's Fusion method) fed by the pipeline: the local_exposure.*
// settings mapped to post::FusionSettings (fusionSettingsFor), the pipeline's luminance weights (the
// frame's pre-exposure folded in), and the global exposure metered on the GPU after the curve
// (FusionMeter.comp: the curve's exposure, or for operators without one the histogram's mean log2 L at
// middle grey, as the bilateral method's mid), so the host never waits. The apply pass samples the map
// (LocalExposureApply.glsl, LOCAL_EXPOSURE 2, FusionSample.glsl).
// Limits: the map is the frame's (not the downsampled histogram input's); the exposure of a frame is
// this frame's curve's, so the first frame's equals every other's (no adaptation lag of its own).
#pragma once

#include "post/localexposure/ExposureFusion.h"
#include "tone/LocalExposureSettings.h"

namespace post {

/// The fusion pass's settings from the pipeline's: the contrast scales and the middle grey bias;
/// Unreal's other keys (detail strength, blurred blend, kernel size) belong to the bilateral method.
FusionSettings fusionSettingsFor(const LocalExposureSettings& s, const hd::LuminanceWeights& weights);

class FusionLocalExposure
{
public:
    FusionLocalExposure();
    /// Meters the exposure (`midFromCurve`: the curve's kCurveScale; else the histogram's mean) and runs
    /// the fusion pass on the frame; a profiler scope a sub-pass ("local-exposure/fusion/...").
    void run(PassContext& ctx,
             const ImageInput& hdr,
             const gl::Buffer& histogram,
             const gl::Buffer& params,
             const gl::Buffer& curve,
             const FusionSettings& settings,
             bool midFromCurve);
    const ExposureFusion& fusion() const { return mFusion; }
    /// The exposure the last run metered (log2; synchronous readback: --verify, tests).
    float readExposureLog2() const;
    /// The last run's settings.
    const FusionSettings& settings() const { return mSettings; }

private:
    ExposureFusion mFusion;
    gl::Program mMeterProgram;
    gl::Buffer mExposure;
    FusionSettings mSettings;
};

}  // namespace post
