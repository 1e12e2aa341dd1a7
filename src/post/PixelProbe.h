// PixelProbe.h: the pixel probe: what the pipeline did to a few chosen pixels, read back a few
// frames late without ever stalling the frame.
//
// Each frame with probes, one tiny compute pass (shaders/post/PixelProbe.comp, one invocation per
// probe, up to hd::kMaxProbes) writes a record per texel (hd::kProbe* layout): scene-linear RGB, the
// luminance in cd/m^2 and log2 L the histogram uses (hd::hdLuminanceWeighted with the params'
// weights, hd::hdLog2), the histogram bin exactly
// as the histogram methods bin it (hd::hdBinOf with the GPU's params: the bin of the full-resolution
// pixel, also when the histogram reads a downsampled frame), the display luminance through the
// current tone curve (the apply pass's lookup, without local adaptation), the tone-mapped output's
// sRGB bytes and the false-colour band. An AsyncReadback ring returns the records frames later;
// until the first arrives there is nothing to show ("pending").
#pragma once

#include "post/AsyncReadback.h"
#include "post/PostTypes.h"

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

#include <array>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace post {

struct ProbeSample
{
    glm::ivec2 texel{0};       ///< bottom-up texel coordinates, as GL stores the frame
    glm::ivec2 frameSize{0};   ///< the frame the probe read
    bool inside = false;       ///< texel within the frame; nothing else is meaningful otherwise
    bool logValid = false;     ///< luminance finite and >= hd::kMinLuminance: log2Luminance is set
    bool topDownRows = false;  ///< the frame's row 0 is the picture's top (an image uploaded as read)
    glm::vec3 rgb{0.0f};
    float luminance = 0.0f;      ///< cd/m^2 (hd::hdLuminanceWeighted under the pipeline's post::LuminanceUnits)
    float log2Luminance = 0.0f;  ///< EV = log2 L (hd::hdLog2); EV100 = EV + hd::kEv100Offset
    int bin = 0;                 ///< hd::hdBinOf: 0..binCount-1 or a hd::kBin* code
    std::uint32_t binCount = 0;  ///< the histogram's bins and range when the probe ran
    float logMin = 0.0f;
    float logMax = 0.0f;
    float displayLuminance = 0.0f;        ///< through the tone curve, display-linear 0..1
    std::array<std::uint8_t, 4> shown{};  ///< the tone-mapped output's sRGB bytes
    int band = 0;                         ///< false-colour band or hd::kFalseColourBand* code
    std::uint32_t falseColour = 0;        ///< 0xRRGGBB
    /// A local operator's tile curves were bound (hd::kProbeTiles): the pixel's four tile curves at its
    /// L (order (x1,y1) (x2,y1) (x1,y2) (x2,y2), as describeProbeTiles lists the tiles), their bilinear
    /// blend and the global curve's value, each clamped to [0, 1] as the tiled apply clamps them.
    bool tiles = false;
    std::array<float, 4> tileValues{};
    float tileLocal = 0.0f;
    float tileGlobal = 0.0f;

    /// Top-left image coordinates (as image viewers and --probe say).
    glm::ivec2 topLeft() const { return {texel.x, topDownRows ? texel.y : frameSize.y - 1 - texel.y}; }
};

struct ProbeSnapshot
{
    std::uint64_t frame = 0;  ///< the frame the records were written in
    std::vector<ProbeSample> samples;
};

/// Decodes `count` records (hd::kProbeRecordWords words each) of the probe buffer.
std::vector<ProbeSample> decodeProbeRecords(std::span<const std::uint32_t> words,
                                            std::size_t count,
                                            bool topDownRows = false);
/// One line: "x,y: rgb ..., L ... cd/m^2, EV ... (EV100 ...), bin .../..., display ..., shown ..., band ...";
/// `unitsNote` (post::LuminanceUnits::probeNote(), e.g. "1 unit = 89.5 cd/m^2, Radiance picture")
/// follows the luminance in parentheses when it is not empty.
std::string describeProbeSample(const ProbeSample& sample, std::string_view unitsNote = {});
/// "bin 115 of 256" or what a negative hdBinOf code means ("NaN", "below the range"...).
std::string describeBin(int bin, std::uint32_t binCount);

class PixelProbe
{
public:
    PixelProbe();

    /// Records `texels` (texture coordinates; at most hd::kMaxProbes, the rest ignored) of `hdr`, its bins
    /// under `params`, display values through `curve` and the bytes of `shown` (GL_RGBA8, hdr's size),
    /// and queues the readback; with `tileCurves` (a local operator's tile-curve buffer) also the
    /// pixel's tile curve values. Nothing happens for an empty list. `topDownRows` travels with the
    /// records for ProbeSample::topLeft().
    void run(PassContext& ctx,
             const ImageInput& hdr,
             const gl::Texture& shown,
             const gl::Buffer& params,
             const gl::Buffer& curve,
             std::span<const glm::ivec2> texels,
             bool topDownRows = false,
             const gl::Buffer* tileCurves = nullptr);
    /// The newest records that have arrived since the last call; never waits.
    std::optional<ProbeSnapshot> poll();

private:
    gl::Program mProgram;
    gl::Buffer mRecords;
    AsyncReadback mReadback;
};

}  // namespace post
