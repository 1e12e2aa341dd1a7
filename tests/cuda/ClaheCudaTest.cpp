// The CUDA CLAHE (cuda/Clahe.h) against the CPU reference (reference/Clahe.h, itself equal to
// OpenCV), stage by stage and exactly: the padded tile histograms, the LUTs and the blended image,
// on the fixed corner cases, 400 seeded random configurations (support/ClaheCases.h), 8-bit 4K and
// 1080p frames and a 16-bit 4K frame. Also: rerun() repeats the results bit for bit (5 reruns in a
// row: the 8-bit kernel's tickets and histogram clears reset; and after a geometry change), the event
// timings are positive (8-bit: LUT 0, folded into the histograms; printed with the launch floor and
// a few reruns' medians, for the benchmark's record), a smaller geometry reuses the buffers, bad
// arguments throw. Every experiment variant (cuda::ClaheVariant) gives the same bytes. Every failure
// names the stage, the case
// and the first differing element.
#include "cuda/Clahe.h"
#include "cuda/CudaTestSupport.h"
#include "reference/Clahe.h"
#include "support/ClaheCases.h"

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace {

using testing_support::ClaheCase;
using testing_support::ClaheContent;

/// Equal vectors, or the number of differences and the first one as (row, column) of `rowLength`
/// elements a row: (tile, bin) for tables, (y, x) for images.
template <class T>
testing::AssertionResult sameValues(const char* stage,
                                    const std::string& what,
                                    const std::vector<T>& got,
                                    const std::vector<T>& expected,
                                    std::size_t rowLength,
                                    const char* rowName,
                                    const char* columnName)
{
    if (got.size() != expected.size())
        return testing::AssertionFailure()
               << stage << " of " << what << ": " << got.size() << " values, expected " << expected.size();
    std::size_t different = 0, first = 0;
    for (std::size_t i = 0; i < got.size(); ++i)
        if (got[i] != expected[i] && different++ == 0)
            first = i;
    if (different == 0)
        return testing::AssertionSuccess();
    return testing::AssertionFailure() << stage << " of " << what << ": " << different << " of " << got.size()
                                       << " values differ; first at " << rowName << " " << first / rowLength << ", "
                                       << columnName << " " << first % rowLength << ": got " << +got[first]
                                       << ", expected " << +expected[first];
}

template <class Sample>
std::vector<Sample> runProgram(cuda::ClaheProgram& program,
                               const std::vector<Sample>& samples,
                               const hd::ClaheGeometry& geometry,
                               cuda::ClaheTimings* timings = nullptr)
{
    if constexpr (sizeof(Sample) == 1)
        return program.run8(samples.data(), geometry, timings);
    else
        return program.run16(samples.data(), geometry, timings);
}

template <class Sample>
std::vector<Sample> readImage(const cuda::ClaheProgram& program)
{
    if constexpr (sizeof(Sample) == 1)
        return program.readImage8();
    else
        return program.readImage16();
}

template <class Sample>
testing::AssertionResult matchesReference(cuda::ClaheProgram& program,
                                          const std::string& what,
                                          const ref::ClaheImage<Sample>& image,
                                          const hd::ClaheGeometry& g)
{
    const auto histograms = ref::claheTileHistograms(image, g);
    const auto luts = ref::claheLuts(histograms, g);
    const auto expected = ref::claheBlend(image, luts, g);
    const std::vector<Sample> got = runProgram(program, image.samples, g);
    const std::size_t bins = std::size_t(g.bins);
    if (auto r = sameValues("tile histograms", what, program.readTileHistograms(), histograms, bins, "tile", "bin"); !r)
        return r;
    if (auto r = sameValues("LUTs", what, program.readLuts(), luts, bins, "tile", "bin"); !r)
        return r;
    return sameValues("blended image", what, got, expected.samples, std::size_t(g.width), "y", "x");
}

testing::AssertionResult matchesReference(cuda::ClaheProgram& program, const ClaheCase& c)
{
    const int bins = c.sixteenBit ? hd::kClaheBins16 : hd::kClaheBins8;
    const hd::ClaheGeometry g = hd::claheGeometry(c.width, c.height, c.tilesX, c.tilesY, c.clipLimit, bins);
    const std::string what = c.describe() + " (tile " + std::to_string(g.tileWidth) + "x" +
                             std::to_string(g.tileHeight) + ", clip count " + std::to_string(g.clipLimit) + ")";
    if (c.sixteenBit)
        return matchesReference(program, what, testing_support::claheImage16(c), g);
    return matchesReference(program, what, testing_support::claheImage8(c), g);
}

/// Runs every case on one program (so buffers are reused across geometries); stops after 5 failures.
/// The default variant unless one is given (never the environment's: the tests check fixed variants).
void expectAllMatch(const std::vector<ClaheCase>& cases, const cuda::ClaheVariant& variant = cuda::ClaheVariant{})
{
    cuda::ClaheProgram program(variant);
    int failures = 0;
    for (std::size_t i = 0; i < cases.size() && failures < 5; ++i) {
        const testing::AssertionResult result = matchesReference(program, cases[i]);
        EXPECT_TRUE(result) << "case " << i << ", variant " << variant.describe();
        failures += result ? 0 : 1;
    }
}

TEST(ClaheCuda, FixedCasesMatchTheReference)
{
    REQUIRE_CUDA_DEVICE();
    expectAllMatch(testing_support::fixedClaheCases());
}

TEST(ClaheCuda, RandomCasesMatchTheReference)
{
    REQUIRE_CUDA_DEVICE();
    expectAllMatch(testing_support::randomClaheCases(20261128u, 400));
}

TEST(ClaheCuda, FramesMatchTheReference)
{
    REQUIRE_CUDA_DEVICE();
    expectAllMatch({
        {3840, 2160, 8, 8, 40.0, false, ClaheContent::PhotoLike, 11},
        {3840, 2160, 8, 8, 40.0, false, ClaheContent::Noise, 12},
        {3840, 2160, 8, 8, 40.0, false, ClaheContent::Constant, 13},
        {3840, 2160, 16, 16, 2.0, false, ClaheContent::TwoLevel, 14},
        {1920, 1080, 8, 8, 40.0, false, ClaheContent::PhotoLike, 15},
        {1920, 1080, 8, 8, 0.0, false, ClaheContent::Noise, 16},
        {1921, 1083, 8, 8, 40.0, false, ClaheContent::PhotoLike, 17},  // odd rows: unaligned, padded
        {1366, 768, 3, 5, 10.0, false, ClaheContent::Noise, 18},
        {3840, 2160, 8, 8, 40.0, true, ClaheContent::PhotoLike, 19},
        {3840, 2160, 8, 8, 40.0, true, ClaheContent::Constant, 20},
        {1921, 1081, 4, 4, 3.0, true, ClaheContent::Noise, 21},
    });
}

/// The experiment variants (cuda::ClaheVariant) besides the default: the plain conversions and global
/// 16-bit atomics; the 8-bit single launch (with the plain and the conversion-free blend); slab sizes
/// that give many blocks a tile (1000 pixels of shared 16-bit counters, 1 8-bit pixel: one row a
/// block), 2048 8-bit pixels (one unit a thread; the default is 8192) and more than the 16-bit counters' 65535
/// (clamped).
std::vector<cuda::ClaheVariant> otherVariants()
{
    cuda::ClaheVariant plain;
    plain.conversionFreeBlend = false;
    plain.sharedHistogram16 = false;
    cuda::ClaheVariant single;
    single.singleLaunch8 = true;
    cuda::ClaheVariant singlePlain = single;
    singlePlain.conversionFreeBlend = false;
    singlePlain.slabPixels8 = 1;
    cuda::ClaheVariant smallSlabs;
    smallSlabs.slabPixels8 = 2048;
    smallSlabs.slabPixels16 = 1000;
    cuda::ClaheVariant extremeSlabs;
    extremeSlabs.slabPixels8 = 1;
    extremeSlabs.slabPixels16 = 1000000;
    return {plain, single, singlePlain, smallSlabs, extremeSlabs};
}

TEST(ClaheCuda, EveryVariantMatchesTheReference)
{
    REQUIRE_CUDA_DEVICE();
    std::vector<ClaheCase> cases = testing_support::fixedClaheCases();
    const std::vector<ClaheCase> random = testing_support::randomClaheCases(20261129u, 120);
    cases.insert(cases.end(), random.begin(), random.end());
    cases.push_back({3840, 2160, 8, 8, 40.0, false, ClaheContent::PhotoLike, 61});
    cases.push_back({3840, 2160, 8, 8, 40.0, true, ClaheContent::PhotoLike, 62});
    cases.push_back({3840, 2160, 8, 8, 40.0, true, ClaheContent::Constant, 63});  // one bin: 65535-pixel runs
    cases.push_back({1921, 1081, 4, 4, 3.0, true, ClaheContent::Noise, 64});
    for (const cuda::ClaheVariant& variant : otherVariants())
        expectAllMatch(cases, variant);
}

/// Runs `c` on `program`, checks it against the reference, then reruns it `reruns` times: every
/// stage must repeat the first run's values exactly.
template <class Sample>
void expectRerunsIdentical(cuda::ClaheProgram& program,
                           const ClaheCase& c,
                           const ref::ClaheImage<Sample>& image,
                           int reruns = 5)
{
    const int bins = sizeof(Sample) == 1 ? hd::kClaheBins8 : hd::kClaheBins16;
    const hd::ClaheGeometry g = hd::claheGeometry(c.width, c.height, c.tilesX, c.tilesY, c.clipLimit, bins);
    ASSERT_TRUE(matchesReference(program, c.describe(), image, g));
    const std::vector<Sample> first = readImage<Sample>(program);
    const auto histograms = program.readTileHistograms();
    const auto luts = program.readLuts();
    for (int rerun = 1; rerun <= reruns; ++rerun) {
        program.rerun();
        const std::string what = c.describe() + ", rerun " + std::to_string(rerun);
        EXPECT_TRUE(sameValues("tile histograms", what, program.readTileHistograms(), histograms, std::size_t(bins),
                               "tile", "bin"));
        EXPECT_TRUE(sameValues("LUTs", what, program.readLuts(), luts, std::size_t(bins), "tile", "bin"));
        EXPECT_TRUE(
            sameValues("blended image", what, readImage<Sample>(program), first, std::size_t(g.width), "y", "x"));
    }
}

TEST(ClaheCuda, RerunRepeatsTheResults)
{
    REQUIRE_CUDA_DEVICE();
    const ClaheCase eight{1920, 1080, 8, 8, 40.0, false, ClaheContent::PhotoLike, 31};
    cuda::ClaheProgram program8;
    expectRerunsIdentical(program8, eight, testing_support::claheImage8(eight));
    const ClaheCase sixteen{1000, 700, 4, 6, 40.0, true, ClaheContent::Noise, 32};
    cuda::ClaheProgram program16;
    expectRerunsIdentical(program16, sixteen, testing_support::claheImage16(sixteen));
    for (const cuda::ClaheVariant& variant : otherVariants()) {
        cuda::ClaheProgram other8(variant), other16(variant);
        expectRerunsIdentical(other8, eight, testing_support::claheImage8(eight), 2);
        expectRerunsIdentical(other16, sixteen, testing_support::claheImage16(sixteen), 2);
    }
}

TEST(ClaheCuda, RerunAfterAGeometryChangeRepeatsTheResults)
{
    REQUIRE_CUDA_DEVICE();
    // One program through geometries of other tile counts, slab counts and depths: every run starts
    // from cleared histograms and tickets, and its reruns repeat it.
    const ClaheCase cases[] = {
        {1920, 1080, 8, 8, 40.0, false, ClaheContent::PhotoLike, 33},
        {640, 480, 3, 5, 4.0, false, ClaheContent::Noise, 34},
        {1000, 700, 4, 6, 40.0, true, ClaheContent::Noise, 35},
        {1921, 1083, 16, 16, 2.0, false, ClaheContent::TwoLevel, 36},
        {3840, 2160, 8, 8, 40.0, false, ClaheContent::Constant, 37},
        {1920, 1080, 8, 8, 40.0, false, ClaheContent::PhotoLike, 33},
    };
    cuda::ClaheVariant single;
    single.singleLaunch8 = true;  // its work counter and LUT flags carry across launches
    for (const cuda::ClaheVariant& variant : {cuda::ClaheVariant{}, single}) {
        cuda::ClaheProgram program(variant);
        for (const ClaheCase& c : cases) {
            if (c.sixteenBit) {
                expectRerunsIdentical(program, c, testing_support::claheImage16(c), 2);
            } else {
                expectRerunsIdentical(program, c, testing_support::claheImage8(c), 5);
            }
        }
    }
}

template <class Sample>
void expectPositiveTimings(const ClaheCase& c, const ref::ClaheImage<Sample>& image)
{
    const int bins = sizeof(Sample) == 1 ? hd::kClaheBins8 : hd::kClaheBins16;
    const hd::ClaheGeometry g = hd::claheGeometry(c.width, c.height, c.tilesX, c.tilesY, c.clipLimit, bins);
    const bool folded = sizeof(Sample) == 1;  // 8-bit: the LUTs are made by the histogram kernel
    cuda::ClaheProgram program{cuda::ClaheVariant{}};
    cuda::ClaheTimings timings;
    runProgram(program, image.samples, g, &timings);
    const auto expectStages = [&](const cuda::ClaheTimings& t) {
        EXPECT_GT(t.histogramMs, 0.0) << c.describe();
        if (folded) {
            EXPECT_EQ(t.lutMs, 0.0) << c.describe();
        } else {
            EXPECT_GT(t.lutMs, 0.0) << c.describe();
        }
        EXPECT_GT(t.blendMs, 0.0) << c.describe();
        EXPECT_GT(t.launchFloorMs, 0.0) << c.describe();
    };
    expectStages(timings);
    // Medians of 21 reruns, printed for the record (not checked: the test proves timing works).
    std::vector<cuda::ClaheTimings> reruns;
    for (int i = 0; i < 21; ++i) {
        reruns.push_back(program.rerun());
        expectStages(reruns.back());
    }
    const auto median = [&](double cuda::ClaheTimings::*field) {
        std::vector<double> values;
        for (const auto& t : reruns)
            values.push_back(t.*field);
        std::nth_element(values.begin(), values.begin() + 10, values.end());
        return values[10] * 1000.0;
    };
    std::vector<double> totals;
    for (const auto& t : reruns)
        totals.push_back(t.totalMs());
    std::nth_element(totals.begin(), totals.begin() + 10, totals.end());
    std::ostringstream line;
    line << "[ timing ] CLAHE CUDA " << c.describe() << ": histogram" << (folded ? "+LUT " : " ")
         << median(&cuda::ClaheTimings::histogramMs) << " us, LUT "
         << (folded ? std::string("folded") : std::to_string(median(&cuda::ClaheTimings::lutMs)) + " us") << ", blend "
         << median(&cuda::ClaheTimings::blendMs) << " us, total " << totals[10] * 1000.0 << " us; launch floor "
         << median(&cuda::ClaheTimings::launchFloorMs) << " us (medians of 21)";
    std::cout << line.str() << std::endl;
}

TEST(ClaheCuda, EventTimingsArePositive)
{
    REQUIRE_CUDA_DEVICE();
    for (ClaheContent content : {ClaheContent::PhotoLike, ClaheContent::Noise}) {
        const ClaheCase uhd{3840, 2160, 8, 8, 40.0, false, content, 41};
        expectPositiveTimings(uhd, testing_support::claheImage8(uhd));
        const ClaheCase hd1080{1920, 1080, 8, 8, 40.0, false, content, 42};
        expectPositiveTimings(hd1080, testing_support::claheImage8(hd1080));
        const ClaheCase deep{3840, 2160, 8, 8, 40.0, true, content, 43};
        expectPositiveTimings(deep, testing_support::claheImage16(deep));
    }
}

TEST(ClaheCuda, SmallerGeometryReusesTheBuffers)
{
    REQUIRE_CUDA_DEVICE();
    const ClaheCase large{1920, 1080, 16, 16, 40.0, false, ClaheContent::Noise, 51};
    const ClaheCase small{640, 480, 8, 8, 4.0, false, ClaheContent::PhotoLike, 52};
    cuda::ClaheProgram program;
    ASSERT_TRUE(matchesReference(program, large));
    const int allocations = cuda::deviceAllocationCounter().load();
    ASSERT_TRUE(matchesReference(program, small));
    EXPECT_EQ(cuda::deviceAllocationCounter().load(), allocations);
    ASSERT_TRUE(matchesReference(program, large));
    EXPECT_EQ(cuda::deviceAllocationCounter().load(), allocations);
}

TEST(ClaheCuda, RejectsBadArguments)
{
    REQUIRE_CUDA_DEVICE();
    cuda::ClaheProgram program;
    EXPECT_THROW(program.rerun(), std::logic_error);
    const std::vector<std::uint8_t> bytes(64 * 64, 7);
    const std::vector<std::uint16_t> words(64 * 64, 7);
    const hd::ClaheGeometry g8 = hd::claheGeometry(64, 64, 8, 8, 40.0, hd::kClaheBins8);
    const hd::ClaheGeometry g16 = hd::claheGeometry(64, 64, 8, 8, 40.0, hd::kClaheBins16);
    EXPECT_THROW(program.run8(bytes.data(), g16), std::invalid_argument);  // wrong bins
    EXPECT_THROW(program.run16(words.data(), g8), std::invalid_argument);  // wrong bins
    EXPECT_THROW(program.run8(nullptr, g8), std::invalid_argument);
    const hd::ClaheGeometry empty = hd::claheGeometry(0, 64, 8, 8, 40.0, hd::kClaheBins8);
    EXPECT_THROW(program.run8(bytes.data(), empty), std::invalid_argument);
    hd::ClaheGeometry noTiles = g8;
    noTiles.tilesX = 0;
    EXPECT_THROW(program.run8(bytes.data(), noTiles), std::invalid_argument);
    const hd::ClaheGeometry tooMany = hd::claheGeometry(130, 130, 65, 65, 40.0, hd::kClaheBins8);
    const std::vector<std::uint8_t> larger(130 * 130, 7);
    EXPECT_THROW(program.run8(larger.data(), tooMany), std::invalid_argument);
    // Still usable after the refusals.
    EXPECT_EQ(program.run8(bytes.data(), g8).size(), bytes.size());
}

}  // namespace
