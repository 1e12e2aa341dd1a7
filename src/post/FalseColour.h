// FalseColour.h: the false-colour EV view, a view mode that replaces the tone-mapped image.
//
// Each pixel's luminance (hd::hdLuminance, as the histogram takes it) is coloured by its band of
// whole EV (EV = log2 L in cd/m^2, the histogram's axis) over the histogram's current range, read
// from the params buffer on the GPU (so an automatic range needs no readback): one band per EV from
// floor(logMin) to ceil(logMax) (several EV per band past hd::kFalseColourMaxBands), Turbo-like
// colours, NaN/Inf/negative magenta, zero and under-range black, over-range white
// (hd::hdFalseColourOf; CPU reference ref::falseColour, the same bytes). Optionally the bottom
// hd::hdFalseColourLegendRows(height) rows show a labelled legend strip for headless screenshots.
// Cost: one read and one write per pixel (shaders/post/FalseColour.comp).
#pragma once

#include "post/PostTypes.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace post {

/// Metering: the tone-mapped image darkened by the percentile operator's metering weights
/// (post/tonemap/MeteringMask.h; weight 0 tinted blue).
/// LocalGain: the local histogram operators' log2(local / global display value) per pixel (grey ramp).
/// LocalTiles: a local operator's picture with its tile grid drawn over it.
/// LocalBase, LocalBlurred, LocalDetail, LocalExposure: the bilateral local exposure's terms as grey
/// (Unreal's "Visualize Local Exposure"; localexposure/LocalExposureApply.glsl).
enum class ViewMode {
    ToneMapped,
    FalseColour,
    Metering,
    LocalGain,
    LocalTiles,
    LocalBase,
    LocalBlurred,
    LocalDetail,
    LocalExposure
};

/// "tonemapped" / "false-colour" / "metering" / "local-gain" / "local-tiles" / "local-base" /
/// "local-blurred" / "local-detail" / "local-exposure" (the --view values).
std::string_view viewModeName(ViewMode mode);
std::optional<ViewMode> parseViewMode(std::string_view text);

/// One band of the ramp for legends: EV range [evLow, evHigh) and its colour 0xRRGGBB.
struct FalseColourBand
{
    int evLow = 0;
    int evHigh = 0;
    std::uint32_t rgb = 0;
};
/// The bands of the ramp over the histogram range [logMin, logMax] (hd::hdFalseColourBandCount of them).
std::vector<FalseColourBand> falseColourBands(float logMin, float logMax);

class FalseColour
{
public:
    /// Writes the false-colour view of `hdr` into `output` (GL_RGBA8, the input's size) over the
    /// range in `params` (uint[hd::kHistogramParamsWords]); `legendStrip`: draw the strip at the
    /// picture's bottom: the texture's first rows, or its last ones where `topDownRows`.
    void run(PassContext& ctx,
             const ImageInput& hdr,
             const gl::Buffer& params,
             gl::Texture& output,
             bool legendStrip,
             bool topDownRows = false);

private:
    gl::Program mProgram;
};

}  // namespace post
