// LocalExposureVerify.h: --verify's check of the bilateral local exposure (post::BilateralLocalExposure)
// against its CPU reference (reference/LocalExposureRef): the grid word for word, the blurred log2 L per
// tile and the frame's mean within kLocalExposureBlurToleranceEv, and what the picture check needs: the
// reference's per-pixel local exposure (for ref::applyCurve) or the view of a term.
#pragma once

#include "post/PostPipeline.h"

#include <cstdint>
#include <string>
#include <vector>

namespace verify {

/// The blur's tolerance (EV): the GPU sums in float in its own order, the reference in double.
inline constexpr double kLocalExposureBlurToleranceEv = 1e-3;

struct LocalExposureCheck
{
    bool ok = true;
    std::string text;                ///< lines for the report
    std::vector<float> ev;           ///< the reference's local exposure log2 per pixel
    std::vector<std::uint8_t> view;  ///< the reference's view (when the last run showed one)
};

/// `hdr`: the frame's RGBA floats (GL rows); `params`: the run's params words; `curveScale`: the applied
/// curve's kCurveScale (mid for operators whose curve carries the exposure).
LocalExposureCheck checkLocalExposure(post::PostPipeline& pipeline,
                                      const std::vector<float>& hdr,
                                      glm::ivec2 size,
                                      const std::vector<std::uint32_t>& params,
                                      float curveScale);

}  // namespace verify
