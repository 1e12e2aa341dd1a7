#include "post/tonemap/ToneWardLocal.h"

#include "post/HelpMarker.h"
#include "post/tonemap/ToneShaders.h"
#include "profiling/Profiler.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

namespace post {

namespace {

constexpr std::size_t roundUp256(std::size_t bytes)
{
    return (bytes + 255) / 256 * 256;
}

constexpr std::size_t kParamsStride = roundUp256(hd::kHistogramParamsWords * sizeof(std::uint32_t));
constexpr std::size_t kHistogramStride = roundUp256(hd::kHistogramBufferWords * sizeof(std::uint32_t));
constexpr std::size_t kStateStride = roundUp256(ward_state::kWords * sizeof(float));
constexpr std::size_t kViewStride = roundUp256(kWardViewWords * sizeof(float));
constexpr std::size_t kMaxTiles = std::size_t(hd::kMaxTilesPerAxis) * hd::kMaxTilesPerAxis;

}  // namespace

std::string_view ToneWardLocal::description() const
{
    return "Ward 1997 histogram adjustment (hdrlab's Ward, frame sampling) fitted per tile of the foveal image, "
           "the tile curves blended bilinearly per pixel and toward the global Ward curve by the strength.";
}

void ToneWardLocal::ensureTileBuffers()
{
    if (mTileParams)
        return;
    mTileParams = gl::Buffer("tonemap.ward-local.params", kMaxTiles * kParamsStride);
    mTileHistograms = gl::Buffer("tonemap.ward-local.histograms", kMaxTiles * kHistogramStride);
    mTileState = gl::Buffer("tonemap.ward-local.state", kMaxTiles * kStateStride);
    mTileView = gl::Buffer("tonemap.ward-local.view", kMaxTiles * kViewStride);
    mTileState.clearUint(0u);
}

void ToneWardLocal::computeCurve(PassContext& ctx, const ToneInputs& inputs, gl::Buffer& curve)
{
    const WardLocalSettings s = sanitize(mSettings);
    mWard.setSettings(s.ward);
    mWard.computeCurve(ctx, inputs, curve);  // the global Ward curve and its foveal image
    mFrame = inputs.image.size;
    mTiles.prepare(mFrame, s.tiles);
    ensureTileBuffers();
    auto scope = ctx.profiler.scope("tonemap/ward-local/curve/tiles");
    const glm::ivec2 tiles = mTiles.tiles();
    const glm::ivec2 grid = mWard.fovealGrid();
    const std::size_t globalWords = hd::kCurveHeaderWords + kWardCurveSamples;
    std::vector<WardTileRect> rects;
    std::vector<std::uint32_t> empty;
    for (int ty = 0; ty < tiles.y; ++ty)
        for (int tx = 0; tx < tiles.x; ++tx) {
            const auto [x0, x1] = fovealTileSpan(tx, tiles.x, mFrame.x, grid.x);
            const auto [y0, y1] = fovealTileSpan(ty, tiles.y, mFrame.y, grid.y);
            const std::uint32_t tile = std::uint32_t(ty * tiles.x + tx);
            if (x1 > x0 && y1 > y0)
                rects.push_back({{x0, y0}, {x1 - x0, y1 - y0}, tile});
            else
                empty.push_back(tile);
        }
    // Temporal smoothing: the previous curves must be this grid's.
    const bool sameGrid = mPreviousValid && mPreviousTiles == tiles;
    const double dt = std::isfinite(inputs.dtSeconds) ? std::max(inputs.dtSeconds, 0.0) : 0.0;
    mAlpha = sameGrid && s.tiles.smoothingSeconds > 0.0f ? float(1.0 - std::exp(-dt / double(s.tiles.smoothingSeconds)))
                                                         : 1.0f;
    // The previous curves are mTiles.previous() (ping-pong: no copy).
    mPreviousValid = true;
    mPreviousTiles = tiles;
    const WardTileOutputs out{mTileParams,   mTileHistograms,  mTileState,   mTileView,  mTiles.buffer(),
                              kParamsStride, kHistogramStride, kStateStride, kViewStride};
    if (!mWard.fitTiles(ctx, rects, out)) {  // no frame fit this frame (a fed histogram): the global curve
        for (const WardTileRect& rect : rects)
            empty.push_back(rect.tile);
    }
    if (!empty.empty()) {  // the barriers only where there is a copy (none in a steady frame)
        glMemoryBarrier(GL_ALL_BARRIER_BITS);
        for (std::uint32_t tile : empty)
            curve.copyTo(mTiles.buffer(), 0, std::size_t(hd::hdTileCurveBase(tile)) * sizeof(float),
                         globalWords * sizeof(float));
    }
    glMemoryBarrier(GL_ALL_BARRIER_BITS);
    // The smoothing (alpha < 1) and the key value, a workgroup per tile.
    if (!mSmoothProgram) {
        mSmoothProgram = ctx.shaders.buildCompute("tonemap.ward-local.smooth", "tonemap/WardLocalSmooth.comp");
        mKeyState = gl::Buffer("tonemap.ward-local.key-state", 4 * sizeof(std::uint32_t));
        mReadback = std::make_unique<StateReadback>("tonemap.ward-local.key-value", 2 * sizeof(std::uint32_t));
    }
    mKeyState.clearUint(0u);  // a GL command: ordered before the dispatch without a memory barrier
    mSmoothProgram.use();
    mSmoothProgram.set(0, mAlpha);
    (mAlpha < 1.0f ? mTiles.previous() : mTiles.buffer())
        .bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingLocalAdaptation);
    mTiles.buffer().bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingScratch0);
    mKeyState.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingOperatorState);
    inputs.params.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingHistogramParams);
    glDispatchCompute(mTiles.tileCount(), 1, 1);
    glMemoryBarrier(GL_ALL_BARRIER_BITS);
    mReadback->request(mKeyState, 0, ctx.frameIndex);
}

