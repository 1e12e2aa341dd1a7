// ToneSettings.h: the plain settings of the four tone operators (no GL), shared by the GPU operators,
// their CPU references (src/reference/Tone*) and the tools, so a settings snapshot means the same
// thing on both sides. sanitize*() turn absurd or non-finite values into usable ones (documented
// ranges) so that bad input never reaches a shader.
#pragma once

#include "tone/CompensationCurve.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>

namespace post {

/// The display curve applied after an exposure (percentile and exposure operators). Clamp to ACES fit
/// map luminance through the curve LUT (the apply pass keeps chromaticity); AgX and PBR Neutral are
/// per-channel RGB transforms the apply pass runs on the exposed RGB (isRgbTransform; the LUT then
/// holds their grey response, for the curve view, the probe and --verify's curve check).
enum class DisplayCurve : std::uint32_t {
    Clamp = 0,       ///< Ld = min(x, 1)
    Reinhard = 1,    ///< Ld = x (1 + x / W^2) / (1 + x), W = white (0 = infinite: x / (1 + x)), Reinhard et al. 2002
    Hable = 2,       ///< Hable's "Uncharted 2" filmic curve, white 11.2, no exposure bias
    AcesFit = 3,     ///< Narkowicz 2015 rational fit of the ACES RRT+ODT, clamped to [0, 1]
    AgX = 4,         ///< Sobotka's AgX (Blender's base look): inset, log2 over 16.5 EV, sigmoid, outset
    AgXPunchy = 5,   ///< AgX with the punchy look (ASC CDL power 1.35, saturation 1.4)
    PbrNeutral = 6,  ///< Khronos PBR Neutral (start of compression 0.76, desaturation 0.15)
};
inline constexpr int kDisplayCurveCount = 7;
/// Whether the curve is a per-channel RGB transform of the exposed colour (not a luminance curve).
inline constexpr bool isRgbTransform(DisplayCurve curve)
{
    return curve == DisplayCurve::AgX || curve == DisplayCurve::AgXPunchy || curve == DisplayCurve::PbrNeutral;
}
/// The apply pass's transform code (ToneTraits::displayTransform): the curve's code for an RGB
/// transform, 0 (the luminance LUT path) otherwise.
inline constexpr std::uint32_t displayTransformCode(DisplayCurve curve)
{
    return isRgbTransform(curve) ? std::uint32_t(curve) : 0u;
}
inline std::string_view toString(DisplayCurve curve)
{
    switch (curve) {
        case DisplayCurve::Clamp:
            return "clamp";
        case DisplayCurve::Reinhard:
            return "reinhard";
        case DisplayCurve::Hable:
            return "hable";
        case DisplayCurve::AcesFit:
            return "aces-fit";
        case DisplayCurve::AgX:
            return "agx";
        case DisplayCurve::AgXPunchy:
            return "agx-punchy";
        case DisplayCurve::PbrNeutral:
            return "pbr-neutral";
    }
    return "?";
}

struct DisplayCurveSettings
{
    DisplayCurve curve = DisplayCurve::Reinhard;
    float reinhardWhite = 0.0f;  ///< exposed luminance shown as white; 0 = none (plain x / (1 + x))
    friend bool operator==(const DisplayCurveSettings&, const DisplayCurveSettings&) = default;
};

// ---- equalize ----------------------------------------------------------------------------------
struct EqualizeSettings
{
    bool perChannel = false;     ///< three histograms (R, G, B) and a 3-channel curve instead of luminance
    bool encodedOutput = false;  ///< treat the equalized value as an sRGB-encoded level (curve = sRGB EOTF of it)
};

/// Display value of a uniform (one occupied bin) or empty histogram: every sample gets 0.5, the
/// value equalization gives the median (an equalized image has its median at mid display range).
inline constexpr float kEqualizeDegenerateValue = 0.5f;

// ---- percentile --------------------------------------------------------------------------------
enum class PercentileMetering : std::uint32_t {
    Key = 0,          ///< the p-th percentile goes to the key, limited by the high percentile and white point
    BandAverage = 1,  ///< the mean log2 L between a low and a high percentile goes to the key (UE/Unity style)
};

/// How the exposure moves toward its target each frame. The default integrates the UE/Bevy scheme
/// exactly (frame-rate independent); the others are the engines' own per-frame steps, so the engine
/// presets (EnginePresets.h) follow each engine's trajectory (research/engines.md, sections a and b).
enum class AdaptationCurve : std::uint32_t {
    LinearThenExponential = 0,  ///< linear beyond the transition, exp(-speed dt / transition) within, exact over dt
    UnrealSteps = 1,  ///< UE: |d| > T: speed dt toward the target; else d (1 - 2^(-dt speed)) M (slopes meet at 60 Hz)
    BevySteps = 2,    ///< Bevy: sign(d) min(speed dt, |d| speed dt / T), one Euler step per frame
    Exponential = 3,  ///< HDRP: d (1 - 2^(-dt speed)), no linear part
};
inline constexpr int kAdaptationCurveCount = 4;

/// Which pixels the percentile operator meters, and how much each counts (MeteringMask.h has the
/// formulas). Average meters every pixel equally (no extra pass: the pipeline's own CDF).
enum class MeteringMaskType : std::uint32_t {
    Average = 0,         ///< weight 1 everywhere
    CentreWeighted = 1,  ///< HDRP: 1 - distance from the centre / half the sum of width and height
    Ellipse = 2,         ///< HDRP's procedural mask: an ellipse with a soft edge and a luminance gate
    Texture = 3,         ///< the first channel of an image file, nearest texel, clamped to 0..1
};
inline constexpr int kMeteringMaskCount = 4;

/// The metering mask's settings (part of PercentileSettings; keys percentile.metering_mask ...).
struct MeteringSettings
{
    MeteringMaskType mask = MeteringMaskType::Average;
    float centreX = 0.5f;  ///< (Ellipse) centre, fractions of the width (0 = left) and height (0 = top)
    float centreY = 0.5f;
    float radiusX = 0.3f;  ///< (Ellipse) radii, fractions of the width and height (HDRP 0.3)
    float radiusY = 0.3f;
    float softness = 0.5f;     ///< (Ellipse) weight 1 - (d/R)^(1/softness) (HDRP 0.5)
    float gateMinEv = -30.0f;  ///< (Ellipse) log2 L gate: pixels outside (min, max) weigh 0 (HDRP -30/+30)
    float gateMaxEv = 30.0f;
    std::string texturePath;  ///< (Texture) image file; its first channel holds the weights
    bool excludeSky = false;  ///< weight 0 where the scene depth is the far plane (needs the scene's depth)
    friend bool operator==(const MeteringSettings&, const MeteringSettings&) = default;
};

/// The default bound on the highlight limit's pull, log2(0.18 / 0.03): Valve's Source engine exposes its 2 %
/// brightest pixels to a target but floors the median at 0.03, i.e. the median may fall at most this far
/// below hdrlab's key 0.18 (research/algorithms.md 2.2; docs/TONE_OPERATORS.md has the measurements).
inline constexpr float kDefaultMaxHighlightPullEv = 2.5849625f;
/// A bound this large (and +Inf, sanitised to it) means none: the highlight limit alone decides.
inline constexpr float kMaxHighlightPullUnbounded = 64.0f;

/// Between two frames of one shot the mean log2 L of a histogram moves far less than 2 EV (a 1 EV/s
/// pan moves it 1/60 EV per frame at 60 Hz); between shots it often moves more (docs/TONE_OPERATORS.md).
inline constexpr float kDefaultCutThresholdEv = 2.0f;

struct PercentileSettings
{
    PercentileMetering metering = PercentileMetering::Key;
    float percentile = 50.0f;      ///< (Key) percentile placed at the key, 0..100
    float key = 0.18f;             ///< exposed luminance the metered value maps to
    bool limitHighlights = true;   ///< (Key) keep the high percentile at or below the white point
    float highPercentile = 99.0f;  ///< (Key) 0..100
    float whitePoint = 1.0f;       ///< (Key) exposed luminance the high percentile may reach
    /// (Key) the most the highlight limit may lower the exposure below the key's, in EV: the metered
    /// percentile never lands below key / 2^this (kMaxHighlightPullUnbounded: no bound).
    float maxHighlightPullEv = kDefaultMaxHighlightPullEv;
    float bandLow = 50.0f;  ///< (BandAverage) percentiles bounding the averaged band
    float bandHigh = 95.0f;
    float compensationEv = 0.0f;  ///< added to the target exposure
    /// Also added to the target: its value at the metered log2 L (tone/CompensationCurve.h); empty: 0.
    CompensationCurve compensationCurve;
    /// On footage (a sequence), a cut: the histogram's mean log2 L moved more than this many EV since
    /// the previous frame (TonePercentile.h); 0: no cut detection.
    float cutThresholdEv = kDefaultCutThresholdEv;
    bool snapAtCuts = true;  ///< at a cut the exposure jumps to the new target instead of adapting
    float minEv = -16.0f;    ///< exposure limits (EV, the log2 of the scale applied to Lw)
    float maxEv = 16.0f;
    bool adapt = true;          ///< temporal adaptation (off: the exposure follows the target at once)
    float speedUpEv = 3.0f;     ///< EV/s when the scene brightens (exposure falls), UE SpeedUp / Bevy brighten
    float speedDownEv = 1.0f;   ///< EV/s when the scene darkens (exposure rises)
    float transitionEv = 1.5f;  ///< linear beyond this distance from the target, exponential within it
    AdaptationCurve adaptationCurve = AdaptationCurve::LinearThenExponential;
    DisplayCurveSettings display;
    bool localAdaptation = false;   ///< expose each pixel partly by its neighbourhood (CUDA summed-area table)
    float localBlend = 0.5f;        ///< 0 = global exposure only, 1 = fully local
    int localRadius = 48;           ///< half-size of the averaging window, pixels of the full frame
    MeteringSettings meteringMask;  ///< which pixels are metered (default: all, equally)
    friend bool operator==(const PercentileSettings&, const PercentileSettings&) = default;
};

/// Frame times above this are clamped (a hitch or a breakpoint must not snap the exposure).
inline constexpr double kMaxAdaptationDtSeconds = 0.5;
inline constexpr std::uint32_t kPercentileCurveSamples = 1024u;

// ---- ward --------------------------------------------------------------------------------------
/// Which samples Ward's adaptation histogram is made of (ToneWard.h).
enum class WardSampling : std::uint32_t {
    Auto = 0,   ///< pcond for a still picture (tonemap, view), frame for a live frame
    Frame = 1,  ///< a box-filtered ~1 degree foveal image of the whole frame, in float
    Pcond = 2,  ///< exactly Radiance pcond's: pfilt's foveal image as RGBE plus 16x as many drand48 point samples
};
inline constexpr int kWardSamplingCount = 3;

struct WardSettings
{
    WardSampling sampling = WardSampling::Auto;
    std::uint32_t bins = 100u;       ///< pcond HISTRES (2..kWardMaxBins)
    float displayMin = 1.0f;         ///< Ldmin, cd/m^2 (pcond: Ldmax / Lddyn)
    float displayMax = 100.0f;       ///< Ldmax, cd/m^2 (pcond -u)
    float sceneScale = 1.0f;         ///< cd/m^2 per scene-linear luminance unit
    bool humanContrast = false;      ///< pcond -s: the Ferwerda TVI ceiling instead of the linear one
    bool duplicateBottomBin = true;  ///< pcond's "false samples at bottom" (extends the range by one bin)
    /// Build the foveal histogram with the selected histogram method (three dispatches, or a CUDA
    /// round trip) instead of inside Ward's curve kernel; the same bins either way (bit-exact binning).
    bool histogramBySelectedMethod = false;
};

inline constexpr std::uint32_t kWardMaxBins = 1024u;
inline constexpr std::uint32_t kWardCurveSamples = 1024u;
/// Ceiling passes are capped; pcond's loop cannot run more than 147 (see ToneWard.h), so the cap never changes a
/// result.
inline constexpr std::uint32_t kWardMaxPasses = 160u;
inline constexpr double kWardLmin = 1e-7;      ///< pcond LMIN, cd/m^2
inline constexpr double kWardLmax = 1e7;       ///< pcond LMAX
inline constexpr double kWardCvRatio = 0.025;  ///< pcond CVRATIO
inline constexpr double kWardFtiny = 1e-6;     ///< Radiance FTINY

// ---- exposure ----------------------------------------------------------------------------------
struct ExposureSettings
{
    float exposureEv = 0.0f;  ///< Ld = curve(Lw * 2^EV)
    DisplayCurveSettings display;
};

inline constexpr std::uint32_t kExposureCurveSamples = 1024u;
/// The fixed-exposure LUT spans exposed luminance 2^-16 .. 2^12 (darker is black on any display,
/// every curve is flat above).
inline constexpr float kExposureCurveLowEv = -16.0f;
inline constexpr float kExposureCurveHighEv = 12.0f;

// ---- sanitizing --------------------------------------------------------------------------------
namespace detail {
inline float finiteOr(float value, float fallback)
{
    return std::isfinite(value) ? value : fallback;
}
inline float clampFinite(float value, float lo, float hi, float fallback)
{
    return std::clamp(finiteOr(value, fallback), lo, hi);
}
}  // namespace detail

inline DisplayCurveSettings sanitize(DisplayCurveSettings s)
{
    if (std::uint32_t(s.curve) >= std::uint32_t(kDisplayCurveCount))
        s.curve = DisplayCurve::Reinhard;
    s.reinhardWhite = detail::clampFinite(s.reinhardWhite, 0.0f, 1e6f, 0.0f);
    return s;
}

inline MeteringSettings sanitize(MeteringSettings s)
{
    const MeteringSettings d;
    if (std::uint32_t(s.mask) >= std::uint32_t(kMeteringMaskCount))
        s.mask = d.mask;
    // A centre may sit outside the frame (a mask that meters one edge); radii and softness stay
    // positive so the weight formula never divides by zero.
    s.centreX = detail::clampFinite(s.centreX, -1.0f, 2.0f, d.centreX);
    s.centreY = detail::clampFinite(s.centreY, -1.0f, 2.0f, d.centreY);
    s.radiusX = detail::clampFinite(s.radiusX, 1e-3f, 10.0f, d.radiusX);
    s.radiusY = detail::clampFinite(s.radiusY, 1e-3f, 10.0f, d.radiusY);
    s.softness = detail::clampFinite(s.softness, 1e-2f, 100.0f, d.softness);
    s.gateMinEv = detail::clampFinite(s.gateMinEv, -64.0f, 64.0f, d.gateMinEv);
    s.gateMaxEv = detail::clampFinite(s.gateMaxEv, -64.0f, 64.0f, d.gateMaxEv);
    if (s.gateMaxEv < s.gateMinEv)
        std::swap(s.gateMinEv, s.gateMaxEv);
    return s;
}

inline PercentileSettings sanitize(PercentileSettings s)
{
    const PercentileSettings d;
    if (std::uint32_t(s.metering) > 1u)
        s.metering = d.metering;
    s.percentile = detail::clampFinite(s.percentile, 0.0f, 100.0f, d.percentile);
    s.key = detail::clampFinite(s.key, 1e-6f, 1e6f, d.key);
    s.highPercentile = detail::clampFinite(s.highPercentile, 0.0f, 100.0f, d.highPercentile);
    s.whitePoint = detail::clampFinite(s.whitePoint, 1e-6f, 1e6f, d.whitePoint);
    s.maxHighlightPullEv =
        std::isinf(s.maxHighlightPullEv) && s.maxHighlightPullEv > 0.0f
            ? kMaxHighlightPullUnbounded
            : detail::clampFinite(s.maxHighlightPullEv, 0.0f, kMaxHighlightPullUnbounded, d.maxHighlightPullEv);
    s.bandLow = detail::clampFinite(s.bandLow, 0.0f, 100.0f, d.bandLow);
    s.bandHigh = detail::clampFinite(s.bandHigh, 0.0f, 100.0f, d.bandHigh);
    if (s.bandHigh < s.bandLow)
        std::swap(s.bandLow, s.bandHigh);
    s.compensationEv = detail::clampFinite(s.compensationEv, -32.0f, 32.0f, 0.0f);
    s.compensationCurve = sanitize(s.compensationCurve);
    s.cutThresholdEv = detail::clampFinite(s.cutThresholdEv, 0.0f, 64.0f, d.cutThresholdEv);
    s.minEv = detail::clampFinite(s.minEv, -64.0f, 64.0f, d.minEv);
    s.maxEv = detail::clampFinite(s.maxEv, -64.0f, 64.0f, d.maxEv);
    if (s.maxEv < s.minEv)
        std::swap(s.minEv, s.maxEv);
    s.speedUpEv = detail::clampFinite(s.speedUpEv, 1e-3f, 1000.0f, d.speedUpEv);
    s.speedDownEv = detail::clampFinite(s.speedDownEv, 1e-3f, 1000.0f, d.speedDownEv);
    s.transitionEv = detail::clampFinite(s.transitionEv, 0.0f, 64.0f, d.transitionEv);
    if (std::uint32_t(s.adaptationCurve) >= std::uint32_t(kAdaptationCurveCount))
        s.adaptationCurve = d.adaptationCurve;
    s.display = sanitize(s.display);
    s.localBlend = detail::clampFinite(s.localBlend, 0.0f, 1.0f, d.localBlend);
    s.localRadius = std::clamp(s.localRadius, 0, 4096);
    s.meteringMask = sanitize(s.meteringMask);
    return s;
}

inline WardSettings sanitize(WardSettings s)
{
    const WardSettings d;
    if (std::uint32_t(s.sampling) >= std::uint32_t(kWardSamplingCount))
        s.sampling = d.sampling;
    s.bins = std::clamp(s.bins, 2u, kWardMaxBins);
    s.displayMax = detail::clampFinite(s.displayMax, 1e-3f, 1e6f, d.displayMax);
    s.displayMin = detail::clampFinite(s.displayMin, 1e-4f, 1e6f, d.displayMin);
    if (!(s.displayMin < s.displayMax)) {  // a display range of zero or less: keep pcond's 100:1
        s.displayMin = d.displayMin;
        s.displayMax = d.displayMax;
    }
    s.sceneScale = detail::clampFinite(s.sceneScale, 1e-9f, 1e9f, d.sceneScale);
    return s;
}

/// The float constants of Ward's frame fit (tonemap/WardCurve.comp), computed once on the host and
/// handed to both the shader (uniforms) and its exact CPU reference (reference/ToneWardExact), so
/// neither side parses or folds a constant differently. `s` is sanitized first.
struct WardFitConstants
{
    float lnLdmin = 0.0f;
    float lnLdmax = 0.0f;
    float displayRange = 0.0f;     ///< lnLdmax - lnLdmin
    float invDisplayRange = 0.0f;  ///< 1 / displayRange
    float ldmin = 0.0f;
    float ldmax = 0.0f;
    float invLdmax = 0.0f;
    float invLdRange = 0.0f;  ///< 1 / (Ldmax - Ldmin)
    float geometric = 0.0f;   ///< sqrt(Ldmin Ldmax)
    float invBins = 0.0f;
    float duplicateFactor = 0.0f;  ///< n / (n - 1)
    float invCurveSamples = 0.0f;
    float lmin = 0.0f;     ///< pcond LMIN
    float lmax = 0.0f;     ///< pcond LMAX
    float ftiny = 0.0f;    ///< Radiance FTINY
    float growth = 0.0f;   ///< lwmax = 1.01 max
    float lnScale = 0.0f;  ///< ln sceneScale: the curve's log2 axis is in scene units
};

inline WardFitConstants wardFitConstants(const WardSettings& settings, std::uint32_t bins, std::uint32_t curveSamples)
{
    const WardSettings s = sanitize(settings);
    const double n = double(std::clamp(bins, 2u, kWardMaxBins));
    const double ldmin = s.displayMin;
    const double ldmax = s.displayMax;
    const double displayRange = std::log(ldmax) - std::log(ldmin);
    WardFitConstants c;
    c.lnLdmin = float(std::log(ldmin));
    c.lnLdmax = float(std::log(ldmax));
    c.displayRange = float(displayRange);
    c.invDisplayRange = float(1.0 / displayRange);
    c.ldmin = s.displayMin;
    c.ldmax = s.displayMax;
    c.invLdmax = float(1.0 / ldmax);
    c.invLdRange = float(1.0 / (ldmax - ldmin));
    c.geometric = float(std::sqrt(ldmin * ldmax));
    c.invBins = float(1.0 / n);
    c.duplicateFactor = float(n / (n - 1.0));
    c.invCurveSamples = float(1.0 / double(std::max(curveSamples, 1u)));
    c.lmin = float(kWardLmin);
    c.lmax = float(kWardLmax);
    c.ftiny = float(kWardFtiny);
    c.growth = 1.01f;
    c.lnScale = float(std::log(double(s.sceneScale)));
    return c;
}

inline ExposureSettings sanitize(ExposureSettings s)
{
    s.exposureEv = detail::clampFinite(s.exposureEv, -64.0f, 64.0f, 0.0f);
    s.display = sanitize(s.display);
    return s;
}

}  // namespace post
