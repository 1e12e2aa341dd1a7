// The local histogram tone operators (clahe, ward-local; docs/TONE_OPERATORS.md): through the pipeline
// on odd frame sizes and grids, their per-tile histograms exactly the CPU's, --verify for both (tile
// curves, tiled apply, Ward's per-tile fits bit for bit), the 1x1 grid of ward-local giving ward's
// curve bit for bit, strength 0 giving the global picture, and the settings keys.
#include "post/PipelineParameters.h"
#include "post/PostPipeline.h"
#include "post/tonemap/ToneClahe.h"
#include "post/tonemap/ToneRegistry.h"
#include "post/tonemap/ToneWardLocal.h"
#include "reference/ToneLocalRef.h"
#include "reference/ToneReference.h"
#include "support/HistogramTestSupport.h"
#include "support/PipelineGlTest.h"
#include "verify/PipelineVerify.h"

#include <bit>
#include <cmath>
#include <string>

namespace ts = testing_support;

namespace {

using LocalToneGl = ts::PipelineGlTest;

ts::TestImage twoZoneImage(int width, int height, std::uint32_t seed)
{
    return ts::twoZoneImage(width, height, seed, -6.0f, 2.0f);
}

TEST_F(LocalToneGl, BothOperatorsAreRegisteredWithTheirReferences)
{
    for (std::string_view id : {"clahe", "ward-local"}) {
        const auto op = post::createToneOperator(id);
        ASSERT_NE(op, nullptr) << id;
        EXPECT_TRUE(op->traits().localTiles) << id;
        EXPECT_NE(ref::findToneReference(id), nullptr) << id;
    }
}

TEST_F(LocalToneGl, ClaheTileHistogramsAreExactlyTheCpuCounts)
{
    // 301x263 with a 1x1, 3x5 or 8x8 grid... tiles of 64 pixels and more take the shared-memory path
    // of TileHistogram.comp, smaller ones its global atomics.
    const std::pair<int, int> sizes[] = {{61, 37}, {64, 64}, {17, 130}, {3, 2}, {301, 263}, {517, 389}};
    const std::pair<const char*, const char*> grids[] = {{"1", "1"}, {"8", "8"}, {"3", "5"}, {"16", "16"}};
    for (const auto& [w, h] : sizes)
        for (const char* policy : {"clamp", "separate"})
            for (const auto& [gx, gy] : grids) {
                SCOPED_TRACE(std::to_string(w) + "x" + std::to_string(h) + " " + policy + " " + gx + "x" + gy);
                setImage(twoZoneImage(w, h, std::uint32_t(w * 7 + h)));
                parameters->set("tonemap.operator", "clahe");
                parameters->set("histogram.out_of_range", policy);
                parameters->set("clahe.tiles_x", gx);
                parameters->set("clahe.tiles_y", gy);
                run();
                const auto& op = static_cast<const post::ToneClahe&>(pipeline->toneOperator());
                const post::LocalTileCurves* tiles = op.localTiles();
                ASSERT_NE(tiles, nullptr);
                const auto params = pipeline->paramsBuffer().readAll<std::uint32_t>(hd::kHistogramParamsWords);
                const float logMin = std::bit_cast<float>(params[hd::kParamLogMin]);
                const float logMax = std::bit_cast<float>(params[hd::kParamLogMax]);
                const std::uint32_t bins = params[hd::kParamBinCount];
                ref::TileGrid grid;
                grid.tilesX = tiles->tiles.x;
                grid.tilesY = tiles->tiles.y;
                grid.tileWidth = hd::hdTileSize(w, grid.tilesX);
                grid.tileHeight = hd::hdTileSize(h, grid.tilesY);
                EXPECT_EQ(grid.tileWidth, tiles->tileSize.x);
                const hd::LuminanceWeights weights{std::bit_cast<float>(params[hd::kParamLumaR]),
                                                   std::bit_cast<float>(params[hd::kParamLumaG]),
                                                   std::bit_cast<float>(params[hd::kParamLumaB])};
                const auto expected = ref::tileHistograms(image.rgba.data(), w, h, grid, logMin, logMax, bins,
                                                          params[hd::kParamOutOfRange], weights);
                const auto gpu = op.tileHistograms().readAll<std::uint32_t>(expected.size());
                EXPECT_EQ(gpu, expected);
                // Every in-range pixel lands in exactly one tile: the tiles sum to the global histogram.
                const auto global = pipeline->histogramBuffer().readAll<std::uint32_t>(bins);
                std::vector<std::uint32_t> summed(bins, 0u);
                for (std::size_t i = 0; i < expected.size(); ++i)
                    summed[i % bins] += expected[i];
                EXPECT_EQ(summed, global);
            }
}

TEST_F(LocalToneGl, ClaheVerifiesOnOddFramesGridsAndClipLimits)
{
    setImage(twoZoneImage(61, 37, 11));
    parameters->set("tonemap.operator", "clahe");
    for (const char* clip : {"0", "1", "2", "40"})
        for (const char* tiles : {"1", "4", "8", "16"}) {
            SCOPED_TRACE(std::string("clip ") + clip + " tiles " + tiles);
            parameters->set("clahe.clip", clip);
            parameters->set("clahe.tiles_x", tiles);
            parameters->set("clahe.tiles_y", tiles);
            const verify::VerifyReport report = verifyRun();
            EXPECT_TRUE(report.ok) << report.text;
            EXPECT_NE(report.text.find("tile histograms"), std::string::npos) << report.text;
            EXPECT_NE(report.text.find(": exact"), std::string::npos) << report.text;
            EXPECT_NE(report.text.find("tiled apply"), std::string::npos) << report.text;
        }
}

TEST_F(LocalToneGl, ClaheClipRedistributesAsOpenCv)
{
    // OpenCV's rule by hand: 8 bins, total 64, clip 2 -> limit 16; excess 44: batch 5, residual 4,
    // step 2 -> bins 0, 2, 4, 6 get one more.
    const std::vector<std::uint32_t> bins = {60, 4, 0, 0, 0, 0, 0, 0};
    const auto clipped = ref::claheClip(bins, post::claheClipSteps(2.0f));
    EXPECT_EQ(clipped, (std::vector<std::uint32_t>{22, 9, 6, 5, 6, 5, 6, 5}));
    EXPECT_EQ(post::claheClipLimit(post::claheClipSteps(2.0f), 64, 8), 16u);
    EXPECT_EQ(post::claheClipLimit(post::claheClipSteps(0.01f), 64, 8), 1u) << "at least 1, as OpenCV";
    EXPECT_EQ(post::claheClipLimit(0, 64, 8), 0u) << "clip 0: no clipping";
}

TEST_F(LocalToneGl, WardLocalVerifiesBitForBitPerTile)
{
    setImage(twoZoneImage(160, 90, 5));
    parameters->set("tonemap.operator", "ward-local");
    for (const char* tiles : {"1", "3", "8"})
        for (const char* human : {"false", "true"}) {
            SCOPED_TRACE(std::string("tiles ") + tiles + " human contrast " + human);
            parameters->set("ward-local.tiles_x", tiles);
            parameters->set("ward-local.tiles_y", tiles);
            parameters->set("ward-local.human_contrast", human);
            const verify::VerifyReport report = verifyRun();
            EXPECT_TRUE(report.ok) << report.text;
            EXPECT_NE(report.text.find("ward-local tile fits vs the serial CPU model per tile: bit-exact"),
                      std::string::npos)
                << report.text;
        }
}

TEST_F(LocalToneGl, WardLocalOneTileIsTheGlobalWardCurve)
{
    setImage(twoZoneImage(160, 90, 9));
    parameters->set("tonemap.operator", "ward");
    parameters->set("ward.sampling", "frame");
    run();
    const auto wardCurve = pipeline->curveBuffer().readAll<float>(hd::kCurveBufferWords);
    const auto wardPicture = pipeline->toneMappedTexture().readRgba8();

    parameters->set("tonemap.operator", "ward-local");
    parameters->set("ward-local.tiles_x", "1");
    parameters->set("ward-local.tiles_y", "1");
    run();
    const auto localCurve = pipeline->curveBuffer().readAll<float>(hd::kCurveBufferWords);
    const auto& op = static_cast<const post::ToneWardLocal&>(pipeline->toneOperator());
    const std::vector<float> tiles = op.tileCurves().read();
    ASSERT_EQ(op.tileCurves().tileCount(), 1u);
    const std::size_t words = hd::kCurveHeaderWords + post::kWardCurveSamples;
    for (std::size_t i = 0; i < words; ++i) {
        if (i == hd::kCurveSampleCount || i == hd::kCurveChannels || (i > hd::kCurveScale && i < hd::kCurveHeaderWords))
            continue;  // header words Ward's fit does not write in a tile block
        ASSERT_EQ(std::bit_cast<std::uint32_t>(localCurve[i]), std::bit_cast<std::uint32_t>(wardCurve[i])) << i;
        ASSERT_EQ(std::bit_cast<std::uint32_t>(tiles[hd::hdTileCurveBase(0) + i]),
                  std::bit_cast<std::uint32_t>(wardCurve[i]))
            << "word " << i << " of the one tile's curve";
    }
    EXPECT_EQ(pipeline->toneMappedTexture().readRgba8(), wardPicture) << "a 1x1 grid is the global picture";
}

TEST_F(LocalToneGl, StrengthZeroIsTheGlobalPicture)
{
    setImage(twoZoneImage(64, 48, 3));
    parameters->set("tonemap.operator", "ward");
    parameters->set("ward.sampling", "frame");
    run();
    const auto wardPicture = pipeline->toneMappedTexture().readRgba8();
    parameters->set("tonemap.operator", "ward-local");
    parameters->set("ward-local.strength", "0");
    run();
    EXPECT_EQ(pipeline->toneMappedTexture().readRgba8(), wardPicture) << "strength 0: the global curve (+Inf too)";
    parameters->set("ward-local.strength", "1");
    run();
    EXPECT_NE(pipeline->toneMappedTexture().readRgba8(), wardPicture) << "the tiles change the picture";
}

TEST_F(LocalToneGl, SettingsKeysRoundTrip)
{
    for (const char* key : {"clahe.tiles_x", "clahe.tiles_y", "clahe.strength", "clahe.clip", "clahe.encoded_levels",
                            "ward-local.tiles_x", "ward-local.tiles_y", "ward-local.strength", "ward-local.bins",
                            "ward-local.human_contrast"})
        EXPECT_NE(post::findParameter(key), nullptr) << key;
    parameters->set("clahe.clip", "3.5");
    parameters->set("tonemap.operator", "clahe");
    EXPECT_FLOAT_EQ(static_cast<const post::ToneClahe&>(pipeline->toneOperator()).settings().clip, 3.5f);
    EXPECT_EQ(parameters->get("clahe.clip"), "3.5");
}

TEST_F(LocalToneGl, LocalGainViewShowsMidGreyWhereLocalEqualsGlobal)
{
    setImage(twoZoneImage(40, 30, 2));
    parameters->set("tonemap.operator", "clahe");
    parameters->set("clahe.tiles_x", "1");
    parameters->set("clahe.tiles_y", "1");
    pipeline->setViewMode(post::ViewMode::LocalGain, false);
    run();
    const auto bytes = pipeline->toneMappedTexture().readRgba8();
    // One tile equals the global curve: gain 0 -> 0.5 encoded as sRGB (188) wherever the pixel is lit.
    int grey = 0;
    for (std::size_t i = 0; i < bytes.size(); i += 4)
        grey += bytes[i] == 188 ? 1 : 0;
    EXPECT_GT(grey, int(bytes.size() / 4) * 9 / 10);
    const verify::VerifyReport report = verify::verifyPipeline(*pipeline);
    EXPECT_TRUE(report.ok) << report.text;
    pipeline->setViewMode(post::ViewMode::ToneMapped, false);
}

}  // namespace

