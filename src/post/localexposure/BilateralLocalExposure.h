// BilateralLocalExposure.h: Unreal Engine 5's "Bilateral" local exposure (its post-process settings
// LocalExposureHighlightContrastScale, ...ShadowContrastScale, ...DetailStrength,
// ...BlurredLuminanceBlend, ...BlurredLuminanceKernelSizePercent, ...MiddleGreyBias; the blurred
// luminance blend after Patry, "Real-Time Samurai Cinema", Advances in Real-Time Rendering 2021), as
// hdrlab builds it (docs/TONE_OPERATORS.md, "Local exposure"):
//  1. the grid (shared/LocalExposure.h: 64 x 64-pixel tiles x 32 bins of log2 L over the histogram's
//     range, a count and a sum of in-bin positions per cell, integers) is built in the histogram pass's
//     own read of the frame (fusedTarget(): histogram/SharedAtomic.comp, LOCAL_EXPOSURE_GRID) or, as
//     Unreal runs it and where the histogram method cannot, by a pass of its own (buildSeparate():
//     localexposure/GridBuild.comp);
//  2. blur(): the blurred log2 L from the grid (localexposure/GridBlur.comp: each tile's mean log2 L, a
//     Gaussian over the tiles with mirrored borders, one workgroup) and the frame's mean log2 L;
//  3. the apply pass (tonemap/Apply.comp LOCAL_EXPOSURE 1, localexposure/LocalExposureApply.glsl) slices
//     the grid per pixel and multiplies the luminance by the local exposure before the curve.
// CPU reference: reference/LocalExposureRef. Limits: the blur works at the grid's resolution (64-pixel
// boxes, then the Gaussian), so kernels below about two tiles are coarser than Unreal's; the grid is
// built from the full-resolution frame only (a downsampled histogram input uses the separate pass).
#pragma once

#include "post/AsyncReadback.h"
#include "post/PostTypes.h"
#include "post/TonemapApply.h"
#include "tone/LocalExposureSettings.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace post {

/// The terms at one probe point (localexposure/Probe.comp, the apply pass's arithmetic).
struct LocalExposureProbe
{
    bool valid = false;  ///< inside the frame, luminance usable
    float logL = 0.0f;
    float bilateral = 0.0f;
    float blurred = 0.0f;
    float base = 0.0f;
    float mid = 0.0f;
    float ev = 0.0f;  ///< the local exposure's log2
    int method = 1;   ///< Probe.comp's LOCAL_EXPOSURE: 1 bilateral, 2 fusion (log2 L and ev only)
};
/// "local exposure +0.42 EV (log2 L 3.10, bilateral 2.95, blurred 2.40, base 2.62, mid 1.80)".
std::string describeLocalExposureProbe(const LocalExposureProbe& probe);

class BilateralLocalExposure
{
public:
    BilateralLocalExposure();
    /// The grid's tiles for a frame of `size`.
    static glm::ivec2 tilesFor(glm::ivec2 size);

    /// Sizes and clears the grid for a frame of `size` and returns the histogram pass's target.
    LocalExposureGridTarget& fusedTarget(glm::ivec2 size);
    /// Builds the grid of `image` under `params` (range, luminance weights) in a pass of its own.
    void buildSeparate(PassContext& ctx, const ImageInput& image, const gl::Buffer& params);
    /// The blurred log2 L per tile and the frame's mean, from the grid (after either build).
    void blur(PassContext& ctx, const gl::Buffer& params, glm::ivec2 size, float kernelSizePercent);

    const gl::Buffer& grid() const { return mGrid; }
    const gl::Buffer& blurBuffer() const { return mBlur; }
    glm::ivec2 tiles() const { return mTiles; }
    /// The last build was the histogram pass's (true) or the separate pass's.
    bool lastFused() const { return mLastFused; }
    /// uint words of the grid (count, sum of q per cell, tile-major): a synchronous readback (verify, tests).
    std::vector<std::uint32_t> readGrid() const;
    /// float words of the blur buffer: header, then the blurred log2 L per tile.
    std::vector<float> readBlur() const;

    /// Records the terms at `texels` (texture coordinates, at most hd::kMaxProbes) with the apply pass's
    /// settings `in` and the frame's `curve` (mid), and queues their readback (never waits).
    void probe(PassContext& ctx,
               const ImageInput& hdr,
               const gl::Buffer& params,
               const gl::Buffer& curve,
               std::span<const glm::ivec2> texels,
               const LocalExposureInput& in);
    /// The newest probe records that have arrived (kept until newer ones come); empty before the first.
    const std::vector<LocalExposureProbe>& latestProbe();
    /// The records latestProbe() kept.
    const std::vector<LocalExposureProbe>& probeRecords() const { return mLatestProbe; }
    /// Forgets the probe records (local exposure went off).
    void clearProbe() { mLatestProbe.clear(); }

private:
    void size(glm::ivec2 frame);

    gl::Buffer mGrid;
    gl::Buffer mBlur;
    glm::ivec2 mTiles{0};
    LocalExposureGridTarget mTarget;
    gl::Program mBuildProgram;
    gl::Program mBlurProgram;
    gl::Program mProbeProgram, mFusionProbeProgram;
    gl::Buffer mProbeRecords;
    AsyncReadback mProbeReadback;
    std::vector<LocalExposureProbe> mLatestProbe;
    bool mLastFused = false;
};

}  // namespace post
