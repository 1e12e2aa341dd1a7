// WardCurveDispatch.h: the dispatches of Ward's frame fit (Ward Larson, Rushmeier & Piatko 1997,
// histogram adjustment as Radiance pcond fits it; ToneWard.h), their programs and their buffer:
//  - the spread path (the pipeline's frame fit, WardCurveSpread.comp): the foveal samples' reads
//    spread over G = ceil(samples / (kGroupSize x kSamplesPerInvocation)) workgroups in two
//    dispatches, "range" then "bin + fit", each finished by its last workgroup (a ticket); the fit
//    (ceiling loop, curve) in the last workgroup of the second. Its buffer (kSpreadWords words, the
//    groups' keys, sums, bins and tickets) is zero between frames: the last groups leave it so.
//    Range keys from the histogram pass (dispatchSpread with rangeFromKeys): where the histogram
//    pass made the foveal image it also folded its texels into the range's two keys (offerRangeKeys,
//    FovealTarget::rangeKeys; histogram/SharedAtomic.comp FOVEAL_KEYS), so the range dispatch is
//    skipped: every group of "bin + fit" (RANGE_KEYS 1) computes the range from the keys itself and
//    the last one writes it and zeroes the keys. Keys offered but not consumed (the fit took the two
//    dispatches, or did not run) are zeroed at the next offer, so none leaks into a later frame.
//  - the one-workgroup kernel (WardCurve.comp, uStage): the range for a selected histogram method,
//    the ceiling stage on a method's or a fed histogram, and bench ward-factors' "before" rows.
// Both give the same bits, the CPU model's (reference/ToneWardExact; ToneWardExactGl, WardSpreadGl).
// Limits: the fit itself stays in one workgroup; the two spread dispatches must run in this order
// within a frame (a storage barrier between them; the host issues both); the keys must come from the
// same frame's foveal image, with the fit's luminance weights (the caller checks: ToneWard).
#pragma once

#include "gl/Buffer.h"
#include "gl/Texture.h"
#include "post/tonemap/WardCurveProgram.h"
#include "tone/ToneSettings.h"

#include <glm/vec2.hpp>

#include <cstdint>
#include <span>

namespace post {

/// Which kernel makes the frame fit.
enum class WardCurvePath : std::uint32_t {
    Spread = 0,        ///< WardCurveSpread.comp, many workgroups, two dispatches (the pipeline)
    OneWorkgroup = 1,  ///< WardCurve.comp kStageAll, one workgroup, one dispatch (bench: "before")
};

/// bench ward-factors only: which of the spread path's dispatches a refit runs.
enum class WardSpreadParts : std::uint32_t {
    Both = 0,       ///< range, then bin + fit (the pipeline)
    RangeOnly = 1,  ///< the range dispatch alone
    BinAndFit = 2,  ///< bin + fit alone, on the range the last range dispatch left
};

/// What a fit dispatch reads: the settings as the curve uses them and the foveal image.
struct WardCurveInputs
{
    WardSettings settings;  ///< sanitized, the display's Ld_max applied (ToneWard::activeSettings)
    std::uint32_t bins = 0;
    glm::ivec2 grid{0};  ///< the foveal grid (0 x 0 with a fed histogram)
    hd::LuminanceWeights luminance;
    float cdPerUnit = 1.0f;
    const gl::Texture* foveal = nullptr;  ///< RGBA32F, grid.x x grid.y; none with a fed histogram
};

/// What it writes (ToneWard's buffers and the pipeline's curve).
struct WardCurveOutputs
{
    gl::Buffer& params;
    gl::Buffer& histogram;
    gl::Buffer& state;
    gl::Buffer& view;
    gl::Buffer& curve;
};

/// ward-local: one tile of the foveal image (its first sample and size) and its block in the outputs.
struct WardTileRect
{
    glm::ivec2 origin{0};
    glm::ivec2 size{0};
    std::uint32_t tile = 0;
};

/// ward-local: per-tile blocks (params, histogram, state, view at `tile` x their stride in bytes, a
/// multiple of 256) and the tile-curve buffer (shared/LocalTiles.h: the block at hdTileCurveBase).
struct WardTileOutputs
{
    gl::Buffer& params;
    gl::Buffer& histogram;
    gl::Buffer& state;
    gl::Buffer& view;
    gl::Buffer& tileCurves;
    std::size_t paramsStride = 0;
    std::size_t histogramStride = 0;
    std::size_t stateStride = 0;
    std::size_t viewStride = 0;
};

class WardCurveDispatch
{
public:
    static constexpr std::uint32_t kSamplesPerInvocation = 4;  ///< the spread kernel's slice per invocation
    /// The spread buffer: tickets, keys and sums (16 words), then the bins and the counters.
    static constexpr std::uint32_t kSpreadWords = 16 + kWardMaxBins + hd::kCounterCount;

