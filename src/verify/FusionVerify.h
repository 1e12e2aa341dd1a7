// FusionVerify.h: --verify's check of the fusion local exposure (post::FusionLocalExposure) against its
// CPU reference (reference/ExposureFusion): the exposure metered on the GPU (FusionMeter.comp) against
// the same metering in double, the adjustment map (from the GPU's exposure) against ref::exposureFusion
// bit for bit, and what the picture check needs: the reference's per-pixel exposure as the apply pass
// samples the map (ref::sampleFusionAdjustment) or its view (local-exposure).
#pragma once

#include "verify/LocalExposureVerify.h"

namespace verify {

/// The metered exposure's tolerance (EV): the GPU sums the histogram in float in its own order.
inline constexpr double kFusionExposureToleranceEv = 1e-3;

/// `hdr`: the frame's RGBA floats (GL rows); `params`: the run's params words; `bins`: the GPU's
/// histogram (the frame-mean metering); `curveScale`: the curve's kCurveScale (the curve's metering).
LocalExposureCheck checkFusionLocalExposure(post::PostPipeline& pipeline,
                                            const std::vector<float>& hdr,
                                            glm::ivec2 size,
                                            const std::vector<std::uint32_t>& params,
                                            const std::vector<std::uint32_t>& bins,
                                            float curveScale);

}  // namespace verify
