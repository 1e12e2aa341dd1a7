// PreExposure.h: the scene frame's storage formats and the half-float frame with power-of-two
// pre-exposure (issue 20): the frame is stored as RGBA16F holding the scene's radiance times 2^k,
// k an integer chosen from earlier frames, so a sun of 1.6e9 cd/m^2 and a dark interior both fit
// in half floats where they can, at half the bytes of RGBA32F for every pass that reads the frame.
//
// Why a power of two: multiplying by 2^k only shifts the exponent, so a consumer undoes it exactly
// by folding 2^-k into the luminance weights it already takes from the params buffer
// (post/LuminanceUnits.h); the histogram then bins the stored values bit for bit like the CPU
// reference, and stored x 2^-k is the unexposed half value bit for bit wherever both are normal
// halves. Engines do the same (Unreal's pre-exposure, Frostbite), with k from the previous frame's
// exposure; here k must keep the frame's bright end, not a display exposure, because the histogram
// and Ward's range measure the whole frame (the sun included), and the frame is shared by every
// operator (split view, compare), so k is a property of the frame, not of one operator.
//
// The rule (PreExposureControl): the shaders that store the frame measure its peak, the largest
// channel before pre-exposure and clamp (cd/m^2), and count the pixels that clip (a channel above
// hd::kHalfFloatRoundsToMax once pre-exposed, i.e. stored as 65504); the counts come back through an
// asynchronous readback a few frames late (never a stall). With h = log2(65504 / (peak x 2^k)) the
// headroom, in EV, between the peak and half's largest value at the current k:
//   * h < kDownBelowEv (1): k goes down at once to the target, the k that puts the peak
//     kTargetHeadroomEv (2) to 3 EV below 65504;
//   * h >= kRaiseFromEv (5) on kRaiseAfterSamples (30) samples in a row: k goes up to the smallest
//     of their targets;
//   * otherwise k stays: the peak may wander over 4 EV (h in [1, 5)) without a change, and a move
//     leaves 1 to 2 EV of room before the next, so frames do not flicker between k values.
// Pixels that clipped although the peak says they should not have (a discarding fragment's clip is
// counted but its peak is not recorded) lower k by kClipStepEv from the k they were stored with.
// With the bright end as high as it can go without clipping, the dark end is as far above half's
// normal minimum (2^-14) as the frame's range allows; a frame spanning more than half's 30 normal EV
// keeps its darkest part in half's denormals (10 EV more, fewer bits) rather than clip its
// brightest. k stays in [hd::kMinPreExposure, hd::kMaxPreExposure]. A black frame tells nothing and
// keeps k. Before the first sample, k comes from the scene's brightest source (initialPreExposure),
// a guess that keeps the sun unclipped; the first frame read back (two or three frames later) sets
// the target directly, either way.
//
// Limits: up to three frames after a sudden brightening (the readback's latency) may clip; the clip
// count says so. Values that clip are stored as 65504 x 2^-k, never +Inf.
#pragma once

#include "scene/Scene.h"
#include "shared/HostDevice.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace scene {

/// How the scene frame is stored.
enum class FrameFormat {
    Auto,     ///< RGBA32F while a sun or emitter exceeds half-float range, else RGBA16F clamped at 60000
    Rgba32f,  ///< always RGBA32F (16 B/px), never pre-exposed: the sun's 1.6e9 cd/m^2 stored as is
    Rgba16f,  ///< RGBA16F (8 B/px) pre-exposed by 2^k (this file), clamped at 65504 with the clips counted
};
/// The format a scene renders in unless told otherwise (the app, `bench pipeline`, `compare`): the
/// half-float pre-exposed frame, which moves half the bytes (docs/PERF.md says what it saves).
inline constexpr FrameFormat kDefaultFrameFormat = FrameFormat::Rgba16f;
/// One row of the frame formats' table: the name the command line, the captures and the CSVs use, and
/// the label of the Frame panel's combo.
struct FrameFormatInfo
{
    FrameFormat format;
    const char* name;
    const char* label;
};
/// Every frame format, in FrameFormat order (the panel's combo index is the enum's value).
inline constexpr std::array<FrameFormatInfo, 3> kFrameFormats{{
    {FrameFormat::Auto, "auto", "auto"},
    {FrameFormat::Rgba32f, "rgba32f", "rgba32f"},
    {FrameFormat::Rgba16f, "rgba16f", "rgba16f (pre-exposed)"},
}};
static_assert(kFrameFormats[std::size_t(FrameFormat::Auto)].format == FrameFormat::Auto &&
              kFrameFormats[std::size_t(FrameFormat::Rgba32f)].format == FrameFormat::Rgba32f &&
              kFrameFormats[std::size_t(FrameFormat::Rgba16f)].format == FrameFormat::Rgba16f);