namespace {

TEST_F(LocalToneGl, ClaheSmoothingMovesTheTileCurvesByAlphaAndVerifies)
{
    parameters->set("tonemap.operator", "clahe");
    parameters->set("histogram.range", "manual");
    parameters->set("clahe.smoothing", "0.5");
    setImage(twoZoneImage(64, 48, 21));
    run();  // the first frame: nothing to smooth from
    const auto& op = static_cast<const post::ToneClahe&>(pipeline->toneOperator());
    const std::vector<float> first = op.tileCurves().read();
    setImage(twoZoneImage(64, 48, 22));  // another frame
    const verify::VerifyReport report = verifyRun();
    EXPECT_TRUE(report.ok) << report.text;
    EXPECT_NE(report.text.find("(smoothed, alpha"), std::string::npos) << report.text;
    // Without smoothing the same frame gives the new curves: the smoothed ones lie between.
    const std::vector<float> smoothed = op.tileCurves().read();
    parameters->set("clahe.smoothing", "0");
    run();
    const std::vector<float> target = op.tileCurves().read();
    const std::size_t sample = hd::hdTileCurveBase(0) + hd::kCurveHeaderWords + 100;
    const float alpha = float(1.0 - std::exp(-(1.0 / 60.0) / 0.5));
    EXPECT_NEAR(smoothed[sample], first[sample] + alpha * (target[sample] - first[sample]), 1e-5);
    EXPECT_NE(smoothed[sample], target[sample]);
}

}  // namespace

