// The local operators' chain as the pipeline plans it (docs/PERF.md, issue 33): clahe's tile
// histograms counted in the histogram pass's own read of the frame (compute-shared-atomic's TILES walk,
// histogram/TileHistogramsInPass.glsl) exactly equal to the separate pass's (TileHistogram.comp) and
// to the CPU's, at 1x1, odd sizes and sizes no grid divides, with a persistent grid so small that a
// workgroup's run of blocks crosses many tile edges; and the tiled apply (tonemap/ApplyTiles.comp)
// giving the CPU's picture within --verify's 1 LSB on the fused path; ward-local's tile fits in one
// dispatch (WardFit.glsl's tile batch) bit for bit the CPU model's at grids up to the batch's 16x16;
// the tiled apply with each workgroup's tile LUTs staged in shared memory bit for bit the unstaged
// build's and Apply.comp's (legacy) picture, where workgroups straddle tile-centre lines, where tiles
// are narrower than a workgroup (the fallback) and where the LUTs do not fit (1024 and 4096 bins).
#include "post/PipelineParameters.h"
#include "post/PostPipeline.h"
#include "post/tonemap/LocalTileSwitches.h"
#include "post/tonemap/ToneClahe.h"
#include "reference/ToneLocalRef.h"
#include "support/HistogramTestSupport.h"
#include "support/PipelineGlTest.h"
#include "verify/PipelineVerify.h"

#include <bit>
#include <cstdlib>
#include <string>

namespace ts = testing_support;

