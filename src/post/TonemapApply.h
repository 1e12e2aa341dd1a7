// TonemapApply.h: the one apply pass every tone operator shares, and the display histogram.
//
// Apply: each pixel's world luminance Lw (cd/m^2 under the params' luminance weights) goes through
// the curve buffer (hd::kCurve* layout: a LUT of display luminance over log2 Lw, linear
// interpolation, linear in Lw below the first sample, clamped above the last; or Ld = scale * Lw),
// RGB is scaled by Ld/Lw (Lw back in the input's units, so times cd/m^2 per unit; chromaticity
// kept), clamped to [0, 1], sRGB-encoded (IEC 61966-2-1 OETF) and stored as GL_RGBA8 UNORM (so a
// readback gives PNG bytes). Three-channel curves map R, G, B through their own LUTs (at the channel
// times cd/m^2 per unit). Lw NaN or <= 0 gives black, Lw = +Inf the curve's top value as grey:
// never NaN. CPU reference: ref::applyCurve. With an RGB display transform (AgX, PBR Neutral) the
// exposed RGB goes through the transform instead of the ratio; with HDR10 the pass also writes linear
// BT.2020 cd/m^2 into an RGBA32F image (tone/DisplayOutput.h; reference ref::applyCurveHdr).
// Display histogram: 64 bins of the displayed image's luma (Rec. 709 weights on the encoded values:
// the display's sRGB output, whatever the input's units).
#pragma once

#include "post/PostTypes.h"
#include "tone/DisplayOutput.h"

#include <cstdint>
#include <map>
#include <tuple>
#include <utility>

namespace post {

/// A curve buffer (float[hd::kCurveBufferWords]) labelled for debuggers.
gl::Buffer createCurveBuffer(std::string_view label);

/// The per-pixel local mean log2 luminance (float[w*h], row 0 first) for local adaptation.
struct LocalMeanInput
{
    const gl::Buffer& localMean;
    bool view = false;  ///< show the local mean as grey (over the params' range) instead of the tone-mapped frame
};

/// The tile curves of a local histogram operator (shared/LocalTiles.h layout; ToneOperator::localTiles).
struct TileCurvesInput
{
    const gl::Buffer& tileCurves;
    bool viewGain = false;  ///< show log2(local / global display value) instead of the tone-mapped frame
    bool viewGrid = false;  ///< draw the tile grid's edges over the tone-mapped frame
};

/// Local exposure in the apply pass (localexposure/LocalExposureApply.glsl): bilateral (the grid and
/// the blurred luminance of post::BilateralLocalExposure) or fusion (a log2 exposure adjustment texture,
/// sampled bilinearly; post/localexposure/ExposureFusion). Not with the tiled modes.
struct LocalExposureInput
{
    std::uint32_t method = 1;                 ///< Apply.comp's LOCAL_EXPOSURE: 1 bilateral, 2 fusion
    const gl::Buffer* grid = nullptr;         ///< bilateral: uint[tiles * 32 * 2]
    const gl::Buffer* blur = nullptr;         ///< bilateral: the blur buffer (GridBlur.comp)
    glm::ivec2 tiles{0};                      ///< bilateral: the grid's tiles
    const gl::Texture* adjustment = nullptr;  ///< fusion: R16F/R32F log2 adjustment, any size
    glm::vec2 uvScale{1.0f};                  ///< fusion: ExposureFusion::uvScale (FusionSample.glsl)
    std::uint32_t view = 0;                   ///< hd::kLocalExposureView*
    std::uint32_t midSource = 0;              ///< hd::kLocalExposureMidFrom*
    float highlightContrastScale = 1.0f;
    float shadowContrastScale = 1.0f;
    float detailStrength = 1.0f;
    float blurredLuminanceBlend = 0.6f;
    float middleGreyBias = 0.0f;
};

/// Sets LocalExposureApply.glsl's uniforms (locations 40..45) on `program` and binds the grid and blur
/// (bilateral) or the adjustment texture (fusion), for a frame of `size`.
void bindLocalExposure(const gl::Program& program, const LocalExposureInput& in, glm::ivec2 size);

class TonemapApply
{
public:
    static constexpr std::uint32_t kDisplayBins = 64;

    /// Writes the display image of `hdr` through `curve` into `output` (GL_RGBA8, same size as hdr),
    /// with the luminance definition of `params` (uint[hd::kHistogramParamsWords]); with `local`, the
    /// curve lookup is shifted by the local mean (hd::kCurveLocal*) or, with `local->view`, the local
    /// mean itself is shown; with `tiles` (SDR only), the pixel's four tile curves blended (kApplyTiles)
    /// or the local gain view. `display`: the dispatch's transform and HDR10 scaling; with display.hdr,
    /// `hdrOutput` (GL_RGBA32F, the input's size) receives linear BT.2020 cd/m^2 and `output` the SDR preview.
    void apply(PassContext& ctx,
               const ImageInput& hdr,
               const gl::Buffer& params,
               const gl::Buffer& curve,
               gl::Texture& output,
               const LocalMeanInput* local = nullptr,
               const ApplyDisplay& display = {},
               gl::Texture* hdrOutput = nullptr,
               const TileCurvesInput* tiles = nullptr,
               const LocalExposureInput* localExposure = nullptr);
    /// Counts the luma of `display` (RGBA8) into `bins` (uint[kDisplayBins], cleared here).
    void buildDisplayHistogram(PassContext& ctx, const gl::Texture& display, gl::Buffer& bins);

private:
    /// Apply.comp per (HDR10, DISPLAY_TRANSFORM, LOCAL_EXPOSURE)
    std::map<std::tuple<bool, std::uint32_t, std::uint32_t>, gl::Program> mPrograms;
    gl::Program mDisplayHistogram;
};

}  // namespace post
