// FalseColourRef.h: CPU reference of the false-colour EV view (post/FalseColour, FalseColour.comp)
// without its legend strip: hd::hdFalseColourOf of each pixel's luminance under `weights` (the
// params' hd::kParamLuma* words), so the bytes match the GPU's exactly.
#pragma once

#include "shared/HostDevice.h"

#include <cstdint>
#include <vector>

namespace ref {

/// RGBA8 (alpha 255), rows in the input's order, of an RGBA float image over the range [logMin, logMax].
std::vector<std::uint8_t> falseColour(const float* rgba,
                                      int width,
                                      int height,
                                      float logMin,
                                      float logMax,
                                      const hd::LuminanceWeights& weights = {});

}  // namespace ref
