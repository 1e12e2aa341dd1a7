// The GL compute CLAHE (post::ClaheGl) against the CPU reference (ref::clahe*, itself checked against
// OpenCV in tests/reference/ClaheOracleTest), stage by stage (tile histograms, LUTs, image), on the
// fixed corner cases and on random configurations small enough for a software GL renderer; plus the
// parameter refusals.
#include "post/clahe/ClaheGl.h"
#include "reference/Clahe.h"
#include "support/ClaheCases.h"
#include "support/GlTestEnvironment.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ts = testing_support;

namespace {

class ClaheGlTest : public ts::GlTest
{
protected:
    /// Runs `c` on the GL backend and compares every stage with the reference; returns whether all
    /// were equal (the first difference is reported with the case).
    template <class Sample>
    bool matchesReference(const ts::ClaheCase& c, const ref::ClaheImage<Sample>& image)
    {
        const hd::ClaheGeometry g =
            hd::claheGeometry(c.width, c.height, c.tilesX, c.tilesY, c.clipLimit, ref::claheBins<Sample>());
        std::vector<Sample> result;
        if constexpr (sizeof(Sample) == 1)
            result = clahe.run8(ts::shaderLibrary(), image.samples.data(), g);
        else
            result = clahe.run16(ts::shaderLibrary(), image.samples.data(), g);
        const std::vector<std::uint32_t> histograms = ref::claheTileHistograms(image, g);
        const std::vector<std::uint16_t> luts = ref::claheLuts(histograms, g);
        const ref::ClaheImage<Sample> expected = ref::claheBlend(image, luts, g);
        EXPECT_EQ(clahe.readTileHistograms(), histograms) << c.describe();
        EXPECT_EQ(clahe.readLuts(), luts) << c.describe();
        std::size_t differing = 0;
        for (std::size_t i = 0; i < result.size() && i < expected.samples.size(); ++i)
            differing += result[i] != expected.samples[i];
        EXPECT_EQ(result.size(), expected.samples.size()) << c.describe();
        EXPECT_EQ(differing, 0u) << c.describe();
        return !::testing::Test::HasFailure();
    }

    bool matchesReference(const ts::ClaheCase& c)
    {
        return c.sixteenBit ? matchesReference(c, ts::claheImage16(c)) : matchesReference(c, ts::claheImage8(c));
    }

