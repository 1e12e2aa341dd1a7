// ExposureFusion.h: the CPU reference of the "fusion" local exposure (post/localexposure/ExposureFusion.h:
// exposure fusion, Mertens, Kautz, Van Reeth 2007, as a local tone mapper, after Unreal Engine 5.5's
// Fusion method): the same base (the mean EV of each reduction x reduction block), the same three
// synthetic exposures, weights and normalisation, the same Burt-Adelson pyramids, levels and collapse,
// each value computed by the same shared/ExposureFusion.h functions in the same order as the shaders,
// so the GPU's adjustment map is expected bit for bit (tests/post/ExposureFusionGlTest.cpp).
// Limits: one thread; a 4K frame takes about a second.
#pragma once

#include "tone/ExposureFusionSettings.h"

#include <vector>

namespace ref {

struct FusionResult
{
    int width = 0, height = 0;  ///< the adjustment map's size: the pyramid's base
    int levels = 0;
    int reduction = 1;
    post::FusionBracket bracket;
    std::vector<float> adjustment;  ///< log2 exposure adjustment per base texel, row 0 first
    std::vector<float> baseEv;      ///< each base texel's EV relative to middle grey (the block mean)
    std::vector<float> fused;       ///< the collapsed pyramid at the base (the fused display value)

    float at(int x, int y) const { return adjustment[std::size_t(y) * std::size_t(width) + std::size_t(x)]; }
};

/// The adjustment map of a `width` x `height` RGBA frame (`rgba`: 4 floats a pixel, row 0 first; as
/// the GPU reads it: an RGBA16F frame's values as halves) at `exposureLog2`, the global exposure.
FusionResult exposureFusion(const float* rgba,
                            int width,
                            int height,
                            float exposureLog2,
                            const post::FusionSettings& settings);

/// The adjustment at frame pixel (x, y) as the apply pass samples the map: bilinear, clamped to the
/// edge, at map coordinates ((x + 0.5) / reduction - 0.5, (y + 0.5) / reduction - 0.5) (the GL texture
/// at uv = (x + 0.5, y + 0.5) / (reduction x map size)). In double: the GPU's filter rounds its weights.
double sampleFusionAdjustment(const FusionResult& result, int x, int y);

}  // namespace ref
