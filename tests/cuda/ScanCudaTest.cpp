// Every CUDA scan against the sequential scan at awkward lengths, uint32 (exact, wrapping like the
// CPU) and float. Float data: dyadic values (multiples of 1/4, total < 2^22) make every partial sum
// exact in float, so those comparisons are exact at every length, 2^24 included; random floats in
// [0, 1) are compared to a double sequential sum with |gpu - exact| <= 2^-24 * 64 * sum(|a_j|, j<=i)
// (our kernels add each element through at most ~30 rounded additions; CUB chains tile prefixes,
// still far inside 64 ulps of the magnitude at these lengths).
// Also: the double-buffered Kogge-Stone listing bug (stale buffer copied out) is reproduced and shown
// to differ from the sequential scan, while the fixed kernel matches.
#include "cuda/CudaTestSupport.h"
#include "cuda/Scan.h"
#include "reference/Scan.h"

#include <cmath>
#include <random>

namespace {

using cuda::ScanAlgorithm;

const std::size_t kLengths[] = {1, 2, 31, 32, 33, 1023, 1024, 1025, 4096, 65537, std::size_t(1) << 24};

class CudaScanTest : public ::testing::TestWithParam<ScanAlgorithm>
{
};

std::vector<std::uint32_t> randomCounts(std::size_t n, std::uint32_t seed, std::uint32_t maxValue)
{
    std::mt19937 random(seed);
    std::uniform_int_distribution<std::uint32_t> pick(0, maxValue);
    std::vector<std::uint32_t> values(n);
    for (auto& value : values)
        value = pick(random);
    return values;
}

TEST_P(CudaScanTest, MatchesSequentialScanUint32)
{
    REQUIRE_CUDA_DEVICE();
    for (std::size_t n : kLengths) {
        SCOPED_TRACE("n = " + std::to_string(n));
        const auto values = randomCounts(n, std::uint32_t(n), n > 100000 ? 1000u : 0xffffffu);
        const auto expected = ref::inclusiveScan(values);
        auto input = cuda_testing::upload(values);
        cuda::DeviceBuffer<std::uint32_t> output(n);
        cuda::scanInclusive(GetParam(), input.data(), output.data(), n, cuda_testing::stream());
        const auto got = cuda_testing::download(output.data(), n);
        std::size_t first = n;
        for (std::size_t i = 0; i < n && first == n; ++i)
            if (got[i] != expected[i])
                first = i;
        EXPECT_EQ(first, n) << "first difference at " << first << ": gpu " << (first < n ? got[first] : 0) << " cpu "
                            << (first < n ? expected[first] : 0);
    }
}

TEST_P(CudaScanTest, WrapsModulo2To32LikeTheCpu)
{
    REQUIRE_CUDA_DEVICE();
    const std::size_t n = 5000;
    const auto values = randomCounts(n, 9, 0xffffffffu);
    auto input = cuda_testing::upload(values);
    cuda::DeviceBuffer<std::uint32_t> output(n);
    cuda::scanInclusive(GetParam(), input.data(), output.data(), n, cuda_testing::stream());
    EXPECT_EQ(cuda_testing::download(output.data(), n), ref::inclusiveScan(values));
}

TEST_P(CudaScanTest, InPlace)
{
    REQUIRE_CUDA_DEVICE();
    for (std::size_t n : {std::size_t(4096), std::size_t(70001)}) {
        const auto values = randomCounts(n, 3, 100);
        auto data = cuda_testing::upload(values);
        cuda::scanInclusive(GetParam(), data.data(), data.data(), n, cuda_testing::stream());
        EXPECT_EQ(cuda_testing::download(data.data(), n), ref::inclusiveScan(values)) << "n = " << n;
    }
}

TEST_P(CudaScanTest, FloatDyadicValuesAreExact)
{
    REQUIRE_CUDA_DEVICE();
    for (std::size_t n : kLengths) {
        SCOPED_TRACE("n = " + std::to_string(n));
        const auto counts = randomCounts(n, std::uint32_t(n) + 1, 1);  // 0 or 1 quarters: total <= n/4 <= 2^22
        std::vector<float> values(n);
        std::vector<float> expected(n);
        double running = 0.0;
        for (std::size_t i = 0; i < n; ++i) {
            values[i] = 0.25f * float(counts[i]);
            running += values[i];
            expected[i] = float(running);
        }
        auto input = cuda_testing::upload(values);
        cuda::DeviceBuffer<float> output(n);
        cuda::scanInclusive(GetParam(), input.data(), output.data(), n, cuda_testing::stream());
        const auto got = cuda_testing::download(output.data(), n);
        std::size_t first = n;
        for (std::size_t i = 0; i < n && first == n; ++i)
            if (got[i] != expected[i])
                first = i;
        EXPECT_EQ(first, n) << "first difference at " << first;
    }
}

TEST_P(CudaScanTest, FloatRandomWithinRelativeTolerance)
{
    REQUIRE_CUDA_DEVICE();
    for (std::size_t n :
         {std::size_t(33), std::size_t(1025), std::size_t(4096), std::size_t(65537), std::size_t(1) << 20}) {
        SCOPED_TRACE("n = " + std::to_string(n));
        std::mt19937 random{std::uint32_t(n)};
        std::uniform_real_distribution<float> pick(0.0f, 1.0f);
        std::vector<float> values(n);
        for (float& value : values)
            value = pick(random);
        auto input = cuda_testing::upload(values);
        cuda::DeviceBuffer<float> output(n);
        cuda::scanInclusive(GetParam(), input.data(), output.data(), n, cuda_testing::stream());
        const auto got = cuda_testing::download(output.data(), n);
        double exact = 0.0;
        std::size_t bad = 0;
        for (std::size_t i = 0; i < n; ++i) {
            exact += values[i];
            const double tolerance = 64.0 * std::ldexp(1.0, -24) * exact;  // all values >= 0: sum |a| = exact
            if (std::abs(double(got[i]) - exact) > tolerance && bad++ < 3)
                ADD_FAILURE() << "i = " << i << ": gpu " << got[i] << " exact " << exact;
        }
        EXPECT_EQ(bad, 0u);
    }
}

INSTANTIATE_TEST_SUITE_P(AllAlgorithms,
                         CudaScanTest,
                         ::testing::ValuesIn(cuda::kAllScanAlgorithms),
                         [](const ::testing::TestParamInfo<ScanAlgorithm>& info) {
                             std::string name(cuda::scanAlgorithmId(info.param));
                             for (char& c : name)
                                 if (c == '-')
                                     c = '_';
                             return name;
                         });

TEST(CudaScanBlockSizes, EveryBlockSizeMatches)
{
    REQUIRE_CUDA_DEVICE();
    const auto values = randomCounts(9000, 4, 50);
    const auto expected = ref::inclusiveScan(values);
    auto input = cuda_testing::upload(values);
    cuda::DeviceBuffer<std::uint32_t> output(values.size());
    for (ScanAlgorithm algorithm : cuda::kAllScanAlgorithms) {
        if (algorithm == ScanAlgorithm::Cub)
            continue;
        for (int block : {256, 512, 1024}) {
            cuda::ScanOptions options;
            options.blockSize = block;
            cuda::scanInclusive(algorithm, input.data(), output.data(), values.size(), cuda_testing::stream(), options);
            EXPECT_EQ(cuda_testing::download(output.data(), values.size()), expected)
                << cuda::scanAlgorithmId(algorithm) << " block " << block;
        }
    }
}

TEST(CudaScanBlockSizes, RejectsOtherBlockSizes)
{
    REQUIRE_CUDA_DEVICE();
    cuda::DeviceBuffer<std::uint32_t> data(16);
    cuda::ScanOptions options;
    options.blockSize = 128;
    EXPECT_THROW(
        cuda::scanInclusive(ScanAlgorithm::KoggeStone, data.data(), data.data(), 16, cuda_testing::stream(), options),
        std::invalid_argument);
}

// Bugetti's KoggeStoneScanDoubleBuffer copies out `outputBuffer` after the final swap: the buffer of
// the second-to-last phase. Reproduced with reproduceListingBug; the fixed kernel must match.
TEST(CudaScanListingBug, DoubleBufferListingCopiesTheStaleBuffer)
{
    REQUIRE_CUDA_DEVICE();
    for (std::size_t n : {std::size_t(2), std::size_t(33), std::size_t(256), std::size_t(4096)}) {
        SCOPED_TRACE("n = " + std::to_string(n));
        const std::vector<std::uint32_t> ones(n, 1u);
        const auto expected = ref::inclusiveScan(ones);
        auto input = cuda_testing::upload(ones);
        cuda::DeviceBuffer<std::uint32_t> output(n);
        for (int block : {256, 512}) {
            cuda::ScanOptions options;
            options.blockSize = block;
            cuda::scanInclusive(ScanAlgorithm::KoggeStoneDoubleBuffer, input.data(), output.data(), n,
                                cuda_testing::stream(), options);
            EXPECT_EQ(cuda_testing::download(output.data(), n), expected) << "fixed kernel, block " << block;

            options.reproduceListingBug = true;
            cuda::scanInclusive(ScanAlgorithm::KoggeStoneDoubleBuffer, input.data(), output.data(), n,
                                cuda_testing::stream(), options);
            const auto buggy = cuda_testing::download(output.data(), n);
            EXPECT_NE(buggy, expected) << "the listing's copy-out should be wrong, block " << block;
            // The stale buffer lacks the last phase (stride = P/2 for P = next power of two >= n):
            // the last element then counts at most P/2 ones instead of n.
            std::size_t power = 1;
            while (power < n)
                power *= 2;
            EXPECT_EQ(buggy.back(), std::min<std::size_t>(n, power / 2)) << "block " << block;
        }
    }
}

}  // namespace
