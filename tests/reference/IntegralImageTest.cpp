// CPU reference of integral images (Bilgic et al. section II), including the paper's 3x4 example.
#include "reference/IntegralImage.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace {

// Bilgic, Horn & Masaki, section II: the image and its exclusive, zero-padded integral image.
const std::vector<float> kBilgicImage{2, 1, 3, 1,  //
                                      3, 2, 1, 1,  //
                                      4, 1, 3, 1};
const std::vector<float> kBilgicExclusive{0, 0, 0, 0,  //
                                          0, 2, 3, 6,  //
                                          0, 5, 8, 12};

TEST(ReferenceIntegralImage, BilgicExampleExclusivePadded)
{
    const auto out = ref::integralImage<float>(kBilgicImage.data(), 4, 3, ref::IntegralKind::ExclusivePadded);
    EXPECT_EQ(out, kBilgicExclusive);
}

TEST(ReferenceIntegralImage, BilgicExampleInclusive)
{
    const std::vector<float> expected{2, 3,  6,  7,   //
                                      5, 8,  12, 14,  //
                                      9, 13, 20, 23};
    EXPECT_EQ(ref::integralImage<float>(kBilgicImage.data(), 4, 3, ref::IntegralKind::Inclusive), expected);
}

TEST(ReferenceIntegralImage, InterleavedChannelsAreIndependent)
{
    // Two channels: the example and 10x the example.
    std::vector<double> image;
    for (float v : kBilgicImage) {
        image.push_back(v);
        image.push_back(10.0 * v);
    }
    const auto out = ref::integralImage<double>(image.data(), 4, 3, ref::IntegralKind::ExclusivePadded, 2);
    for (std::size_t i = 0; i < kBilgicExclusive.size(); ++i) {
        EXPECT_EQ(out[2 * i], kBilgicExclusive[i]);
        EXPECT_EQ(out[2 * i + 1], 10.0 * kBilgicExclusive[i]);
    }
}

TEST(ReferenceIntegralImage, BoxSumMatchesDirectSum)
{
    const int w = 13, h = 7;
    std::mt19937 rng(5);
    std::uniform_int_distribution<int> value(0, 9);
    std::vector<double> image(std::size_t(w * h));
    for (double& v : image)
        v = value(rng);
    const auto sat = ref::integralImage<double>(image.data(), w, h, ref::IntegralKind::Inclusive);
    for (int y0 = 0; y0 < h; y0 += 2)
        for (int x0 = 0; x0 < w; x0 += 3)
            for (int y1 = y0 + 1; y1 <= h; y1 += 3)
                for (int x1 = x0 + 1; x1 <= w; x1 += 4) {
                    double direct = 0;
                    for (int y = y0; y < y1; ++y)
                        for (int x = x0; x < x1; ++x)
                            direct += image[std::size_t(y * w + x)];
                    EXPECT_EQ(ref::boxSum(sat, w, x0, y0, x1, y1), direct) << x0 << "," << y0 << " " << x1 << "," << y1;
                }
}

TEST(ReferenceIntegralImage, EmptyAndSinglePixel)
{
    EXPECT_TRUE(ref::integralImage<float>(nullptr, 0, 0, ref::IntegralKind::Inclusive).empty());
    const float one = 5.0f;
    EXPECT_EQ(ref::integralImage<float>(&one, 1, 1, ref::IntegralKind::Inclusive), std::vector<float>{5.0f});
    EXPECT_EQ(ref::integralImage<float>(&one, 1, 1, ref::IntegralKind::ExclusivePadded), std::vector<float>{0.0f});
}

}  // namespace
