// SplitComposeGlTest.cpp: the split view's composite (post/SplitCompose) against its CPU reference
// (reference/SplitComposeRef) byte for byte, side by side at several divider positions (edges
// included) and as the difference at several gains; identical sides give an all-black difference.
#include "post/SplitCompose.h"
#include "reference/SplitComposeRef.h"
#include "support/GlTestEnvironment.h"
#include "support/HistogramTestSupport.h"

#include <random>

namespace ts = testing_support;

namespace {

std::vector<std::uint8_t> randomRgba8(glm::ivec2 size, std::uint32_t seed)
{
    std::mt19937 random(seed);
    std::uniform_int_distribution<int> byte(0, 255);
    std::vector<std::uint8_t> pixels(std::size_t(size.x) * std::size_t(size.y) * 4u);
    for (std::uint8_t& value : pixels)
        value = std::uint8_t(byte(random));
    return pixels;
}

gl::Texture upload(const std::vector<std::uint8_t>& pixels, glm::ivec2 size)
{
    gl::Texture texture("test.split-side", GL_RGBA8, size);
    texture.upload(GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
    return texture;
}

class SplitCompose : public ts::GlTest
{
protected:
    std::vector<std::uint8_t> compose(const std::vector<std::uint8_t>& a,
                                      const std::vector<std::uint8_t>& b,
                                      glm::ivec2 size,
                                      post::SplitMode mode,
                                      float position,
                                      float gain)
    {
        gl::Texture sideA = upload(a, size), sideB = upload(b, size);
        gl::Texture output("test.split-output", GL_RGBA8, size);
        post::PassContext ctx{ts::shaderLibrary(), ts::testProfiler(), ts::testGpuCaps(), 0};
        mPass.run(ctx, sideA, sideB, output, mode, position, gain);
        return output.readRgba8();
    }

    post::SplitCompose mPass;
};

TEST(SplitComposeMaths, DividerColumnAndModeNames)
{
    EXPECT_EQ(post::splitDividerX(100, 0.5f), 50);
    EXPECT_EQ(post::splitDividerX(101, 0.5f), 51);  // floor(50.5 + 0.5)
    EXPECT_EQ(post::splitDividerX(100, 0.0f), 0);
    EXPECT_EQ(post::splitDividerX(100, 1.0f), 100);
    EXPECT_EQ(post::splitDividerX(100, 7.0f), 100);
    EXPECT_EQ(post::splitDividerX(100, -1.0f), 0);
    for (post::SplitMode mode : {post::SplitMode::Off, post::SplitMode::SideBySide, post::SplitMode::Difference})
        EXPECT_EQ(post::parseSplitMode(post::splitModeName(mode)), mode);
    EXPECT_FALSE(post::parseSplitMode("sideways"));
}

TEST_F(SplitCompose, SideBySideEqualsTheCpuReferenceAtEveryDividerPosition)
{
    for (glm::ivec2 size : {glm::ivec2(37, 5), glm::ivec2(130, 17)}) {
        const auto a = randomRgba8(size, 1u), b = randomRgba8(size, 2u);
        for (float position : {0.0f, 0.013f, 0.5f, 0.77f, 1.0f}) {
            const int divider = post::splitDividerX(size.x, position);
            const auto got = compose(a, b, size, post::SplitMode::SideBySide, position, 1.0f);
            EXPECT_EQ(got, ref::splitSideBySide(a, b, size.x, size.y, divider))
                << size.x << "x" << size.y << " at " << position;
        }
    }
}

TEST_F(SplitCompose, SideBySideShowsEachSideAndTheDivider)
{
    const glm::ivec2 size(20, 3);
    const std::vector<std::uint8_t> a(std::size_t(size.x * size.y * 4), 10), b(a.size(), 200);
    const auto got = compose(a, b, size, post::SplitMode::SideBySide, 0.5f, 1.0f);
    auto red = [&](int x, int y) { return int(got[(std::size_t(y) * size.x + std::size_t(x)) * 4u]); };
    for (int y = 0; y < size.y; ++y) {
        EXPECT_EQ(red(0, y), 10);
        EXPECT_EQ(red(8, y), 10);
        EXPECT_EQ(red(9, y), 255);  // white at d - 1
        EXPECT_EQ(red(10, y), 0);   // black at d
        EXPECT_EQ(red(11, y), 200);
        EXPECT_EQ(red(19, y), 200);
    }
}

TEST_F(SplitCompose, DifferenceEqualsTheCpuReferenceAndIdenticalSidesGiveBlack)
{
    const glm::ivec2 size(61, 23);
    const auto a = randomRgba8(size, 3u);
    auto b = a;
    for (std::size_t i = 0; i < b.size(); i += 7)
        b[i] = std::uint8_t(b[i] ^ (i % 13));  // small differences, some larger
    for (float gain : {1.0f, 4.0f, 2.5f, 255.0f}) {
        const auto got = compose(a, b, size, post::SplitMode::Difference, 0.5f, gain);
        EXPECT_EQ(got, ref::splitDifference(a, b, gain)) << "gain " << gain;
    }
    const auto same = compose(a, a, size, post::SplitMode::Difference, 0.5f, 255.0f);
    for (std::size_t i = 0; i < same.size(); ++i)
        ASSERT_EQ(same[i], i % 4 == 3 ? 255 : 0) << "byte " << i;
}

TEST_F(SplitCompose, RefusesOffAndMismatchedImages)
{
    const glm::ivec2 size(8, 8);
    const auto a = randomRgba8(size, 4u);
    gl::Texture sideA = upload(a, size), sideB = upload(a, size);
    gl::Texture output("test.split-output", GL_RGBA8, size), small("test.split-small", GL_RGBA8, {4, 8});
    post::PassContext ctx{ts::shaderLibrary(), ts::testProfiler(), ts::testGpuCaps(), 0};
    post::SplitCompose pass;
    EXPECT_THROW(pass.run(ctx, sideA, sideB, output, post::SplitMode::Off, 0.5f, 1.0f), std::invalid_argument);
    EXPECT_THROW(pass.run(ctx, sideA, sideB, small, post::SplitMode::SideBySide, 0.5f, 1.0f), std::invalid_argument);
}

}  // namespace
