#include "post/tonemap/LocalTileCurves.h"

#include "post/HelpMarker.h"
#include "post/tonemap/ToneCommon.h"
#include "post/tonemap/ToneOperator.h"
#include "util/Log.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <utility>

namespace post {

std::vector<KeyValueSample> tileMeanKeyValues(StateReadback* readback)
{
    std::vector<KeyValueSample> out;
    if (!readback)
        return out;
    for (const StateReadback::Arrival& arrival : readback->takeArrived()) {
        std::uint32_t words[2] = {};
        std::memcpy(words, arrival.words.data(), sizeof(words));
        if (words[1] > 0 && words[0] > 0)
            out.push_back({arrival.frameIndex, float(std::log2(double(words[0]) / 1048576.0 / words[1]))});
    }
    return out;
}

void TileCurveBuffer::prepare(glm::ivec2 frame, const LocalTileSettings& settings, float gainViewRangeEv)
{
    const LocalTileSettings s = sanitize(settings);
    const glm::ivec2 size = glm::max(frame, glm::ivec2(1));
    mCurves.tiles = {int(effectiveTiles(s.tilesX, size.x)), int(effectiveTiles(s.tilesY, size.y))};
    mCurves.tileSize = {hd::hdTileSize(size.x, mCurves.tiles.x), hd::hdTileSize(size.y, mCurves.tiles.y)};
    const std::size_t words =
        hd::kTileCurvesHeaderWords + std::size_t(hd::kMaxTilesPerAxis * hd::kMaxTilesPerAxis) * hd::kTileCurveStride;
    mCurrent = 1 - mCurrent;
    gl::Buffer& target = mBuffers[mCurrent];
    if (!target) {
        target = gl::Buffer(mCurrent == 0 ? "tonemap.local.tile-curves.0" : "tonemap.local.tile-curves.1",
                            words * sizeof(float));
        target.clearUint(0u);
    }
    std::vector<float> header(hd::kTileCurvesHeaderWords, 0.0f);
    header[hd::kTileTilesX] = float(mCurves.tiles.x);
    header[hd::kTileTilesY] = float(mCurves.tiles.y);
    header[hd::kTileWidth] = float(mCurves.tileSize.x);
    header[hd::kTileHeight] = float(mCurves.tileSize.y);
    header[hd::kTileStrength] = s.strength;
    header[hd::kTileGainLogRange] = gainViewRangeEv;
    if (header != mHeaders[mCurrent]) {
        target.update(std::span<const float>(header));
        mHeaders[mCurrent] = std::move(header);
    }
    mCurves.curves = &target;
}

std::vector<float> TileCurveBuffer::read() const
{
    return mBuffers[mCurrent].readAll<float>(hd::kTileCurvesHeaderWords +
                                             std::size_t(tileCount()) * hd::kTileCurveStride);
}

bool localTileUi(LocalTileSettings& settings)
{
    int tiles[2] = {int(settings.tilesX), int(settings.tilesY)};
    bool changed = ImGui::SliderInt2("Tiles (x, y)", tiles, 1, int(hd::kMaxTilesPerAxis));
    helpMarker(
        "The tile grid: one histogram and curve per tile, blended bilinearly per pixel (OpenCV CLAHE's "
        "geometry, tiles of ceil(size / tiles) pixels, no padding).");
    settings.tilesX = std::uint32_t(std::max(tiles[0], 1));
    settings.tilesY = std::uint32_t(std::max(tiles[1], 1));
    changed |= ImGui::SliderFloat("Strength", &settings.strength, 0.0f, 1.0f);
    helpMarker("0: the global curve; 1: the local curves (display values blended).");
    return changed;
}

void appendLocalTileParameters(ParameterList& list, const std::string& id, LocalTileSettings& settings)
{
    const LocalTileSettings d;
    list.items.push_back(
        uintParameter(id + ".tiles_x", "Tiles across", settings.tilesX, 1u, hd::kMaxTilesPerAxis, d.tilesX));
    list.items.push_back(
        uintParameter(id + ".tiles_y", "Tiles down", settings.tilesY, 1u, hd::kMaxTilesPerAxis, d.tilesY));
    list.items.push_back(floatParameter(id + ".strength", "Strength", settings.strength, 0.0f, 1.0f, d.strength));
}

std::string describeProbeTiles(const ProbeSample& sample, const ToneOperator& op)
{
    const LocalTileCurves* tiles = op.traits().localTiles ? op.localTiles() : nullptr;
    if (!tiles || !tiles->curves || !sample.inside)
        return {};
    const float fx = hd::hdTileBlendPosition(sample.texel.x, 1.0f / float(tiles->tileSize.x));
    const float fy = hd::hdTileBlendPosition(sample.texel.y, 1.0f / float(tiles->tileSize.y));
    const int x[2] = {hd::hdTileBlendFirst(fx), hd::hdTileBlendSecond(fx, tiles->tiles.x)};
    const int y[2] = {hd::hdTileBlendFirst(fy), hd::hdTileBlendSecond(fy, tiles->tiles.y)};
    const float xa = hd::hdTileBlendWeight(fx);
    const float ya = hd::hdTileBlendWeight(fy);
    const float wx[2] = {1.0f - xa, xa};
    const float wy[2] = {1.0f - ya, ya};
    std::string text = "; tiles (column,row of " + std::to_string(tiles->tiles.x) + "x" +
                       std::to_string(tiles->tiles.y) + ") and weights:";
    for (int j = 0; j < 2; ++j)
        for (int i = 0; i < 2; ++i)
            text += util::format(" ({},{}) {}", x[i], y[j], wx[i] * wy[j]);
    if (sample.tiles) {
        // Each tile's curve at the pixel's L (the tiled apply's lookup), their blend, the global curve.
        char values[192];
        std::snprintf(values, sizeof values, "; tile curves %.4f %.4f %.4f %.4f, blended %.4f vs global %.4f",
                      sample.tileValues[0], sample.tileValues[1], sample.tileValues[2], sample.tileValues[3],
                      sample.tileLocal, sample.tileGlobal);
        text += values;
    }
    return text;
}

std::string describeTiles(const TileCurveBuffer& buffer, const LocalTileSettings& settings)
{
    return util::format("{}x{} tiles of {}x{}, strength {}", buffer.tiles().x, buffer.tiles().y, buffer.tileSize().x,
                        buffer.tileSize().y, settings.strength);
}

}  // namespace post
