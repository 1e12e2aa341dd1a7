#include "post/tonemap/ToneClahe.h"

#include "post/HelpMarker.h"
#include "profiling/Profiler.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace post {

std::string_view ToneClahe::description() const
{
    return "Contrast-limited adaptive histogram equalization (Zuiderveld 1994; OpenCV's clip and "
           "redistribution) of log2 luminance per tile, the tile curves blended bilinearly per pixel "
           "and toward the global curve by the strength.";
}

namespace {

/// The grid on a `frame`-sized frame and its tiles' size on the `histogram`-sized histogram image.
std::pair<glm::ivec2, glm::ivec2> tileGeometry(const ClaheSettings& s, glm::ivec2 frame, glm::ivec2 histogram)
{
    const glm::ivec2 size = glm::max(frame, glm::ivec2(1));
    const glm::ivec2 tiles{int(effectiveTiles(s.tiles.tilesX, size.x)), int(effectiveTiles(s.tiles.tilesY, size.y))};
    const glm::ivec2 image = glm::max(histogram, glm::ivec2(1));
    return {tiles, {hd::hdTileSize(image.x, tiles.x), hd::hdTileSize(image.y, tiles.y)}};
}

}  // namespace

TileHistogramTarget* ToneClahe::tileHistogramTarget(glm::ivec2 frameSize, glm::ivec2 histogramSize)
{
    if (!mHistogramsInPass)
        return nullptr;
    if (!mTileHistograms)
        mTileHistograms =
            gl::Buffer("tonemap.clahe.tile-histograms", std::size_t(hd::kMaxTilesPerAxis * hd::kMaxTilesPerAxis) *
                                                            hd::kMaxHistogramBins * sizeof(std::uint32_t));
    const auto [tiles, tileSize] = tileGeometry(sanitize(mSettings), frameSize, histogramSize);
    mTileTarget = {&mTileHistograms, tiles, tileSize, false};
    return &mTileTarget;
}

void ToneClahe::computeCurve(PassContext& ctx, const ToneInputs& inputs, gl::Buffer& curve)
{
    const ClaheSettings s = sanitize(mSettings);
    mTiles.prepare(inputs.image.size, s.tiles);
    const glm::ivec2 tiles = mTiles.tiles();
    const glm::ivec2 histogramSize = glm::max(inputs.histogramImage.size, glm::ivec2(1));
    const glm::ivec2 tileSize{hd::hdTileSize(histogramSize.x, tiles.x), hd::hdTileSize(histogramSize.y, tiles.y)};
    mBins = std::clamp(inputs.spec.binCount, 1u, hd::kMaxHistogramBins);
    const std::size_t words = std::size_t(tiles.x * tiles.y) * mBins;
    if (mTileHistograms.size() < words * sizeof(std::uint32_t))
        mTileHistograms =
            gl::Buffer("tonemap.clahe.tile-histograms", std::size_t(hd::kMaxTilesPerAxis * hd::kMaxTilesPerAxis) *
                                                            hd::kMaxHistogramBins * sizeof(std::uint32_t));
    if (!mHistogramProgram) {
        mHistogramProgram = ctx.shaders.buildCompute("tonemap.clahe.tile-histograms", "tonemap/TileHistogram.comp");
        mCurvesProgram = ctx.shaders.buildCompute("tonemap.clahe.curves", "tonemap/ClaheCurves.comp");
    }
    // The histogram pass counted them in its read of the frame (same grid, same image): no pass here.
    mLastInPass = mTileTarget.written && mTileTarget.tiles == tiles && mTileTarget.tileSize == tileSize;
    mTileTarget.written = false;
    if (!mLastInPass) {
        auto scope = ctx.profiler.scope("tonemap/clahe/curve/tile-histograms");
        mTileHistograms.clearUintRange(0, words * sizeof(std::uint32_t), 0u);
        glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT | GL_SHADER_STORAGE_BARRIER_BIT);
        mHistogramProgram.use();
        glProgramUniform2i(mHistogramProgram.id(), 0, histogramSize.x, histogramSize.y);
        glProgramUniform4i(mHistogramProgram.id(), 1, tiles.x, tiles.y, tileSize.x, tileSize.y);
        inputs.histogramImage.texture.bindUnit(hd::kTextureUnitInput);
        glBindSampler(hd::kTextureUnitInput, 0);
        inputs.params.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingHistogramParams);
        mTileHistograms.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingScratch0);
        // A workgroup covers 64x64 pixels (TileHistogram.comp).
        glDispatchCompute(GLuint((histogramSize.x + 63) / 64), GLuint((histogramSize.y + 63) / 64), 1);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    }
    // Temporal smoothing: the previous curves must be this grid's and bin count's.
    const bool sameGrid = mPreviousValid && mPreviousTiles == tiles && mPreviousBins == mBins;
    const double dt = std::isfinite(inputs.dtSeconds) ? std::max(inputs.dtSeconds, 0.0) : 0.0;
    mAlpha = sameGrid && s.tiles.smoothingSeconds > 0.0f ? float(1.0 - std::exp(-dt / double(s.tiles.smoothingSeconds)))
                                                         : 1.0f;
    // The previous curves are mTiles.previous() (ping-pong: no copy).
    mPreviousValid = true;
    mPreviousTiles = tiles;
    mPreviousBins = mBins;
    {
        auto scope = ctx.profiler.scope("tonemap/clahe/curve/tile-curves");
        mCurvesProgram.use();
        mCurvesProgram.set(3, mAlpha);
        if (!mKeyState) {
            mKeyState = gl::Buffer("tonemap.clahe.key-state", 4 * sizeof(std::uint32_t));
            mReadback = std::make_unique<StateReadback>("tonemap.clahe.key-value", 2 * sizeof(std::uint32_t));
        }
        mKeyState.clearUint(0u);  // a GL command: ordered before the dispatch without a memory barrier
        mKeyState.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingOperatorState);
        const std::uint32_t tileCount = mTiles.tileCount();
        mCurvesProgram.set(0, tileCount);
        mCurvesProgram.set(1, claheClipSteps(s.clip));
        mCurvesProgram.set(2, s.encodedLevels ? 1u : 0u);
        inputs.params.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingHistogramParams);
        inputs.histogram.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingHistogram);
        mTileHistograms.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingScratch0);
        curve.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingCurve);
        // The previous frame's curves (read by the smoothing) and this frame's (written).
        (mAlpha < 1.0f ? mTiles.previous() : mTiles.buffer())
            .bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingLocalAdaptation);
        mTiles.buffer().bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingScratch1);
        glDispatchCompute(tileCount + 1, 1, 1);  // the last workgroup: the global curve
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
    }
    mReadback->request(mKeyState, 0, ctx.frameIndex);
    mTiles.curves().bins = mBins;
    mTiles.curves().histograms = &mTileHistograms;
}

