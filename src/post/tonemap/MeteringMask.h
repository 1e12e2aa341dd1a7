// MeteringMask.h: metering masks for the percentile operator: which pixels its percentiles see, and
// how much each counts.
//
// Technique: a weighted log-luminance histogram. Each pixel of the histogram image goes to the bin
// the plain histogram gives it (hdBinOf) and adds a weight w in [0, 1] there, quantised to 16 bits
// (round(w * 65535), hd::hdQuantiseMeteringWeight; Bevy quantises to 16 levels, this keeps the float
// weights of an EXR mask to 1/65535). The bins are summed exactly in 64 bits; their CDF, normalised
// to 2^30, replaces the pipeline's CDF in PercentileMeter.comp, which needs no change. Weights
// (p = pixel centre in picture pixels, x from the left, y from the top; W x H the image):
//   average         w = 1 (no pass: the pipeline's CDF, byte-identical to no mask)
//   centre-weighted w = clamp(1 - |p - (W/2, H/2)| / (0.5 (W + H)), 0, 1)   HDRP ExposureCommon.hlsl WeightSample
//   ellipse         w = clamp(1 - t^(1/softness), 0, 1), t = |(p - c) / r|, c = centre * (W, H), r = radii * (W, H),
//                   and w = 0 unless 2^gateMin < L < 2^gateMax          HDRP's procedural mask and its EV gate
//   texture         w = clamp(R of the nearest mask texel, 0, 1) (NaN 0); PNG/8-bit: value / 255, EXR/HDR: as stored
//   sky exclusion   w = 0 where the frame's depth at the pixel is >= 1.0 (the far plane: nothing drawn),
//                   as CShade #22 and secondlife #1046 ask; multiplies any mask.
// With --downsample the weights are those of the smaller histogram image (the same shapes in
// fractions of the picture) and the depth and mask texels are the nearest to each pixel centre.
// Limits: sqrt and pow may differ between GPU and CPU in the last bit, so a weight may differ by one
// 1/65535 step from ref::meteringWeight; gate EV is log2 of the histogram's luminance axis (not
// EV100); the overlay evaluates the mask at the frame's size, so with --downsample it shows the
// shape, not the exact weights of the smaller image; the texture is sampled nearest (no filtering).
#pragma once

#include "post/PostTypes.h"
#include "tone/ToneSettings.h"

#include <filesystem>
#include <string>
#include <vector>

namespace post {

/// A mask texture's weights as loaded (first channel, row 0 = picture top), before clamping.
struct MeteringWeights
{
    int width = 0;
    int height = 0;
    std::vector<float> values;
};

/// Loads the first channel of an image as weights: OpenEXR and Radiance .hdr as stored, 8-bit
/// formats as value / 255 (not sRGB-decoded). Throws image::ImageError naming the file.
MeteringWeights loadMeteringWeights(const std::filesystem::path& path);
/// Empty when `path` is empty or loads; otherwise the one-line problem (for --set's check).
std::string checkMeteringTexture(std::string_view path);

/// What the metering passes read from one frame.
struct MeteringFrame
{
    ImageInput frame;                    ///< the full-resolution frame (the overlay's size)
    ImageInput histogramImage;           ///< the (possibly downsampled) image the histogram was built from
    const gl::Buffer& params;            ///< the histogram's params (range, bins, policy)
    const gl::Texture* depth = nullptr;  ///< the scene's depth at the frame's size, or nullptr
    bool topDownRows = false;            ///< texel row 0 is the picture's top
};

class MeteringMask
{
public:
    MeteringMask();
    ~MeteringMask();

    /// True when `settings` weigh pixels differently (a mask other than average, or sky exclusion
    /// that can run on this frame); false: use the pipeline's CDF.
    bool active(const MeteringSettings& settings, const MeteringFrame& frame);
    /// Builds the weighted histogram and its normalised CDF (uint[hd::kMaxHistogramBins], last entry
    /// hd::kMeteringCdfTotal, or all zero when nothing weighs anything) on the GPU; returns the CDF.
    const gl::Buffer& run(PassContext& ctx, const MeteringSettings& settings, const MeteringFrame& frame);
    /// Writes the metering view of `toned` (GL_RGBA8, the frame's size) into `output` (same).
    void overlay(PassContext& ctx,
                 const MeteringSettings& settings,
                 const MeteringFrame& frame,
                 const gl::Texture& toned,
                 gl::Texture& output);

    /// Why part of `settings` is not applied (texture missing or damaged, no depth) on the last frame
    /// active() saw; empty when all is.
    std::string problem(const MeteringSettings& settings) const;
    /// Why sky exclusion could not run on the last frame active() saw (no depth); empty when it could.
    const std::string& skyUnavailable() const { return mSkyUnavailable; }

    /// For tests: uint[2 * bins] (lo, hi words of each bin's weight), the normalised CDF, and the total
    /// weight (lo, hi) of the last run.
    const gl::Buffer& weightedBins() const { return mWeighted; }
    const gl::Buffer& cdf() const { return mCdf; }
    const gl::Buffer& totalWeight() const { return mTotal; }

private:
    void loadTexture(const std::string& path);
    std::uint32_t effectiveMode(const MeteringSettings& settings) const;
    void setUniforms(gl::Program& program,
                     const MeteringSettings& settings,
                     const MeteringFrame& frame,
                     glm::ivec2 imageSize);

    gl::Program mHistogram;
    gl::Program mScan;
    gl::Program mOverlay;
    gl::Buffer mWeighted;
    gl::Buffer mCdf;
    gl::Buffer mTotal;
    gl::Texture mMaskTexture;
    gl::Texture mPlaceholder;  ///< 1x1 bound where no mask or depth texture is used
    std::string mLoadedPath;   ///< the path mMaskTexture (or mTextureError) belongs to
    std::string mTextureError;
    std::string mSkyUnavailable;
};

}  // namespace post