namespace {

TEST_F(LocalToneGl, TileGridViewDrawsEveryTileEdgeOverThePicture)
{
    setImage(twoZoneImage(40, 30, 4));
    parameters->set("tonemap.operator", "clahe");
    parameters->set("clahe.tiles_x", "4");
    parameters->set("clahe.tiles_y", "3");
    pipeline->setViewMode(post::ViewMode::LocalTiles, false);
    run();
    const auto bytes = pipeline->toneMappedTexture().readRgba8();
    pipeline->setViewMode(post::ViewMode::ToneMapped, false);
    const auto yellow = [&](int x, int y) {
        const std::size_t i = (std::size_t(y) * 40 + std::size_t(x)) * 4;
        return bytes[i] == 255 && bytes[i + 2] == 0 && bytes[i + 1] > 200;
    };
    for (int y = 0; y < 30; ++y)  // tiles of 10 x 10: edges at x = 10, 20, 30 and y = 10, 20
        for (int x = 0; x < 40; ++x)
            EXPECT_EQ(yellow(x, y), (x > 0 && x % 10 == 0) || (y > 0 && y % 10 == 0)) << x << "," << y;
    const verify::VerifyReport report = verify::verifyPipeline(*pipeline);
    EXPECT_TRUE(report.ok) << report.text;
}

}  // namespace

