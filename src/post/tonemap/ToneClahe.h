// ToneClahe.h: "clahe", contrast-limited adaptive histogram equalization of log2 luminance
// (Zuiderveld 1994, "Contrast Limited Adaptive Histogram Equalization", Graphics Gems IV; clip and
// redistribution exactly as OpenCV's imgproc clahe.cpp does them on integer counts,
// shared/research/local-methods.md section 1), on an HDR frame:
//  1. per-tile histograms of log2 L with the pipeline's bins, range and policy (hdBinOf), counted in
//     integers (TileHistogram.comp; exactly ref::tileHistograms); tiles of ceil(W / tilesX) x
//     ceil(H / tilesY) pixels, no padding (shared/LocalTiles.h);
//  2. per tile (ClaheCurves.comp, a workgroup each): clip limit max(1, floor(clip N / bins)) with N the
//     tile's total and clip in 1/256 steps; excess spread as OpenCV's batch + residual step; the
//     curve is the clipped inclusive CDF over N at each bin centre, read as an sRGB-encoded display
//     level (option) -> display luminance; an empty tile gives 0.5;
//  3. the global curve, the same on the pipeline's histogram, into the curve buffer;
//  4. the apply pass blends the pixel's four tile curves bilinearly (OpenCV's blend geometry) and
//     that toward the global curve by the strength.
//  5. temporal smoothing (clahe.smoothing = tau seconds, 0 = none): each tile curve moves from the
//     previous frame's by alpha = 1 - exp(-dt / tau) (the previous curve resampled at the new samples'
//     log2 L); the first frame, a reset (scene switch, cuts are not detected) and a grid or bin change
//     start over. The global curve is not smoothed.
// The tile histograms are counted in the histogram pass's own read of the frame where its method can
// (tileHistogramTarget; compute-shared-atomic, histogram/TileHistogramsInPass.glsl); else, or with
// HDRLAB_LOCAL_TILES=histograms=separate (LocalTileSwitches.h), by TileHistogram.comp, a pass of its own.
// Limits: the tiled apply is SDR only (HDR10 shows the global curve).
#pragma once

#include "post/histogram/TileHistogramTarget.h"
#include "post/tonemap/LocalTileCurves.h"
#include "post/tonemap/LocalTileSwitches.h"
#include "post/tonemap/ToneCommon.h"
#include "post/tonemap/ToneOperator.h"
#include "tone/LocalToneSettings.h"

namespace post {

class ToneClahe final : public ToneOperator, public ToneState, public ToneVerification, public TileHistogramSource
{
public:
    static constexpr std::string_view kId = "clahe";

    ToneClahe() : mHistogramsInPass(localTileSwitches().histogramsInPass) {}
    std::string_view id() const override { return kId; }
    std::string_view label() const override { return "CLAHE (local, tiles)"; }
    std::string_view description() const override;
    ToneTraits traits() const override
    {
        return {.usesPipelineCdf = false, .hdrScaling = {.sceneReferred = false}, .localTiles = true};
    }
    void computeCurve(PassContext& ctx, const ToneInputs& inputs, gl::Buffer& curve) override;
    Traffic curveMinimumTraffic(const TrafficShape& shape) const override;
    bool ui() override;
    ParameterList parameters() override;
    const ToneVerification* verification() const override { return this; }
    ToneState* state() override { return this; }
    /// Forgets the previous tile curves: the next frame's are not smoothed.
    void resetState() override { mPreviousValid = false; }
    std::string status() const override;
    /// log2 of the mean value of the tile curves (every tile's LUT samples, after smoothing): what
    /// `bench flicker` follows for this operator.
    std::vector<KeyValueSample> takeKeyValues() override;
    std::string_view keyValueName() const override { return "tile mean"; }
    void flushStateReadback() override
    {
        if (mReadback)
            mReadback->flush();
    }
    /// Its settings, the tile histograms and tile curves (ref::claheChecks).
    bool describeForReference(const ToneVerifyFrame& frame, ref::ToneCheckInputs& check) const override;
    const LocalTileCurves* localTiles() const override { return &mTiles.curves(); }
    TileHistogramTarget* tileHistogramTarget(glm::ivec2 frameSize, glm::ivec2 histogramSize) override;
    /// Tests: the tile histograms from the histogram pass (true, where its method can) or their own pass.
    void setTileHistogramsInPass(bool inPass) { mHistogramsInPass = inPass; }
    /// Whether the last frame's tile histograms came from the histogram pass.
    bool lastTileHistogramsInPass() const { return mLastInPass; }

    const ClaheSettings& settings() const { return mSettings; }
    void setSettings(const ClaheSettings& settings) { mSettings = settings; }
    /// The last frame's tile histograms (uint[tiles x bins], tile-major) and tile curves (tests, views).
    const gl::Buffer& tileHistograms() const { return mTileHistograms; }
    const TileCurveBuffer& tileCurves() const { return mTiles; }

private:
    ClaheSettings mSettings;
    TileCurveBuffer mTiles;
    gl::Buffer mTileHistograms;
    TileHistogramTarget mTileTarget;  ///< offered to the histogram pass
    bool mHistogramsInPass;
    bool mLastInPass = false;
    gl::Program mHistogramProgram;
    gl::Program mCurvesProgram;
    std::uint32_t mBins = 0;
    bool mPreviousValid = false;  ///< the tile buffer holds the last frame's curves on this grid
    glm::ivec2 mPreviousTiles{0};
    std::uint32_t mPreviousBins = 0;
    float mAlpha = 1.0f;   ///< the last frame's smoothing weight (1: none)
    gl::Buffer mKeyState;  ///< uint[2]: the tile means' fixed-point sum, the tile count
    std::unique_ptr<StateReadback> mReadback;
};

}  // namespace post
