// LocalExposureMean.h: the frame's mean local exposure (log2) of the last run, bilateral or fusion,
// from the CPU reference on the run's own inputs (the frame, the params, the histogram, the curve) as
// --verify computes it per pixel (LocalExposureVerify, FusionVerify): `bench flicker`'s local exposure
// figure is the flicker of this value over the frames. A synchronous readback of the frame: a
// measurement run's tool, never the app's frame path.
#pragma once

#include "post/PostPipeline.h"

#include <optional>

namespace verify {

/// The mean over every pixel of the local exposure's log2 (0 where the luminance is not usable, as the
/// apply pass leaves it), nullopt when the last run applied no local exposure.
std::optional<double> meanLocalExposureEv(post::PostPipeline& pipeline);

}  // namespace verify
