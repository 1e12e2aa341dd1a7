// OpenCV itself as the oracle of the CLAHE reference: cv::createCLAHE(clip, grid)->apply on the same
// image must give the same bytes as ref::clahe, for 2,000 seeded random configurations
// (support/ClaheCases.h: sizes 1..1500, grids 1..64, clip 0 and random, 8-bit and 16-bit, four kinds
// of content) and the fixed corner cases. 0 pixels may differ. Built where Debian's OpenCV
// (libopencv-imgproc-dev, installed by scripts/setup.sh) is found.
#include "reference/Clahe.h"
#include "support/ClaheCases.h"

#include <gtest/gtest.h>
#include <opencv2/imgproc.hpp>

#include <cstdint>

namespace {

using testing_support::ClaheCase;

template <class Sample>
void expectOpenCvBytes(const ClaheCase& c, const ref::ClaheImage<Sample>& image)
{
    const cv::Mat source(image.height, image.width, sizeof(Sample) == 1 ? CV_8UC1 : CV_16UC1,
                         const_cast<Sample*>(image.samples.data()));
    cv::Mat expected;
    cv::createCLAHE(c.clipLimit, cv::Size(c.tilesX, c.tilesY))->apply(source, expected);
    const ref::ClaheImage<Sample> result = ref::clahe(image, c.clipLimit, c.tilesX, c.tilesY);
    ASSERT_EQ(result.samples.size(), std::size_t(expected.total())) << c.describe();
    int different = 0, firstX = -1, firstY = -1;
    for (int y = 0; y < image.height; ++y)
        for (int x = 0; x < image.width; ++x)
            if (result.samples[std::size_t(y) * std::size_t(image.width) + std::size_t(x)] != expected.at<Sample>(y, x)) {
                if (different++ == 0)
                    firstX = x, firstY = y;
            }
    EXPECT_EQ(different, 0) << c.describe() << ": first at (" << firstX << ", " << firstY << ")";
}

void expectOpenCvBytes(const ClaheCase& c)
{
    if (c.sixteenBit)
        expectOpenCvBytes(c, testing_support::claheImage16(c));
    else
        expectOpenCvBytes(c, testing_support::claheImage8(c));
}

// 2,000 configurations in 8 shards of 250, so that ctest runs them in parallel.
class ClaheOracle : public testing::TestWithParam<int>
{};

TEST_P(ClaheOracle, ReferenceGivesOpenCvsBytes)
{
    constexpr int kShardCases = 250;
    for (const ClaheCase& c : testing_support::randomClaheCases(std::uint32_t(1000 + GetParam()), kShardCases))
        expectOpenCvBytes(c);
}

INSTANTIATE_TEST_SUITE_P(Shards, ClaheOracle, testing::Range(0, 8));

TEST(ClaheOracleFixed, CornerCasesGiveOpenCvsBytes)
{
    for (const ClaheCase& c : testing_support::fixedClaheCases())
        expectOpenCvBytes(c);
}

// The oracle can tell: a reference that fused the blend's multiply-adds, or rounded half up, would
// differ from OpenCV somewhere on these images (so a pass above is not vacuous).
TEST(ClaheOracleFixed, OpenCvDiffersFromAPlainEqualization)
{
    ClaheCase c{97, 71, 4, 4, 2.0, false, testing_support::ClaheContent::PhotoLike, 5};
    const auto image = testing_support::claheImage8(c);
    const cv::Mat source(image.height, image.width, CV_8UC1, const_cast<std::uint8_t*>(image.samples.data()));
    cv::Mat clahe, global;
    cv::createCLAHE(c.clipLimit, cv::Size(c.tilesX, c.tilesY))->apply(source, clahe);
    cv::equalizeHist(source, global);
    EXPECT_GT(cv::norm(clahe, global, cv::NORM_L1), 0.0);
}

}  // namespace