namespace {

// The probe's tile lines: the pixel's four tile curves at its L, their blend and the global curve's
// value, against the CPU's tiled lookup (ref::tiledDisplayValue) on the GPU's buffers.
TEST_F(LocalToneGl, ProbeReportsTheFourTileCurvesTheirBlendAndTheGlobalCurve)
{
    const int w = 61, h = 37;
    setImage(twoZoneImage(w, h, 31));
    for (std::string_view id : {"clahe", "ward-local"}) {
        SCOPED_TRACE(std::string(id));
        const std::string key(id);
        parameters->set("tonemap.operator", key);
        parameters->set(key + ".tiles_x", "4");
        parameters->set(key + ".tiles_y", "3");
        parameters->set(key + ".strength", "1");
        const std::vector<glm::ivec2> points = {{5, 4}, {30, 18}, {w - 2, h - 1}};
        pipeline->setProbePoints(points);
        run();
        glFinish();
        pipeline->pollProbe();
        const auto probe = pipeline->latestProbe();
        ASSERT_TRUE(probe.has_value());
        ASSERT_EQ(probe->samples.size(), points.size());
        const post::LocalTileCurves* tiles = pipeline->toneOperator().localTiles();
        ASSERT_NE(tiles, nullptr);
        const std::vector<float> tileWords = tiles->curves->readAll<float>(
            hd::kTileCurvesHeaderWords + std::size_t(tiles->tiles.x * tiles->tiles.y) * hd::kTileCurveStride);
        const std::vector<float> global = pipeline->curveBuffer().readAll<float>(hd::kCurveBufferWords);
        std::vector<float> noStrength = tileWords;
        noStrength[hd::kTileStrength] = 0.0f;
        for (const post::ProbeSample& s : probe->samples) {
            SCOPED_TRACE(std::to_string(s.texel.x) + "," + std::to_string(s.texel.y));
            ASSERT_TRUE(s.tiles);
            const double local =
                ref::tiledDisplayValue(tileWords.data(), global.data(), s.texel.x, s.texel.y, s.luminance);
            const double globalValue =
                ref::tiledDisplayValue(noStrength.data(), global.data(), s.texel.x, s.texel.y, s.luminance);
            EXPECT_NEAR(s.tileLocal, local, 1e-5);
            EXPECT_NEAR(s.tileGlobal, globalValue, 1e-5);
            // The blend of the four listed values with the listed weights is the local value.
            const float fx = hd::hdTileBlendPosition(s.texel.x, 1.0f / float(tiles->tileSize.x));
            const float fy = hd::hdTileBlendPosition(s.texel.y, 1.0f / float(tiles->tileSize.y));
            const double xa = hd::hdTileBlendWeight(fx), ya = hd::hdTileBlendWeight(fy);
            const double blended = (1 - ya) * ((1 - xa) * s.tileValues[0] + xa * s.tileValues[1]) +
                                   ya * ((1 - xa) * s.tileValues[2] + xa * s.tileValues[3]);
            EXPECT_NEAR(s.tileLocal, blended, 1e-5);
            const std::string line = post::describeProbeTiles(s, pipeline->toneOperator());
            EXPECT_NE(line.find("tile curves"), std::string::npos) << line;
            EXPECT_NE(line.find("vs global"), std::string::npos) << line;
        }
        pipeline->setProbePoints({});
    }
}

}  // namespace

