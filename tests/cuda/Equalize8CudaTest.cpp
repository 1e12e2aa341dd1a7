// Bugetti's CUDA program (equalize8) on the report's 8x8 example (exact Figure 5 output, every
// scan, both block sizes), against ref::equalize8 on larger images, and the edge cases the listing
// gets wrong (a one-level image; images past 2^32 / 255 pixels overflow a 32-bit product).
#include "cuda/CudaTestSupport.h"
#include "cuda/Equalize8.h"
#include "reference/Equalize8.h"
#include "support/Equalize8Example.h"

#include <random>

namespace {

TEST(CudaEqualize8, ReportExampleEveryScanAndBlock)
{
    REQUIRE_CUDA_DEVICE();
    const std::vector<std::uint8_t> expected(testing_support::kEqualizeExampleOutput.begin(),
                                             testing_support::kEqualizeExampleOutput.end());
    for (cuda::ScanAlgorithm scan : cuda::kAllScanAlgorithms) {
        for (int block : {256, 512}) {
            cuda::Equalize8Program program(scan, block);
            cuda::Equalize8Timings timings;
            const auto got = program.run(testing_support::kEqualizeExampleInput.data(), 64, &timings);
            EXPECT_EQ(got, expected) << cuda::scanAlgorithmId(scan) << " block " << block;
            EXPECT_GE(timings.totalMs(), 0.0);
        }
    }
}

TEST(CudaEqualize8, MatchesTheCpuReference)
{
    REQUIRE_CUDA_DEVICE();
    std::mt19937 random(8);
    for (std::size_t count : {std::size_t(1), std::size_t(1000), std::size_t(1) << 20}) {
        std::normal_distribution<double> level(110.0, 25.0);
        std::vector<std::uint8_t> pixels(count);
        for (auto& pixel : pixels)
            pixel = std::uint8_t(std::clamp(level(random), 0.0, 255.0));
        cuda::Equalize8Program program(cuda::ScanAlgorithm::BrentKung, 512);
        EXPECT_EQ(program.run(pixels.data(), count), ref::equalize8(pixels.data(), count)) << count << " pixels";
    }
}

TEST(CudaEqualize8, OneLevelImageIsUnchanged)
{
    REQUIRE_CUDA_DEVICE();
    const std::vector<std::uint8_t> flat(1000, 77);
    cuda::Equalize8Program program(cuda::ScanAlgorithm::KoggeStone, 256);
    EXPECT_EQ(program.run(flat.data(), flat.size()), flat);
}

TEST(CudaEqualize8, NoOverflowPast16MegaPixels)
{
    REQUIRE_CUDA_DEVICE();
    // 2^25 pixels: (cdf - cdf_min) * 255 reaches 8.6e9, beyond 32 bits.
    const std::size_t count = std::size_t(1) << 25;
    std::vector<std::uint8_t> pixels(count);
    for (std::size_t i = 0; i < count; ++i)
        pixels[i] = std::uint8_t((i * 2654435761u) >> 24);
    cuda::Equalize8Program program(cuda::ScanAlgorithm::WarpShuffle, 512);
    EXPECT_EQ(program.run(pixels.data(), count), ref::equalize8(pixels.data(), count));
}

TEST(CudaEqualize8, RejectsOtherBlockSizes)
{
    REQUIRE_CUDA_DEVICE();
    EXPECT_THROW(cuda::Equalize8Program(cuda::ScanAlgorithm::KoggeStone, 1024), std::invalid_argument);
}

}  // namespace
