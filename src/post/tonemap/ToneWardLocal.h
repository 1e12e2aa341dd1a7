// ToneWardLocal.h: "ward-local", Ward Larson, Rushmeier & Piatko 1997's histogram adjustment
// (hdrlab's Ward: ToneWard, frame sampling, both ceilings, pcond's range rules) applied per tile:
//  1. the global Ward curve exactly as "ward" makes it (ToneWard's own frame fit: its foveal image,
//     range, histogram, ceiling loop), into the pipeline's curve buffer;
//  2. the foveal image cut into the tile grid: foveal sample i belongs to the tile holding its centre
//     pixel floor((2i + 1) W / (2 gw)) (tiles of ceil(W / tilesX) pixels, shared/LocalTiles.h), and
//     Ward's fit (range, log-average, histogram, ceiling loop, curve) runs on each tile's samples: the
//     one-workgroup kernel (WardCurve.comp kStageAll) once per tile, each into its own blocks, so every
//     tile curve is bit for bit ToneWardExact's fit of the tile's samples (--verify); a tile holding
//     no sample takes the global curve;
//  3. the apply pass blends the pixel's four tile curves bilinearly and that toward the global curve
//     by the strength (Ld = global + s (local - global)).
// With a 1x1 grid the one tile is the whole foveal image: its curve is the global curve bit for bit
// (test WardLocalGl.OneTileIsTheGlobalWardCurve).
// Limits: the tile fits are one dispatch of one workgroup per tile (serial on the GPU; cost grows with
// the tile count); Ward's sampling is always the frame fit (pcond sampling has no per-tile form here);
// SDR only for the tiled apply.
//  4. temporal smoothing (ward-local.smoothing = tau seconds, 0 = none; WardLocalSmooth.comp): each
//     LUT tile curve moves from the previous frame's (resampled at the new samples' log2 L) by
//     alpha = 1 - exp(-dt / tau); a LinearScale tile is not smoothed; the first frame, a reset (scene
//     switch; cuts are not detected) and a grid change start over. The global curve is Ward's, not
//     smoothed. Key value for `bench flicker`: "tile mean", log2 of the mean over tiles of each tile
//     curve at 64 log2 L over the middle half of the histogram's range.
#pragma once

#include "post/tonemap/LocalTileCurves.h"
#include "post/tonemap/ToneCommon.h"
#include "post/tonemap/ToneOperator.h"
#include "post/tonemap/ToneWard.h"
#include "tone/LocalToneSettings.h"

namespace post {

class ToneWardLocal final : public ToneOperator, public ToneState, public ToneVerification
{
public:
    static constexpr std::string_view kId = "ward-local";

    std::string_view id() const override { return kId; }
    std::string_view label() const override { return "Ward 1997 per tile (local)"; }
    std::string_view description() const override;
    ToneTraits traits() const override
    {
        ToneTraits traits = mWard.traits();
        traits.localTiles = true;
        return traits;
    }
    void setDisplay(const DisplaySettings& display) override { mWard.setDisplay(display); }
    void computeCurve(PassContext& ctx, const ToneInputs& inputs, gl::Buffer& curve) override;
    Traffic curveMinimumTraffic(const TrafficShape& shape) const override { return mWard.curveMinimumTraffic(shape); }
    bool ui() override;
    ParameterList parameters() override;
    ToneState* state() override { return this; }
    /// Ward's state, and forgets the previous tile curves: the next frame's are not smoothed.
    void resetState() override
    {
        static_cast<ToneState&>(mWard).resetState();
        mPreviousValid = false;
    }
    void flushStateReadback() override
    {
        static_cast<ToneState&>(mWard).flushStateReadback();
        if (mReadback)
            mReadback->flush();
    }
    std::string status() const override;
    std::vector<std::pair<std::string, float>> markers() const override
    {
        return static_cast<const ToneState&>(mWard).markers();
    }
    /// log2 of the mean over tiles of each tile curve's value at the middle of its range (after
    /// smoothing): what `bench flicker` follows for this operator.
    std::vector<KeyValueSample> takeKeyValues() override;
    std::string_view keyValueName() const override { return "tile mean"; }
    FovealTarget* fovealTarget(glm::ivec2 imageSize, float fovYDegrees) override
    {
        return mWard.fovealTarget(imageSize, fovYDegrees);
    }
    const ToneVerification* verification() const override { return this; }
    /// Ward's (the global fit) and the tiles' grid and curves (ref::wardLocalChecks).
    bool describeForReference(const ToneVerifyFrame& frame, ref::ToneCheckInputs& check) const override;
    const LocalTileCurves* localTiles() const override { return &mTiles.curves(); }

    const WardLocalSettings& settings() const { return mSettings; }
    void setSettings(const WardLocalSettings& settings) { mSettings = settings; }
    const TileCurveBuffer& tileCurves() const { return mTiles; }
    const ToneWard& ward() const { return mWard; }

private:
    void ensureTileBuffers();

    WardLocalSettings mSettings;
    ToneWard mWard;
    TileCurveBuffer mTiles;
    glm::ivec2 mFrame{0};
    gl::Buffer mTileParams;
    gl::Buffer mTileHistograms;
    gl::Buffer mTileState;
    gl::Buffer mTileView;
    gl::Program mSmoothProgram;
    bool mPreviousValid = false;  ///< the tile buffer holds the last frame's curves on this grid
    glm::ivec2 mPreviousTiles{0};
    float mAlpha = 1.0f;   ///< the last frame's smoothing weight (1: none)
    gl::Buffer mKeyState;  ///< uint[2]: the tile values' fixed-point sum, the tile count
    std::unique_ptr<StateReadback> mReadback;
};

}  // namespace post