Traffic ToneClahe::curveMinimumTraffic(const TrafficShape& shape) const
{
    // One read of the histogram image for the tile histograms (none where the histogram pass counted
    // them, as on the last frame); the tile histograms and curves.
    const std::uint64_t pixels =
        mLastInPass ? 0 : std::uint64_t(shape.histogramImage.x) * std::uint64_t(shape.histogramImage.y);
    const std::uint64_t tiles = std::uint64_t(mSettings.tiles.tilesX) * mSettings.tiles.tilesY;
    return {pixels * shape.frameBytesPerPixel + tiles * shape.bins * kBinBytes,
            2 * tiles * shape.bins * kBinBytes + std::uint64_t(shape.bins) * kBinBytes};
}

bool ToneClahe::ui()
{
    bool changed = localTileUi(mSettings.tiles);
    changed |= ImGui::SliderFloat("Clip limit", &mSettings.clip, 0.0f, 16.0f, "%.2f x mean");
    helpMarker(
        "Each tile's bins are cut to this multiple of its mean count (OpenCV's clip limit, 1/256 steps) "
        "and the excess spread over all bins; 0: no clipping (plain adaptive equalization).");
    changed |= ImGui::SliderFloat("Smoothing (s)", &mSettings.tiles.smoothingSeconds, 0.0f, 2.0f, "%.2f");
    helpMarker(
        "Time constant of the tile curves' exponential smoothing over frames (0: none): each frame moves "
        "them by 1 - exp(-dt / tau) toward the new curves, against CLAHE's flicker on footage.");
    changed |= ImGui::Checkbox("Equalize encoded levels", &mSettings.encodedLevels);
    helpMarker(
        "The equalized value is an sRGB-encoded display level, as OpenCV equalizes 8-bit encoded images; "
        "off: linear display luminance.");
    return changed;
}

ParameterList ToneClahe::parameters()
{
    const ClaheSettings d;
    ParameterList list;
    appendLocalTileParameters(list, "clahe", mSettings.tiles);
    list.items.push_back(floatParameter("clahe.clip", "Clip limit", mSettings.clip, 0.0f, 256.0f, d.clip));
    list.items.push_back(
        boolParameter("clahe.encoded_levels", "Equalize encoded levels", mSettings.encodedLevels, d.encodedLevels));
    list.items.push_back(floatParameter("clahe.smoothing", "Tile curve smoothing (s, 0 = none)",
                                        mSettings.tiles.smoothingSeconds, 0.0f, 10.0f, d.tiles.smoothingSeconds));
    return list;
}

bool ToneClahe::describeForReference(const ToneVerifyFrame& /*frame*/, ref::ToneCheckInputs& check) const
{
    check.curve.settings = mSettings;
    if (!mTiles.curves().curves || mBins == 0)
        return true;
    check.numbers["tiles-x"] = mTiles.tiles().x;
    check.numbers["tiles-y"] = mTiles.tiles().y;
    check.words["tile-histograms"] = mTileHistograms.readAll<std::uint32_t>(std::size_t(mTiles.tileCount()) * mBins);
    check.floats["tile-curves"] = mTiles.read();
    check.numbers["alpha"] = mAlpha;
    if (mAlpha < 1.0f)
        check.floats["previous-tile-curves"] = mTiles.previous().readAll<float>(check.floats["tile-curves"].size());
    return true;
}

std::vector<KeyValueSample> ToneClahe::takeKeyValues()
{
    return tileMeanKeyValues(mReadback.get());
}

std::string ToneClahe::status() const
{
    return "clahe: " + describeTiles(mTiles, mSettings.tiles) +
           (mSettings.tiles.smoothingSeconds > 0.0f
                ? ", smoothing " + std::to_string(mSettings.tiles.smoothingSeconds) + " s"
                : std::string());
}

}  // namespace post