namespace {

// The Histogram panel's tile: the tile under the first probe point inside the frame, read back
// asynchronously with the histogram; its histogram is the CPU's count of that tile, its curve the tile
// curve's samples.
TEST_F(LocalToneGl, SelectedTileSnapshotIsTheCpuTileHistogramAndTheTileCurve)
{
    const int w = 61, h = 37;
    setImage(twoZoneImage(w, h, 41));
    parameters->set("tonemap.operator", "clahe");
    parameters->set("clahe.smoothing", "0");
    parameters->set("clahe.tiles_x", "4");
    parameters->set("clahe.tiles_y", "3");
    // The first point is outside (the mouse elsewhere): the second selects the tile.
    pipeline->setProbePoints({{-1, 0}, {50, 5}});
    run();
    glFinish();
    run();  // polls the first frame's copies
    const auto snapshot = pipeline->latestSnapshot();
    ASSERT_TRUE(snapshot.has_value());
    ASSERT_TRUE(snapshot->tile.has_value());
    const post::TileSnapshot& t = *snapshot->tile;
    const auto& op = static_cast<const post::ToneClahe&>(pipeline->toneOperator());
    const post::LocalTileCurves* tiles = op.localTiles();
    ASSERT_NE(tiles, nullptr);
    // (50, 5) from the top-left is texel row h - 1 - 5 = 31 (bottom-up), tiles of 16 x 13.
    EXPECT_EQ(t.tiles[0], 4);
    EXPECT_EQ(t.tiles[1], 3);
    EXPECT_EQ(t.tile[0], 50 / tiles->tileSize.x);
    EXPECT_EQ(t.tile[1], (h - 1 - 5) / tiles->tileSize.y);
    const auto params = pipeline->paramsBuffer().readAll<std::uint32_t>(hd::kHistogramParamsWords);
    const std::uint32_t bins = params[hd::kParamBinCount];
    ref::TileGrid grid;
    grid.tilesX = tiles->tiles.x;
    grid.tilesY = tiles->tiles.y;
    grid.tileWidth = tiles->tileSize.x;
    grid.tileHeight = tiles->tileSize.y;
    const hd::LuminanceWeights weights{std::bit_cast<float>(params[hd::kParamLumaR]),
                                       std::bit_cast<float>(params[hd::kParamLumaG]),
                                       std::bit_cast<float>(params[hd::kParamLumaB])};
    const auto expected = ref::tileHistograms(
        image.rgba.data(), w, h, grid, std::bit_cast<float>(params[hd::kParamLogMin]),
        std::bit_cast<float>(params[hd::kParamLogMax]), bins, params[hd::kParamOutOfRange], weights);
    const std::size_t index = std::size_t(t.tile[1] * grid.tilesX + t.tile[0]);
    const std::vector<std::uint32_t> tileBins(expected.begin() + std::ptrdiff_t(index * bins),
                                              expected.begin() + std::ptrdiff_t((index + 1) * bins));
    EXPECT_EQ(t.bins, tileBins);
    const std::vector<float> words = op.tileCurves().read();
    const std::size_t base = hd::hdTileCurveBase(std::uint32_t(index));
    ASSERT_EQ(t.curve.size(), std::size_t(words[base + hd::kCurveSampleCount]));
    for (std::size_t i = 0; i < t.curve.size(); ++i)
        ASSERT_EQ(t.curve[i], std::clamp(words[base + hd::kCurveHeaderWords + i], 0.0f, 1.0f)) << i;
    // No probe point inside the frame: no tile.
    pipeline->setProbePoints({{-1, 0}});
    run();
    EXPECT_FALSE(pipeline->latestSnapshot()->tile.has_value());
    pipeline->setProbePoints({});
}

}  // namespace