    /// The spread path's workgroups for a grid: ceil(samples / (groupSize x samplesPerInvocation)), >= 1.
    static std::uint32_t spreadGroups(glm::ivec2 grid,
                                      std::uint32_t groupSize = WardCurveProgram::kGroupSize,
                                      std::uint32_t samplesPerInvocation = kSamplesPerInvocation);

    /// Builds (when its defines change) the one-workgroup program or the spread path's two; `extra`
    /// as WardCurveProgram::ensure (bench experiments; GROUP_SIZE and SAMPLES_PER_INVOCATION among
    /// them also set the spread path's group count).
    void ensure(const gl::ShaderLibrary& shaders,
                const GpuCaps& caps,
                std::uint32_t bins,
                WardCeilingLoop loop,
                const gl::ShaderDefines& extra,
                WardCurvePath path);

    /// WardCurve.comp with `stage` (0 all, 1 range, 2 ceiling): one workgroup (ensure OneWorkgroup first).
    void dispatchOneWorkgroup(std::uint32_t stage, const WardCurveInputs& in, const WardCurveOutputs& out);
    /// ward-local: WardCurve.comp kStageAll once per tile (ensure OneWorkgroup first): one workgroup
    /// each, on the tile's samples of the foveal image, into the tile's blocks of `out`.
    void dispatchTiles(const WardCurveInputs& in, std::span<const WardTileRect> tiles, const WardTileOutputs& out);
    /// The spread path's dispatches (ensure Spread first); `parts` other than Both: bench only.
    /// rangeFromKeys: bin + fit alone, its range from the keys a histogram pass wrote this frame
    /// into offerRangeKeys()'s buffer (parts ignored).
    void dispatchSpread(const WardCurveInputs& in,
                        const WardCurveOutputs& out,
                        WardSpreadParts parts = WardSpreadParts::Both,
                        bool rangeFromKeys = false);
    /// The range keys' buffer (uint[2]) to offer a histogram pass, zero: zeroed first where the keys
    /// of the last offer were not consumed by dispatchSpread(rangeFromKeys).
    gl::Buffer& offerRangeKeys();
    /// The dispatches the last dispatchSpread ran (tests: 1 with the range keys, 2 without).
    std::uint32_t lastSpreadDispatches() const { return mLastSpreadDispatches; }
    /// The range keys' buffer (tests: zero after a frame that consumed them).
    const gl::Buffer& rangeKeysBuffer() const { return mRangeKeys; }

    /// The ceiling loop of the program ensured last.
    WardCeilingLoop loopUsed() const { return mLoopUsed; }
    /// The spread buffer (tests: zero after every frame).
    const gl::Buffer& spreadBuffer() const { return mSpread; }

private:
    WardCurveProgram mOne{"tonemap.ward.curve", "tonemap/WardCurve.comp"};
    WardCurveProgram mRange{"tonemap.ward.curve.spread.range", "tonemap/WardCurveSpread.comp", {{"SPREAD_STAGE", "1"}}};
    WardCurveProgram mFit{"tonemap.ward.curve.spread.fit", "tonemap/WardCurveSpread.comp", {{"SPREAD_STAGE", "2"}}};
    WardCurveProgram mFitFromKeys{"tonemap.ward.curve.spread.fit.keys",
                                  "tonemap/WardCurveSpread.comp",
                                  {{"SPREAD_STAGE", "2"}, {"RANGE_KEYS", "1"}}};
    gl::Buffer mSpread;
    gl::Buffer mRangeKeys;
    bool mRangeKeysPending = false;  ///< offered and not consumed since: may hold keys
    std::uint32_t mLastSpreadDispatches = 0;
    WardCeilingLoop mLoopUsed = WardCeilingLoop::Workgroup;
    std::uint32_t mGroupSize = WardCurveProgram::kGroupSize;
    std::uint32_t mSamplesPerInvocation = kSamplesPerInvocation;
};

}  // namespace post
