// DisplayOutput.h: the display the pipeline forms its picture for (settings display.target and
// display.peak) and what the apply pass is told per dispatch (ApplyDisplay), shared by the GPU pass
// (post/TonemapApply) and its CPU reference (reference/Image, reference/HdrEncode).
//
// SDR: display-linear 0..1, sRGB-encoded into RGBA8 (unchanged). HDR10: each pixel's display value
// is scaled to absolute luminance (cd/m^2) for a display of `peak` cd/m^2, clamped to [0, peak],
// converted from Rec. 709 to BT.2020 primaries and kept as linear cd/m^2 in a float image; files
// encode it with SMPTE ST 2084 (PQ). How an operator's display value reaches cd/m^2 (HdrScaling):
// - scene-referred (exposure-based operators: their display curves and transforms), per channel:
//   max(203 x D(x), peak x D(x x 203 / peak)), D the SDR mapping of exposed colour x: the SDR
//   picture at BT.2408's reference white (203 cd/m^2) up to where the curve's shoulder starts, then
//   the same curve stretched so that its shoulder ends at the peak instead of at 1 (continuous,
//   monotonic, SDR's mid-tones kept exactly);
// - display-referred (equalize, Ward): the display value's [0, 1] spans [displayMin, peak] cd/m^2
//   (Ward's Ld_min .. Ld_max with Ld_max = the peak; equalize from 0).
#pragma once

#include "shared/HostDevice.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string_view>

namespace post {

enum class DisplayTarget : std::uint32_t { Sdr = 0, Hdr10 = 1 };

inline std::string_view toString(DisplayTarget target)
{
    return target == DisplayTarget::Hdr10 ? "hdr10" : "sdr";
}
inline std::optional<DisplayTarget> parseDisplayTarget(std::string_view text)
{
    if (text == "sdr")
        return DisplayTarget::Sdr;
    if (text == "hdr10")
        return DisplayTarget::Hdr10;
    return std::nullopt;
}

/// ITU-R BT.2408 HDR reference white ("graphics white"), cd/m^2: where SDR's white lands in HDR10.
inline constexpr float kHdrReferenceWhite = hd::kHdrReferenceWhite;
/// The accepted display.peak range, cd/m^2 (PQ ends at 10000; below SDR white an HDR peak is meaningless).
inline constexpr float kMinDisplayPeak = 100.0f;
inline constexpr float kMaxDisplayPeak = 10000.0f;

/// The false-colour view of the HDR10 output: its luminance (BT.2020 weights) in cd/m^2, banded by
/// whole EV of log2 cd/m^2 over this range (band k: 2^k .. 2^(k+1) cd/m^2).
inline constexpr float kHdrViewLogMin = -4.0f;
inline constexpr float kHdrViewLogMax = 14.0f;
inline constexpr float kBt2020LumaR = 0.2627f;  ///< ITU-R BT.2020 luminance weights
inline constexpr float kBt2020LumaG = 0.6780f;
inline constexpr float kBt2020LumaB = 0.0593f;

struct DisplaySettings
{
    DisplayTarget target = DisplayTarget::Sdr;
    float peak = 1000.0f;  ///< cd/m^2, the HDR display's peak (display.peak)
    bool hdr() const { return target == DisplayTarget::Hdr10; }
    friend bool operator==(const DisplaySettings&, const DisplaySettings&) = default;
};

/// How an operator's display value (0..1) reaches cd/m^2 on an HDR display (see the file comment).
struct HdrScaling
{
    bool sceneReferred = true;
    float displayMin = 0.0f;  ///< (display-referred) cd/m^2 of display value 0 (Ward's Ld_min)
};

/// What the apply pass is told for one dispatch.
struct ApplyDisplay
{
    std::uint32_t transform = 0;   ///< post::displayTransformCode: 0 = the curve's luminance path
    bool hdr = false;              ///< HDR10: write linear BT.2020 cd/m^2 (and an SDR preview)
    float highlightLookup = 0.0f;  ///< (hdr) > 0: also look up at Lw x this, times the peak (scene-referred)
    float nitsScale = 1.0f;        ///< (hdr) display value to cd/m^2
    float nitsOffset = 0.0f;       ///< (hdr) cd/m^2 added to every lit pixel (display-referred black)
    float peak = 1.0f;             ///< (hdr) cd/m^2 clamp
};

inline ApplyDisplay applyDisplayFor(std::uint32_t transform, const HdrScaling& scaling, const DisplaySettings& display)
{
    ApplyDisplay a;
    a.transform = transform;
    if (!display.hdr())
        return a;
    const float peak = std::clamp(display.peak, kMinDisplayPeak, kMaxDisplayPeak);
    a.hdr = true;
    a.peak = peak;
    if (scaling.sceneReferred) {
        a.highlightLookup = kHdrReferenceWhite / peak;
        a.nitsScale = kHdrReferenceWhite;
    } else {
        const float low = std::clamp(scaling.displayMin, 0.0f, peak);
        a.nitsScale = peak - low;
        a.nitsOffset = low;
    }
    return a;
}

}  // namespace post