    post::ClaheGl clahe{post::ClaheGlVariant{}};  // the default variant, never the environment's
};

TEST_F(ClaheGlTest, FixedCasesEqualTheReferenceStageByStage)
{
    for (const ts::ClaheCase& c : ts::fixedClaheCases())
        if (!matchesReference(c))
            return;
}

TEST_F(ClaheGlTest, RandomCasesEqualTheReferenceStageByStage)
{
    // 300 configurations up to 200 pixels a side (one in ten), 16-bit grids up to 64 tiles: about ten
    // seconds on llvmpipe. One ClaheGl serves them all (its buffers follow the geometry).
    for (const ts::ClaheCase& c : ts::randomClaheCases(2033, 300, 200, 64))
        if (!matchesReference(c))
            return;
}

TEST_F(ClaheGlTest, LargeImagesEqualTheReference)
{
    // The benchmark's shape (8x8, clip 40, photo-like) at a size with padding on both sides, both depths.
    ts::ClaheCase c{1283, 721, 8, 8, 40.0, false, ts::ClaheContent::PhotoLike, 5};
    EXPECT_TRUE(matchesReference(c));
    c.sixteenBit = true;
    EXPECT_TRUE(matchesReference(c));
    ts::ClaheCase wide{1920, 1080, 8, 8, 40.0, false, ts::ClaheContent::Noise, 6};  // no padding
    EXPECT_TRUE(matchesReference(wide));
}

TEST_F(ClaheGlTest, EightBitBlendLayoutsEqualTheReference)
{
    // Widths that are a multiple of 4 take the cell blend (blocks of 128 x 32 pixels, the four LUTs
    // of each cell packed in shared memory), which falls back to LUT reads where a block covers more
    // than 12 cells; other widths take the word-per-invocation blend.
    const ts::ClaheCase cases[] = {
        {1024, 256, 8, 8, 40.0, false, ts::ClaheContent::PhotoLike, 21},  // cells: a block covers <= 4
        {516, 97, 3, 5, 2.0, false, ts::ClaheContent::Noise, 22},         // cells, padding on both sides
        {256, 64, 64, 64, 40.0, false, ts::ClaheContent::Noise, 23},      // 32 cell columns a block: fallback
        {130, 40, 4, 2, 40.0, false, ts::ClaheContent::TwoLevel, 24},     // word layout
        {4, 1, 1, 1, 0.0, false, ts::ClaheContent::Noise, 25},            // one word, one block
    };
    for (const ts::ClaheCase& c : cases)
        EXPECT_TRUE(matchesReference(c)) << c.describe();
}

TEST_F(ClaheGlTest, TheOtherVariantEqualsTheReference)
{
    // The 8-bit LUT pass of its own and the chunked 16-bit histogram (post::ClaheGlVariant): fixed
    // cases, both blend layouts, a few random configurations.
    post::ClaheGlVariant other;
    other.foldLut = false;
    other.chunkedHistogram16 = true;
    clahe = post::ClaheGl(other);
    std::vector<ts::ClaheCase> cases = ts::fixedClaheCases();
    for (const ts::ClaheCase& c : ts::randomClaheCases(2034, 40, 200, 64))
        cases.push_back(c);
    cases.push_back({1024, 256, 8, 8, 40.0, false, ts::ClaheContent::PhotoLike, 21});
    cases.push_back({130, 40, 4, 2, 40.0, false, ts::ClaheContent::TwoLevel, 24});
    for (const ts::ClaheCase& c : cases)
        if (!matchesReference(c))
            return;
}

/// The pixels of `image` whose blended value changes when a compiler contracts the blend's
/// a * b + c into a fused multiply-add: `fuseFirst` fuses the first product of each of its three
/// sums (fma(l11, xa1, l12 * xa), ...), otherwise the second (fma(l12, xa, l11 * xa1), ...).
template <class Sample>
std::size_t pixelsAContractedBlendChanges(const ref::ClaheImage<Sample>& image,
                                          const std::vector<std::uint16_t>& luts,
                                          const hd::ClaheGeometry& g,
                                          bool fuseFirst)
{
    const auto fused = [fuseFirst](float a, float wa, float b, float wb) {
        return fuseFirst ? std::fma(a, wa, b * wb) : std::fma(b, wb, a * wa);
    };
    const std::size_t bins = std::size_t(g.bins);
    std::size_t changed = 0;
    for (int y = 0; y < g.height; ++y) {
        const float rowPosition = hd::hdClaheTilePosition(y, g.inverseTileHeight);
        const int rowBelow = int(std::floor(rowPosition));
        const float ya = hd::hdClaheUpperWeight(rowPosition), ya1 = hd::hdClaheLowerWeight(ya);
        const std::size_t ty1 = std::size_t(std::max(rowBelow, 0)),
                          ty2 = std::size_t(std::min(rowBelow + 1, g.tilesY - 1));
        for (int x = 0; x < g.width; ++x) {
            const float columnPosition = hd::hdClaheTilePosition(x, g.inverseTileWidth);
            const int columnBelow = int(std::floor(columnPosition));
            const float xa = hd::hdClaheUpperWeight(columnPosition), xa1 = hd::hdClaheLowerWeight(xa);
            const std::size_t tx1 = std::size_t(std::max(columnBelow, 0));
            const std::size_t tx2 = std::size_t(std::min(columnBelow + 1, g.tilesX - 1));
            const std::size_t value = image.samples[std::size_t(y) * std::size_t(g.width) + std::size_t(x)];
            const auto lut = [&](std::size_t ty, std::size_t tx) {
                return float(luts[(ty * std::size_t(g.tilesX) + tx) * bins + value]);
            };
            const float exact =
                hd::hdClaheBlend(lut(ty1, tx1), lut(ty1, tx2), lut(ty2, tx1), lut(ty2, tx2), xa, xa1, ya, ya1);
            const float top = fused(lut(ty1, tx1), xa1, lut(ty1, tx2), xa);
            const float bottom = fused(lut(ty2, tx1), xa1, lut(ty2, tx2), xa);
            const float contracted = fused(top, ya1, bottom, ya);
            changed += hd::hdClaheSaturate(exact, g.maxValue()) != hd::hdClaheSaturate(contracted, g.maxValue());
        }
    }
    return changed;
}

TEST_F(ClaheGlTest, CasesWhereAContractedBlendDiffersEqualTheReference)
{
    // GLSL lets a compiler contract a * b + c into an FMA unless the result is `precise`; OpenCV's
    // x86-64 bytes need separate roundings. On each case below, both contractions change some pixels
    // (checked here on the CPU), so the GL comparison fails if the GLSL compiler contracts any of the
    // blend's sums: the cell blend, the word blend at 8 bits and the 16-bit blend. (Tiles of a power of
    // two pixels give weights with few bits, whose products round exactly: no FMA changes them.)
    const ts::ClaheCase cases[] = {
        {1000, 248, 8, 8, 40.0, false, ts::ClaheContent::PhotoLike, 31},  // cell blend (tiles 125 x 31)
        {516, 97, 3, 5, 2.0, false, ts::ClaheContent::Noise, 32},         // cell blend, padding
        {1026, 130, 7, 3, 40.0, false, ts::ClaheContent::Noise, 33},      // word blend
        {701, 203, 5, 4, 40.0, true, ts::ClaheContent::Noise, 34},        // 16-bit
    };
    for (const ts::ClaheCase& c : cases) {
        const auto check = [&](const auto& image) {
            const hd::ClaheGeometry g = hd::claheGeometry(c.width, c.height, c.tilesX, c.tilesY, c.clipLimit,
                                                          c.sixteenBit ? hd::kClaheBins16 : hd::kClaheBins8);
            const std::vector<std::uint16_t> luts = ref::claheLuts(ref::claheTileHistograms(image, g), g);
            EXPECT_GT(pixelsAContractedBlendChanges(image, luts, g, true), 0u) << c.describe();
            EXPECT_GT(pixelsAContractedBlendChanges(image, luts, g, false), 0u) << c.describe();
            EXPECT_TRUE(matchesReference(c, image)) << c.describe();
        };
        if (c.sixteenBit)
            check(ts::claheImage16(c));
        else
            check(ts::claheImage8(c));
    }
}

TEST_F(ClaheGlTest, RerunGivesTheSameImageAndTimesEveryPass)
{
    const ts::ClaheCase c{300, 200, 8, 8, 40.0, false, ts::ClaheContent::PhotoLike, 9};
    const auto image = ts::claheImage8(c);
    const hd::ClaheGeometry g = hd::claheGeometry(c.width, c.height, c.tilesX, c.tilesY, c.clipLimit, 256);
    post::ClaheGlTimings timings;
    const std::vector<std::uint8_t> first = clahe.run8(ts::shaderLibrary(), image.samples.data(), g, &timings);
    const std::vector<post::ClaheGlTimings> runs = clahe.rerun(3);
    ASSERT_EQ(runs.size(), 3u);
    for (const post::ClaheGlTimings& t : runs)
        EXPECT_GE(t.totalMs(), 0.0);
    EXPECT_EQ(first, ref::clahe(image, c.clipLimit, c.tilesX, c.tilesY).samples);
    // The folded pass leaves its accumulator zero: reruns give the same histograms and LUTs.
    EXPECT_EQ(clahe.readTileHistograms(), ref::claheTileHistograms(image, g));
    EXPECT_EQ(clahe.readLuts(), ref::claheLuts(ref::claheTileHistograms(image, g), g));
}

TEST(ClaheParameters, BadParametersAreRefusedWithTheReason)
{
    const auto error = [](int w, int h, int tx, int ty, double clip, int bins = 256) {
        return post::claheParameterError(w, h, tx, ty, clip, bins).value_or("");
    };
    EXPECT_EQ(error(10, 10, 8, 8, 40.0), "");
    EXPECT_NE(error(0, 10, 8, 8, 40.0).find("empty"), std::string::npos);
    EXPECT_NE(error(10, 10, 0, 8, 40.0).find("tile grid 0x8"), std::string::npos);
    EXPECT_NE(error(10, 10, 8, 65, 40.0).find("outside"), std::string::npos);
    EXPECT_NE(error(10, 10, 8, 8, -1.0).find("clip limit"), std::string::npos);
    EXPECT_NE(error(10, 10, 8, 8, std::nan("")).find("clip limit"), std::string::npos);
    EXPECT_NE(error(10, 10, 8, 8, std::numeric_limits<double>::infinity()).find("clip limit"), std::string::npos);
    EXPECT_NE(error(20000, 10, 8, 8, 40.0).find("at most"), std::string::npos);
    EXPECT_NE(error(100, 100, 64, 64, 40.0, 65536).find("too large"), std::string::npos);
    EXPECT_EQ(error(100, 100, 16, 32, 40.0, 65536), "");
    EXPECT_NE(error(10, 10, 8, 8, 40.0, 1024).find("bins"), std::string::npos);
}

TEST_F(ClaheGlTest, BadGeometryThrowsWithoutGlErrors)
{
    hd::ClaheGeometry g = hd::claheGeometry(4, 4, 2, 2, 40.0, 256);
    const std::vector<std::uint8_t> samples(16, 1);
    EXPECT_THROW(clahe.run16(ts::shaderLibrary(), nullptr, g), std::invalid_argument);  // 256 bins for run16
    g.tilesX = 0;
    EXPECT_THROW(clahe.run8(ts::shaderLibrary(), samples.data(), g), std::invalid_argument);
    EXPECT_THROW(clahe.rerun(1), std::logic_error);
}

}  // namespace
