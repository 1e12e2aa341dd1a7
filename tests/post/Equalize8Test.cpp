// The GPU 8-bit equalization path (post::Equalize8) against Bugetti's 8x8 example (exact) and
// against ref::equalize8 on random, uniform and odd-sized images.
#include "post/Equalize8.h"
#include "post/scan/ScanMethod.h"
#include "reference/Equalize8.h"
#include "reference/Scan.h"
#include "support/Equalize8Example.h"
#include "support/GlTestEnvironment.h"
#include "support/HistogramTestSupport.h"

#include <random>

namespace ts = testing_support;

namespace {

class Equalize8Gpu : public ts::GlTest
{
protected:
    std::vector<std::uint8_t> runGpu(const std::vector<std::uint8_t>& pixels, std::string_view scanId = "compute-scan")
    {
        auto scan = post::createScanMethod(scanId);
        EXPECT_TRUE(scan);
        post::PassContext ctx{ts::shaderLibrary(), ts::testProfiler(), ts::testGpuCaps(), 0};
        return equalize.run(ctx, *scan, pixels.data(), pixels.size());
    }
    post::Equalize8 equalize;
};

TEST_F(Equalize8Gpu, ReproducesTheEightByEightExampleExactly)
{
    const std::vector<std::uint8_t> input(ts::kEqualizeExampleInput.begin(), ts::kEqualizeExampleInput.end());
    const std::vector<std::uint8_t> expected(ts::kEqualizeExampleOutput.begin(), ts::kEqualizeExampleOutput.end());
    EXPECT_EQ(runGpu(input), expected);
    // The histogram (Figure 3) and CDF: 52 once, 55 three times ... 154 once; CDF ends at 64.
    const auto histogram = equalize.histogram().readAll<std::uint32_t>(256);
    EXPECT_EQ(histogram[52], 1u);
    EXPECT_EQ(histogram[55], 3u);
    EXPECT_EQ(histogram[68], 5u);
    EXPECT_EQ(equalize.cdf().readAll<std::uint32_t>(256), ref::inclusiveScan(histogram));
    EXPECT_EQ(ref::equalize8(input.data(), input.size()), expected);
}

TEST_F(Equalize8Gpu, MatchesTheCpuReferenceOnRandomAndOddSizedImages)
{
    std::mt19937 random(3);
    for (std::size_t count : {std::size_t(1), std::size_t(13), std::size_t(4099), std::size_t(1024 * 768)}) {
        std::normal_distribution<double> pick(100.0, 30.0);
        std::vector<std::uint8_t> pixels(count);
        for (auto& p : pixels)
            p = std::uint8_t(std::clamp(pick(random), 0.0, 255.0));
        EXPECT_EQ(runGpu(pixels), ref::equalize8(pixels.data(), pixels.size())) << count << " pixels";
    }
}

TEST_F(Equalize8Gpu, UniformImageIsUnchanged)
{
    const std::vector<std::uint8_t> flat(333, 17);
    EXPECT_EQ(runGpu(flat), flat);
    const std::vector<std::uint8_t> black(10, 0);
    EXPECT_EQ(runGpu(black), black);
}

TEST_F(Equalize8Gpu, TwoLevelsMapToTheEnds)
{
    // cdf_min = 3 (three 0s), N = 5: 0 -> 0, 255 -> 255.
    const std::vector<std::uint8_t> pixels{0, 0, 0, 255, 255};
    EXPECT_EQ(runGpu(pixels), (std::vector<std::uint8_t>{0, 0, 0, 255, 255}));
}

}  // namespace