/// The panel's labels, in FrameFormat order.
inline constexpr std::array<const char*, kFrameFormats.size()> frameFormatLabels()
{
    std::array<const char*, kFrameFormats.size()> labels{};
    for (std::size_t i = 0; i < kFrameFormats.size(); ++i)
        labels[i] = kFrameFormats[i].label;
    return labels;
}
/// "auto", "rgba32f" or "rgba16f".
const char* frameFormatName(FrameFormat format);
/// The format named `name`; nothing for any other text.
std::optional<FrameFormat> parseFrameFormat(std::string_view name);

/// One frame's statistics as the storing shaders wrote them (hd::kFrameStats* words).
struct FrameStats
{
    std::uint32_t clippedPixels = 0;  ///< pixels with a channel stored at the clamp
    float peak = 0.0f;                ///< largest channel before pre-exposure and clamp, cd/m^2 (0: black; may be +Inf)
    int preExposure = 0;              ///< the k the frame was stored with
};
/// Decodes the words of the statistics buffer (at least hd::kFrameStatsWords) of a frame stored with `k`.
FrameStats decodeFrameStats(std::span<const std::uint32_t> words, int k);

/// Undoes a frame's pre-exposure on the CPU: RGB of every RGBA pixel times 2^-k (exact where the
/// result is a normal float, as every stored half float times 2^-k is for |k| <= hd::kMaxPreExposure);
/// alpha stays. For files written from a pre-exposed frame.
void unexposePixels(std::span<float> rgba, int k);

/// The target: the largest k that keeps `peak` (cd/m^2) at least kTargetHeadroomEv below 65504
/// (floor(log2(65504 / peak)) - kTargetHeadroomEv), clamped to [hd::kMinPreExposure,
/// hd::kMaxPreExposure]; +Inf gives the minimum; nothing for a peak that is not positive (a black
/// frame) or NaN.
std::optional<int> preExposureFor(double peak);

/// k for a scene's first frames, before any sample has come back: preExposureFor its brightest
/// source (the sun disc while the sun is up, the brightest emission), at most 0 (values stored as
/// they are: surfaces lit by point lights may be brighter than any emission); the samples then
/// raise it where the frame leaves room.
int initialPreExposure(const Scene& scene);

/// The pre-exposure k over frames (the rule in the header comment). Pure: no GL.
///
/// The owner of k: it decides k and is the one place that keeps it in [hd::kMinPreExposure,
/// hd::kMaxPreExposure] (its start and every move come through preExposureFor's range); everyone
/// else reads k, nobody clamps it again. One frame of the live app (frames/SceneFrameSource owns the
/// control):
///   1. SceneFrameSource::choosePreExposure takes the statistics read back so far (observe) and
///      fixes this frame's k = k() in its RenderOptions; it returns k (0 unless the frame is
///      pre-exposed);
///   2. the app gives that k to PostPipeline::prepareFusedHistogram, whose params carry 2^-k for a
///      histogram binned while the scene renders;
///   3. SceneFrameSource::render stores the frame with it (SceneRenderer::render only checks the
///      range) and queues the frame's statistics, tagged with k, for a later observe;
///   4. the app reads the stored k back with the frame (FrameSource::preExposure, the renderer's)
///      into post::ImageInput::preExposure, where the pipeline folds 2^-k into its weights.
/// Renderers used without a control (tests, `compare`) store with initialPreExposure or a k they
/// set in RenderOptions, which must be in range.
class PreExposureControl
{
public:
    static constexpr int kTargetHeadroomEv = 2;    ///< a move puts the peak 2 to 3 EV below 65504
    static constexpr int kDownBelowEv = 1;         ///< k goes down when the headroom is below this...
    static constexpr int kRaiseFromEv = 5;         ///< ...and up when it is at least this...
    static constexpr int kRaiseAfterSamples = 30;  ///< ...on this many samples in a row (half a second at 60 Hz)
    static constexpr int kClipStepEv = 2;          ///< a clip the peak does not explain lowers k by this

    explicit PreExposureControl(int initial = 0);

    /// The k to store the next frame with.
    int k() const { return mK; }
    /// Takes one frame's statistics (any order of arrival is fine: the rule reads the peak, which does
    /// not depend on the k it was measured under); returns true when k changed.
    bool observe(const FrameStats& stats);
    /// How many times k changed since construction (frames flickering between values would show here).
    int changes() const { return mChanges; }

private:
    int mK = 0;
    int mRaiseRun = 0;     ///< consecutive samples with at least kRaiseFromEv of headroom
    int mRaiseTarget = 0;  ///< the smallest of their targets
    int mChanges = 0;
    bool mMeasured = false;  ///< a frame with a target came back
};

}  // namespace scene