namespace {

// ward-local's smoothing (WardLocalSmooth.comp): --verify checks the smoothed tile curves against the
// CPU's fits moved by alpha from the previous curves (the previous curve evaluated at each new
// sample's log2 L); the smoothed curves differ from the unsmoothed ones; the key value is the tile mean.
TEST_F(LocalToneGl, WardLocalSmoothingMovesTheTileCurvesByAlphaAndVerifies)
{
    parameters->set("tonemap.operator", "ward-local");
    parameters->set("histogram.range", "manual");
    parameters->set("ward-local.tiles_x", "3");
    parameters->set("ward-local.tiles_y", "2");
    parameters->set("ward-local.smoothing", "0.5");
    setImage(twoZoneImage(64, 48, 21));
    run();
    const auto& op = static_cast<const post::ToneWardLocal&>(pipeline->toneOperator());
    EXPECT_EQ(pipeline->toneOperator().state()->keyValueName(), "tile mean");
    const std::vector<float> first = op.tileCurves().read();
    setImage(twoZoneImage(64, 48, 22));
    const verify::VerifyReport report = verifyRun();
    EXPECT_TRUE(report.ok) << report.text;
    EXPECT_NE(report.text.find("(smoothed, alpha"), std::string::npos) << report.text;
    const std::vector<float> smoothed = op.tileCurves().read();
    parameters->set("ward-local.smoothing", "0");
    run();
    const verify::VerifyReport plain = verify::verifyPipeline(*pipeline);
    EXPECT_TRUE(plain.ok) << plain.text;
    EXPECT_NE(plain.text.find("bit-exact"), std::string::npos) << plain.text;
    const std::vector<float> target = op.tileCurves().read();
    int between = 0;
    for (std::uint32_t tile = 0; tile < 6; ++tile) {
        const std::size_t base = hd::hdTileCurveBase(tile);
        if (target[base + hd::kCurveMode] == hd::kCurveModeLinearScale)
            continue;
        // The sample where the two frames' curves differ most.
        std::size_t i = base + hd::kCurveHeaderWords;
        for (std::size_t k = i; k < base + hd::kCurveHeaderWords + std::size_t(target[base + hd::kCurveSampleCount]);
             ++k)
            if (std::abs(first[k] - target[k]) > std::abs(first[i] - target[i]))
                i = k;
        // (Where the tile's range moved, sample i is another log2 L in each frame: --verify above checks
        // the value against the previous curve at this sample's L.)
        between += smoothed[i] != target[i];
    }
    EXPECT_GT(between, 0);
}

}  // namespace