std::vector<KeyValueSample> ToneWardLocal::takeKeyValues()
{
    static_cast<ToneState&>(mWard).takeKeyValues();  // Ward's log-average is not this operator's key value
    return tileMeanKeyValues(mReadback.get());
}

std::string ToneWardLocal::status() const
{
    const std::string ward = static_cast<const ToneState&>(mWard).status();
    return ward + (ward.empty() ? "" : "; ") + "ward-local: " + describeTiles(mTiles, mSettings.tiles) +
           (mSettings.tiles.smoothingSeconds > 0.0f
                ? ", smoothing " + std::to_string(mSettings.tiles.smoothingSeconds) + " s"
                : std::string());
}

bool ToneWardLocal::ui()
{
    bool changed = localTileUi(mSettings.tiles);
    changed |= ImGui::SliderFloat("Smoothing (s)", &mSettings.tiles.smoothingSeconds, 0.0f, 2.0f, "%.2f");
    helpMarker(
        "Time constant of the tile curves' exponential smoothing over frames (0: none): each frame moves "
        "them by 1 - exp(-dt / tau) toward the new curves, against flicker on footage.");
    int bins = int(mSettings.ward.bins);
    changed |= ImGui::SliderInt("Bins", &bins, 2, int(kWardMaxBins));
    mSettings.ward.bins = std::uint32_t(std::max(bins, 2));
    changed |= ImGui::Checkbox("Human contrast sensitivity ceiling", &mSettings.ward.humanContrast);
    helpMarker("Ward's TVI ceiling (pcond -s) in every tile and the global curve; off: the linear ceiling.");
    if (changed)
        mSettings = sanitize(mSettings);
    return changed;
}

ParameterList ToneWardLocal::parameters()
{
    WardSettings& w = mSettings.ward;
    const WardLocalSettings d;
    ParameterList list;
    appendLocalTileParameters(list, "ward-local", mSettings.tiles);
    list.items.push_back(floatParameter("ward-local.smoothing", "Tile curve smoothing (s, 0 = none)",
                                        mSettings.tiles.smoothingSeconds, 0.0f, 10.0f, d.tiles.smoothingSeconds));
    list.items.push_back(uintParameter("ward-local.bins", "Bins", w.bins, 2u, kWardMaxBins, d.ward.bins));
    list.items.push_back(
        floatParameter("ward-local.display_min", "Display min (cd/m^2)", w.displayMin, 1e-4f, 1e6f, d.ward.displayMin));
    list.items.push_back(
        floatParameter("ward-local.display_max", "Display max (cd/m^2)", w.displayMax, 1e-3f, 1e6f, d.ward.displayMax));
    list.items.push_back(floatParameter("ward-local.scene_scale", "Scene scale (cd/m^2 per unit)", w.sceneScale, 1e-9f,
                                        1e9f, d.ward.sceneScale));
    list.items.push_back(boolParameter("ward-local.human_contrast", "Human contrast sensitivity ceiling",
                                       w.humanContrast, d.ward.humanContrast));
    list.items.push_back(boolParameter("ward-local.duplicate_bottom_bin", "Duplicate bottom bin", w.duplicateBottomBin,
                                       d.ward.duplicateBottomBin));
    list.commit = [this] { mSettings = sanitize(mSettings); };
    return list;
}

bool ToneWardLocal::describeForReference(const ToneVerifyFrame& frame, ref::ToneCheckInputs& check) const
{
    if (!mWard.describeForReference(frame, check))
        return false;
    if (!mTiles.curves().curves)
        return true;
    check.numbers["tiles-x"] = mTiles.tiles().x;
    check.numbers["tiles-y"] = mTiles.tiles().y;
    check.numbers["frame-width"] = mFrame.x;
    check.numbers["frame-height"] = mFrame.y;
    check.floats["tile-curves"] = mTiles.read();
    check.numbers["alpha"] = mAlpha;
    if (mAlpha < 1.0f)
        check.floats["previous-tile-curves"] = mTiles.previous().readAll<float>(check.floats["tile-curves"].size());
    return true;
}

}  // namespace post