namespace {

class LocalChainGl : public ts::PipelineGlTest
{
protected:
    void SetUp() override {}
    /// A pipeline whose compute-shared-atomic method is made with HDRLAB_SHARED_ATOMIC=`tuning`.
    void makePipeline(const char* tuning)
    {
        ::setenv("HDRLAB_SHARED_ATOMIC", tuning, 1);  // read when the method is made
        PipelineGlTest::makePipeline();
        parameters->set("histogram.method", "compute-shared-atomic");
        ::unsetenv("HDRLAB_SHARED_ATOMIC");
        parameters->set("tonemap.operator", "clahe");
        parameters->set("histogram.range", "manual");
    }
    post::ToneClahe& clahe() { return static_cast<post::ToneClahe&>(pipeline->toneOperator()); }
    /// The CPU's tile histograms of the image for the grid the operator used.
    std::vector<std::uint32_t> cpuTileHistograms()
    {
        const post::LocalTileCurves* tiles = clahe().localTiles();
        const auto params = pipeline->paramsBuffer().readAll<std::uint32_t>(hd::kHistogramParamsWords);
        ref::TileGrid grid;
        grid.tilesX = tiles->tiles.x;
        grid.tilesY = tiles->tiles.y;
        grid.tileWidth = hd::hdTileSize(image.width, grid.tilesX);
        grid.tileHeight = hd::hdTileSize(image.height, grid.tilesY);
        const hd::LuminanceWeights weights{std::bit_cast<float>(params[hd::kParamLumaR]),
                                           std::bit_cast<float>(params[hd::kParamLumaG]),
                                           std::bit_cast<float>(params[hd::kParamLumaB])};
        return ref::tileHistograms(image.rgba.data(), image.width, image.height, grid,
                                   std::bit_cast<float>(params[hd::kParamLogMin]),
                                   std::bit_cast<float>(params[hd::kParamLogMax]), params[hd::kParamBinCount],
                                   params[hd::kParamOutOfRange], weights);
    }
};

ts::TestImage twoZoneImage(int width, int height, std::uint32_t seed)
{
    return ts::twoZoneImage(width, height, seed, -9.0f, 2.0f);
}

TEST_F(LocalChainGl, TileHistogramsInTheHistogramPassEqualTheSeparatePassAndTheCpu)
{
    // groups=1: one workgroup walks every tile (a flush at each tile edge); 3 and 7: runs that start
    // and end inside tiles; the default: about a block per workgroup at these sizes.
    const std::pair<int, int> sizes[] = {{1, 1}, {2, 3}, {61, 37}, {97, 200}, {301, 263}};
    const std::pair<const char*, const char*> grids[] = {{"1", "1"}, {"8", "8"}, {"3", "5"}, {"16", "16"}, {"7", "2"}};
    for (const char* tuning : {"groups=1", "groups=3", "groups=7", "groups=1024"}) {
        makePipeline(tuning);
        for (const auto& [w, h] : sizes)
            for (const auto& [gx, gy] : grids)
                for (const char* policy : {"clamp", "separate"}) {
                    SCOPED_TRACE(std::string(tuning) + " " + std::to_string(w) + "x" + std::to_string(h) + " " + gx +
                                 "x" + gy + " " + policy);
                    setImage(twoZoneImage(w, h, std::uint32_t(w * 13 + h)));
                    parameters->set("histogram.out_of_range", policy);
                    parameters->set("clahe.tiles_x", gx);
                    parameters->set("clahe.tiles_y", gy);
                    clahe().setTileHistogramsInPass(true);
                    run();
                    ASSERT_TRUE(clahe().lastTileHistogramsInPass()) << "the histogram pass did not count them";
                    const std::vector<std::uint32_t> expected = cpuTileHistograms();
                    const auto inPass = clahe().tileHistograms().readAll<std::uint32_t>(expected.size());
                    const auto global = pipeline->histogramBuffer().readAll<std::uint32_t>(hd::kHistogramBufferWords);
                    clahe().setTileHistogramsInPass(false);
                    run();
                    ASSERT_FALSE(clahe().lastTileHistogramsInPass());
                    const auto separate = clahe().tileHistograms().readAll<std::uint32_t>(expected.size());
                    EXPECT_EQ(inPass, expected);
                    EXPECT_EQ(inPass, separate);
                    // The histogram itself (bins and counters) is the same with or without the tiles.
                    EXPECT_EQ(global, pipeline->histogramBuffer().readAll<std::uint32_t>(hd::kHistogramBufferWords));
                }
    }
}

TEST_F(LocalChainGl, FusedChainAndTiledApplyVerifyAtOddSizesAndStrengths)
{
    makePipeline("groups=5");
    for (const auto& [w, h] : {std::pair{61, 37}, std::pair{130, 97}})
        for (const char* tiles : {"1", "3", "8"}) {
            SCOPED_TRACE(std::to_string(w) + "x" + std::to_string(h) + " tiles " + tiles);
            setImage(twoZoneImage(w, h, 5));
            parameters->set("clahe.tiles_x", tiles);
            parameters->set("clahe.tiles_y", tiles);
            for (const char* strength : {"1", "0.5"}) {
                parameters->set("clahe.strength", strength);
                run();
                ASSERT_TRUE(clahe().lastTileHistogramsInPass());
                const verify::VerifyReport report = verify::verifyPipeline(*pipeline);
                EXPECT_TRUE(report.ok) << report.text;
                EXPECT_NE(report.text.find("tiled apply"), std::string::npos) << report.text;
            }
        }
}

TEST_F(LocalChainGl, WardLocalTileFitsInOneDispatchAreBitExactUpToSixteenBySixteen)
{
    makePipeline("groups=1024");
    parameters->set("tonemap.operator", "ward-local");
    setImage(twoZoneImage(301, 263, 9));
    for (const auto& [gx, gy] : {std::pair{"16", "16"}, std::pair{"5", "3"}, std::pair{"1", "16"}}) {
        SCOPED_TRACE(std::string(gx) + "x" + gy);
        parameters->set("ward-local.tiles_x", gx);
        parameters->set("ward-local.tiles_y", gy);
        run();
        const verify::VerifyReport report = verify::verifyPipeline(*pipeline);
        EXPECT_TRUE(report.ok) << report.text;
        EXPECT_NE(report.text.find("ward-local tile fits vs the serial CPU model per tile: bit-exact"),
                  std::string::npos)
            << report.text;
    }
}

/// The picture of each tiled-apply variant for the pipeline's current settings.
std::vector<std::uint8_t> pictureWithApply(post::PostPipeline& pipeline,
                                           const gl::Texture& texture,
                                           glm::ivec2 size,
                                           std::uint32_t variant)
{
    post::setLocalTileApplyVariant(variant);
    pipeline.run({texture, size}, 1.0 / 60.0, 60.0f);
    return pipeline.toneMappedTexture().readRgba8();
}

TEST_F(LocalChainGl, StagedTiledApplyIsBitExactAgainstTheUnstagedAndLegacyApply)
{
    using Switches = post::LocalTileSwitches;
    const std::uint32_t saved = post::localTileSwitches().applyVariant;
    makePipeline("groups=1024");
    // Tiles of at least 32x32 pixels (staged; workgroups straddle centre lines), narrower ones (more
    // than 3x3 tiles a workgroup: the storage-buffer fallback), 1x1 frames and grids, sizes no grid divides.
    const std::pair<int, int> sizes[] = {{1, 1}, {61, 37}, {301, 263}, {517, 300}};
    const std::pair<const char*, const char*> grids[] = {{"1", "1"}, {"3", "5"}, {"8", "8"}, {"16", "16"}, {"7", "2"}};
    int compared = 0;
    for (const char* op : {"clahe", "ward-local"}) {
        parameters->set("tonemap.operator", op);
        parameters->set(std::string(op) + ".smoothing", "0");  // every run of a frame gives the same curves
        for (const auto& [w, h] : sizes) {
            setImage(twoZoneImage(w, h, std::uint32_t(w + 7 * h)));
            for (const auto& [gx, gy] : grids)
                for (const char* bins : {"256", "1024", "4096"}) {
                    if (std::string(op) == "ward-local" && std::string(bins) != "256")
                        continue;  // Ward's tile curves have their own sample count
                    SCOPED_TRACE(std::string(op) + " " + std::to_string(w) + "x" + std::to_string(h) + " " + gx + "x" +
                                 gy + " bins " + bins);
                    parameters->set(std::string(op) + ".tiles_x", gx);
                    parameters->set(std::string(op) + ".tiles_y", gy);
                    parameters->set(std::string(op) + ".strength", w == 301 ? "0.5" : "1");
                    parameters->set("histogram.bins", bins);
                    const glm::ivec2 size{w, h};
                    const auto staged = pictureWithApply(*pipeline, texture, size, 0);
                    // The same frame again (no smoothing: the same curves), then with the LUTs from the
                    // storage buffer and with Apply.comp's tiled mode.
                    const auto stagedAgain = pictureWithApply(*pipeline, texture, size, 0);
                    const auto unstaged = pictureWithApply(*pipeline, texture, size, Switches::kApplyUnstaged);
                    const auto legacy = pictureWithApply(*pipeline, texture, size, Switches::kApplyLegacy);
                    ASSERT_EQ(staged.size(), std::size_t(w) * std::size_t(h) * 4);
                    ASSERT_EQ(staged, stagedAgain) << "the curves moved between runs of one frame";
                    EXPECT_EQ(stagedAgain, unstaged);
                    EXPECT_EQ(stagedAgain, legacy);
                    ++compared;
                }
        }
    }
    post::setLocalTileApplyVariant(saved);
    EXPECT_EQ(compared, 2 * 4 * 5 * 3 - 4 * 5 * 2);
}

}  // namespace
