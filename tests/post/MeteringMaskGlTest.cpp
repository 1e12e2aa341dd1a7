// The percentile operator's metering masks on the GPU (post/tonemap/MeteringMask.h) against the CPU
// reference (reference/Metering.h): the weighted histogram and its normalised CDF for every mask at
// awkward sizes and bin counts, with NaN/Inf/negative pixels and sky pixels in the depth; the
// exposure with half the frame masked out against the exposure of the other half alone (and sky
// exclusion likewise); the metering view's bytes; bad mask files and the settings keys.
#include "image/ImageIo.h"
#include "post/PipelineParameters.h"
#include "post/PostPipeline.h"
#include "post/ToneGlTestSupport.h"
#include "post/tonemap/MeteringMask.h"
#include "post/tonemap/TonePercentile.h"
#include "post/tonemap/ToneShaders.h"
#include "reference/Histogram.h"
#include "reference/Metering.h"
#include "reference/Scan.h"
#include "reference/TonePercentileRef.h"
#include "support/TestPaths.h"
#include "verify/PipelineVerify.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <random>

namespace ts = testing_support;

namespace {

constexpr float kLogMin = -8.0f;
constexpr float kLogMax = 10.0f;

struct MaskCase
{
    const char* name;
    post::MeteringSettings settings;
    bool exactWeights;  ///< no sqrt/pow in the weight: GPU and CPU agree exactly
};

/// A depth texture (GL_DEPTH_COMPONENT32F) and its values, texel rows as stored.
struct DepthImage
{
    gl::Texture texture;
    std::vector<float> values;
};

DepthImage skyDepth(glm::ivec2 size, std::uint32_t seed)
{
    DepthImage depth;
    std::mt19937 random(seed);
    depth.values.resize(std::size_t(size.x) * std::size_t(size.y));
    for (float& d : depth.values)
        d = random() % 3 == 0 ? 1.0f : float(random() % 1000) / 1001.0f;  // a third is sky
    depth.texture = gl::Texture::depth("test.metering.depth", GL_DEPTH_COMPONENT32F, size);
    depth.texture.upload(GL_DEPTH_COMPONENT, GL_FLOAT, depth.values.data());
    return depth;
}

std::vector<std::uint32_t> paramsWords(std::uint32_t bins, glm::ivec2 size)
{
    post::HistogramSpec spec;  // clamp policy, the default luminance definition
    spec.binCount = bins;
    const auto words = post::histogramParamWords(kLogMin, kLogMax, spec, size);
    return {words.begin(), words.end()};
}

/// Weights with NaN, negative and above-1 entries, written as a float EXR.
std::filesystem::path writeMaskExr(const std::filesystem::path& folder, int width, int height, std::uint32_t seed)
{
    image::ImageF mask(width, height);
    std::mt19937 random(seed);
    for (int i = 0; i < width * height; ++i) {
        float w = float(random() % 1001) / 1000.0f;
        if (i % 7 == 3)
            w = std::numeric_limits<float>::quiet_NaN();
        else if (i % 7 == 5)
            w = -0.5f;
        else if (i % 7 == 6)
            w = 2.5f;
        float* p = mask.pixels.data() + std::size_t(i) * 4;
        p[0] = w;
        p[1] = 0.0f;
        p[2] = 0.0f;
        p[3] = 1.0f;
    }
    const std::filesystem::path path = folder / "mask.exr";
    image::writeExr(path, mask, image::ExrPixelType::Float);
    return path;
}

class MeteringMaskGl : public ts::GlTest
{
protected:
    post::PassContext context() { return {ts::shaderLibrary(), ts::testProfiler(), ts::testGpuCaps(), 0}; }
};

TEST_F(MeteringMaskGl, WeightedHistogramMatchesTheCpuReferenceForEveryMask)
{
    const std::filesystem::path folder = ts::scratchDir("metering-mask");
    const std::filesystem::path maskPath = writeMaskExr(folder, 13, 7, 5);
    const post::MeteringWeights maskWeights = post::loadMeteringWeights(maskPath);

    std::vector<MaskCase> cases;
    {
        post::MeteringSettings s;
        s.excludeSky = true;
        cases.push_back({"average + sky", s, true});
        s.excludeSky = false;
        s.mask = post::MeteringMaskType::CentreWeighted;
        cases.push_back({"centre-weighted", s, false});
        s.mask = post::MeteringMaskType::Ellipse;
        s.centreX = 0.4f;
        s.centreY = 0.6f;
        s.radiusX = 0.35f;
        s.radiusY = 0.2f;
        s.softness = 0.7f;
        s.gateMinEv = -3.0f;  // a gate inside the histogram range: some pixels weigh 0 by luminance
        s.gateMaxEv = 6.0f;
        cases.push_back({"ellipse + gate", s, false});
        s.excludeSky = true;
        cases.push_back({"ellipse + gate + sky", s, false});
        s = post::MeteringSettings{};
        s.mask = post::MeteringMaskType::Texture;
        s.texturePath = maskPath.string();
        cases.push_back({"texture", s, true});
    }
    const std::vector<glm::ivec2> sizes = {{1, 1}, {127, 61}, {16, 16}, {333, 200}, {1920, 1080}};
    post::MeteringMask metering;
    gl::Buffer params("test.metering.params", hd::kHistogramParamsWords * sizeof(std::uint32_t));
    int checkedBins = 0;
    for (const glm::ivec2 size : sizes) {
        ts::TestImage picture = ts::randomHdrImage(size.x, size.y, kLogMin - 1.0f, kLogMax + 1.0f, 11u + size.x);
        if (size.x * size.y > 16)
            ts::addSpecialPixels(picture, 29);
        const gl::Texture texture = ts::uploadImage(picture, "test.metering.image");
        const DepthImage depth = skyDepth(size, 3u + size.y);
        for (bool topDown : {false, true}) {
            for (std::uint32_t bins : {64u, 256u, 1000u}) {
                if (size.x == 1920 && (bins != 256u || topDown))
                    continue;  // the large frame once per mask (llvmpipe time)
                const auto words = paramsWords(bins, size);
                params.update(0, words.size() * sizeof(std::uint32_t), words.data());
                for (const MaskCase& c : cases) {
                    const std::string what = std::string(c.name) + " " + std::to_string(size.x) + "x" +
                                             std::to_string(size.y) + " bins " + std::to_string(bins) +
                                             (topDown ? " top-down" : "");
                    const post::ImageInput input{texture, size};
                    const post::MeteringFrame frame{input, input, params, &depth.texture, topDown};
                    ASSERT_TRUE(metering.active(c.settings, frame)) << what;
                    post::PassContext ctx = context();
                    const gl::Buffer& cdf = metering.run(ctx, c.settings, frame);
                    ASSERT_EQ(metering.problem(c.settings), "") << what;
                    const auto gpuWords = metering.weightedBins().readAll<std::uint32_t>(2 * bins);
                    const auto gpuCdf = cdf.readAll<std::uint32_t>(bins);
                    const auto gpuTotal = metering.totalWeight().readAll<std::uint32_t>(2);

                    ref::MeteringScene scene;
                    scene.width = size.x;
                    scene.height = size.y;
                    scene.topDownRows = topDown;
                    scene.maskValues = maskWeights.values.data();
                    scene.maskWidth = maskWeights.width;
                    scene.maskHeight = maskWeights.height;
                    scene.depth = depth.values.data();
                    scene.depthWidth = size.x;
                    scene.depthHeight = size.y;
                    const ref::WeightedHistogram cpu = ref::weightedHistogram(
                        picture.rgba.data(), c.settings, scene, kLogMin, kLogMax, bins, hd::kOutOfRangeClamp);

                    std::uint64_t pixelsInBins = 0;
                    for (std::uint32_t i = 0; i < bins; ++i) {
                        const std::uint64_t gpu =
                            std::uint64_t(gpuWords[2 * i]) | (std::uint64_t(gpuWords[2 * i + 1]) << 32);
                        // Each pixel's weight may differ by one step where sqrt/pow round differently.
                        const std::uint64_t tolerance = c.exactWeights ? 0 : cpu.pixels[i];
                        const std::uint64_t diff = gpu > cpu.bins[i] ? gpu - cpu.bins[i] : cpu.bins[i] - gpu;
                        ASSERT_LE(diff, tolerance)
                            << what << " bin " << i << ": gpu " << gpu << ", cpu " << cpu.bins[i];
                        pixelsInBins += cpu.pixels[i];
                        ++checkedBins;
                    }
                    const std::uint64_t gpuTotalWeight =
                        std::uint64_t(gpuTotal[0]) | (std::uint64_t(gpuTotal[1]) << 32);
                    EXPECT_LE(gpuTotalWeight > cpu.total ? gpuTotalWeight - cpu.total : cpu.total - gpuTotalWeight,
                              c.exactWeights ? 0 : pixelsInBins)
                        << what;
                    // The mask must weigh something less than everything, or the test proves nothing.
                    if (size.x * size.y > 16)
                        EXPECT_LT(cpu.total, pixelsInBins * 65535u) << what;
                    // CDF: normalised in double (a GPU's double division need not round correctly: 1
                    // unit); with inexact weights, plus what one step per pixel moves: 2^30 * pixels / total.
                    double cdfTolerance = 1.0;
                    if (!c.exactWeights && cpu.total > 0)
                        cdfTolerance +=
                            std::ceil(double(hd::kMeteringCdfTotal) * double(pixelsInBins) / double(cpu.total));
                    for (std::uint32_t i = 0; i < bins; ++i)
                        ASSERT_LE(std::abs(double(gpuCdf[i]) - double(cpu.cdf[i])), cdfTolerance)
                            << what << " cdf " << i;
                    if (cpu.total > 0)
                        EXPECT_EQ(gpuCdf[bins - 1], hd::kMeteringCdfTotal) << what;
                }
            }
        }
    }
    EXPECT_GT(checkedBins, 10000);
    ts::expectNoGlErrors("metering histogram");
}

TEST_F(MeteringMaskGl, SixtyFourBitBinsCarryPastTwoToTheThirtyTwo)
{
    // One bin holding 2^20 pixels at full weight: 2^20 * 65535 > 2^32, so the low word wraps ~16 times.
    const glm::ivec2 size{1024, 1024};
    ts::TestImage picture;
    picture.width = size.x;
    picture.height = size.y;
    picture.rgba.assign(std::size_t(size.x) * size.y * 4, 1.0f);
    const gl::Texture texture = ts::uploadImage(picture);
    const DepthImage depth = skyDepth(size, 8);
    gl::Buffer params("test.metering.params", hd::kHistogramParamsWords * sizeof(std::uint32_t));
    const auto words = paramsWords(32, size);
    params.update(0, words.size() * sizeof(std::uint32_t), words.data());
    post::MeteringSettings s;
    s.excludeSky = true;
    const post::ImageInput input{texture, size};
    const post::MeteringFrame frame{input, input, params, &depth.texture, false};
    post::MeteringMask metering;
    ASSERT_TRUE(metering.active(s, frame));
    post::PassContext ctx = context();
    metering.run(ctx, s, frame);
    ref::MeteringScene scene;
    scene.width = size.x;
    scene.height = size.y;
    scene.depth = depth.values.data();
    scene.depthWidth = size.x;
    scene.depthHeight = size.y;
    const ref::WeightedHistogram cpu =
        ref::weightedHistogram(picture.rgba.data(), s, scene, kLogMin, kLogMax, 32, hd::kOutOfRangeClamp);
    const auto gpu = metering.weightedBins().readAll<std::uint32_t>(64);
    const auto bin = std::size_t(hd::hdBinOf(1.0f, kLogMin, kLogMax, 32, hd::kOutOfRangeClamp));
    ASSERT_GT(cpu.bins[bin], std::uint64_t(1) << 33);
    EXPECT_EQ(std::uint64_t(gpu[2 * bin]) | (std::uint64_t(gpu[2 * bin + 1]) << 32), cpu.bins[bin]);
}

TEST_F(MeteringMaskGl, DownsampledHistogramImageTakesTheNearestDepthTexel)
{
    // --downsample: the histogram image is smaller than the frame and its depth.
    const glm::ivec2 frameSize{125, 61}, size{31, 15};
    const ts::TestImage picture = ts::randomHdrImage(size.x, size.y, kLogMin, kLogMax, 41);
    const gl::Texture texture = ts::uploadImage(picture);
    const gl::Texture frameTexture("test.metering.frame", GL_RGBA32F, frameSize);
    const DepthImage depth = skyDepth(frameSize, 42);
    gl::Buffer params("test.metering.params", hd::kHistogramParamsWords * sizeof(std::uint32_t));
    const auto words = paramsWords(100, size);
    params.update(0, words.size() * sizeof(std::uint32_t), words.data());
    post::MeteringSettings s;
    s.excludeSky = true;
    const post::MeteringFrame frame{{frameTexture, frameSize}, {texture, size}, params, &depth.texture, false};
    post::MeteringMask metering;
    ASSERT_TRUE(metering.active(s, frame));
    post::PassContext ctx = context();
    metering.run(ctx, s, frame);
    ref::MeteringScene scene;
    scene.width = size.x;
    scene.height = size.y;
    scene.depth = depth.values.data();
    scene.depthWidth = frameSize.x;
    scene.depthHeight = frameSize.y;
    const ref::WeightedHistogram cpu =
        ref::weightedHistogram(picture.rgba.data(), s, scene, kLogMin, kLogMax, 100, hd::kOutOfRangeClamp);
    const auto gpu = metering.weightedBins().readAll<std::uint32_t>(200);
    std::uint64_t total = 0;
    for (std::size_t i = 0; i < 100; ++i) {
        EXPECT_EQ(std::uint64_t(gpu[2 * i]) | (std::uint64_t(gpu[2 * i + 1]) << 32), cpu.bins[i]) << i;
        total += cpu.pixels[i];
    }
    EXPECT_LT(cpu.total, total * 65535u);  // some sky was found
    EXPECT_GT(cpu.total, 0u);
}

TEST_F(MeteringMaskGl, CpuWeightsFollowTheDocumentedFormulas)
{
    ref::MeteringScene scene;
    scene.width = 100;
    scene.height = 50;
    scene.topDownRows = true;
    post::MeteringSettings s;
    s.mask = post::MeteringMaskType::CentreWeighted;
    // Centre pixel (49.5 from the centre by 0.5, 0.5): 1 - sqrt(0.5) / 75.
    EXPECT_NEAR(ref::meteringWeight(s, scene, 50, 25, 1.0f), 1.0f - std::sqrt(0.5f) / 75.0f, 1e-6f);
    // A corner: 1 - sqrt(49.5^2 + 24.5^2) / 75.
    EXPECT_NEAR(ref::meteringWeight(s, scene, 0, 0, 1.0f), 1.0f - std::hypot(49.5f, 24.5f) / 75.0f, 1e-6f);
    s.mask = post::MeteringMaskType::Ellipse;  // HDRP defaults: centre 0.5, radii 0.3, softness 0.5
    EXPECT_NEAR(ref::meteringWeight(s, scene, 50, 25, 1.0f),
                1.0f - (0.5f / 30.0f) * (0.5f / 30.0f) - (0.5f / 15.0f) * (0.5f / 15.0f), 1e-5f);
    EXPECT_EQ(ref::meteringWeight(s, scene, 0, 0, 1.0f), 0.0f);      // outside the ellipse
    EXPECT_EQ(ref::meteringWeight(s, scene, 50, 25, 0.0f), 0.0f);    // gate: L <= 2^-30
    EXPECT_EQ(ref::meteringWeight(s, scene, 50, 25, 2.0e9f), 0.0f);  // gate: L >= 2^30
    EXPECT_EQ(hd::hdQuantiseMeteringWeight(std::numeric_limits<float>::quiet_NaN()), 0u);
    EXPECT_EQ(hd::hdQuantiseMeteringWeight(-1.0f), 0u);
    EXPECT_EQ(hd::hdQuantiseMeteringWeight(7.0f), 65535u);
    EXPECT_EQ(hd::hdQuantiseMeteringWeight(0.5f), 32768u);  // 32767.5 + 0.5
    EXPECT_EQ(hd::hdNearestTexel(0, 100, 13), 0);
    EXPECT_EQ(hd::hdNearestTexel(99, 100, 13), 12);
    EXPECT_EQ(hd::hdNearestTexel(7, 8, 8), 7);
}

/// Runs the percentile operator (adaptation off) on `picture` with `settings` and returns its target EV.
float percentileTarget(const ts::TestImage& picture,
                       const post::PercentileSettings& settings,
                       const gl::Texture* depth,
                       std::string* status = nullptr)
{
    tone_test::ToneRig rig;
    rig.setImage(picture);
    // The pipeline's CDF: the plain histogram of the whole frame (what an unmasked meter reads).
    const ref::Histogram plain = ref::buildHistogram(picture.rgba.data(), picture.width, picture.height, kLogMin,
                                                     kLogMax, 256, ref::OutOfRange::Clamp);
    rig.setHistogram(plain.bins, kLogMin, kLogMax);
    post::TonePercentile op;
    op.setSettings(settings);
    auto method = std::make_unique<tone_test::PreparedHistogram>();
    post::PassContext ctx{ts::shaderLibrary(), ts::testProfiler(), ts::testGpuCaps(), 0};
    const post::ImageInput input{rig.image, rig.size};
    post::ToneInputs inputs{input, input, rig.histogram, rig.cdf, rig.params, rig.spec, 1.0 / 60.0, 60.0f, *method};
    inputs.depth = depth;
    op.computeCurve(ctx, inputs, rig.curve);
    op.flushStateReadback();  // as the pipeline does after the frame's passes
    if (status) {
        glFinish();
        op.computeCurve(ctx, inputs, rig.curve);  // the readback of the first frame arrives
        op.flushStateReadback();
        glFinish();
        op.computeCurve(ctx, inputs, rig.curve);
        op.flushStateReadback();
        *status = op.status();
    }
    return op.stateBuffer().readAll<float>(post::percentile_state::kWords)[post::percentile_state::kTarget];
}

/// The target EV of the plain histogram of the pixels for which keep(x, y) holds (the CPU model).
template <typename Keep>
double targetOfPart(const ts::TestImage& picture, const post::PercentileSettings& settings, Keep keep)
{
    std::vector<float> part;
    for (int y = 0; y < picture.height; ++y)
        for (int x = 0; x < picture.width; ++x)
            if (keep(x, y))
                part.insert(part.end(), picture.rgba.begin() + (y * picture.width + x) * 4,
                            picture.rgba.begin() + (y * picture.width + x) * 4 + 4);
    const ref::Histogram h =
        ref::buildHistogram(part.data(), int(part.size() / 4), 1, kLogMin, kLogMax, 256, ref::OutOfRange::Clamp);
    const ref::PercentileTarget t = ref::percentileExposure(ref::inclusiveScan(h.bins), kLogMin, kLogMax, settings);
    EXPECT_TRUE(t.valid);
    return t.targetEv;
}

/// Left half dark, right half bright (different distributions, so metering one half moves the exposure).
ts::TestImage twoHalves(int width, int height)
{
    ts::TestImage picture = ts::randomHdrImage(width, height, -6.0f, 0.0f, 21);
    const ts::TestImage bright = ts::randomHdrImage(width, height, 3.0f, 8.0f, 22);
    for (int y = 0; y < height; ++y)
        for (int x = width / 2; x < width; ++x)
            for (int c = 0; c < 4; ++c)
                picture.rgba[std::size_t((y * width + x) * 4 + c)] = bright.rgba[std::size_t((y * width + x) * 4 + c)];
    return picture;
}

TEST_F(MeteringMaskGl, HalfMaskedFrameMetersLikeTheOtherHalfAlone)
{
    const int width = 96, height = 40;
    const ts::TestImage picture = twoHalves(width, height);
    const std::filesystem::path folder = ts::scratchDir("metering-half");
    image::Image8 mask;  // 2x1 PNG: left 255 (weight 1), right 0; nearest texel = the frame's halves
    mask.width = 2;
    mask.height = 1;
    mask.channels = 1;
    mask.pixels = {255, 0};
    image::writePng(folder / "left.png", mask);

    post::PercentileSettings s;
    s.adapt = false;
    s.limitHighlights = false;
    const float whole = percentileTarget(picture, s, nullptr);
    s.meteringMask.mask = post::MeteringMaskType::Texture;
    s.meteringMask.texturePath = (folder / "left.png").string();
    const float leftOnly = percentileTarget(picture, s, nullptr);
    const double expected = targetOfPart(picture, s, [&](int x, int) { return x < width / 2; });
    EXPECT_NEAR(leftOnly, expected, 1e-3);
    EXPECT_GT(std::abs(leftOnly - whole), 1.0f) << "the mask must move the exposure for this test to mean anything";
}

TEST_F(MeteringMaskGl, SkyExclusionMetersTheGroundAlone)
{
    const int width = 64, height = 48;
    const ts::TestImage picture = twoHalves(width, height);
    // The bright right half is "sky": depth 1.0 there, nearer elsewhere.
    std::vector<float> depthValues(std::size_t(width) * height);
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x)
            depthValues[std::size_t(y * width + x)] = x >= width / 2 ? 1.0f : 0.25f;
    gl::Texture depth = gl::Texture::depth("test.metering.sky", GL_DEPTH32F_STENCIL8, {width, height});
    // A depth-stencil texture as the scene renderer makes it, filled through a cleared framebuffer
    // would need a draw; GL_DEPTH_COMPONENT upload into GL_DEPTH32F_STENCIL8 is allowed.
    depth.upload(GL_DEPTH_COMPONENT, GL_FLOAT, depthValues.data());

    post::PercentileSettings s;
    s.adapt = false;
    s.limitHighlights = false;
    const float whole = percentileTarget(picture, s, nullptr);
    s.meteringMask.excludeSky = true;
    const float ground = percentileTarget(picture, s, &depth);
    EXPECT_NEAR(ground, targetOfPart(picture, s, [&](int x, int) { return x < width / 2; }), 1e-3);
    EXPECT_GT(std::abs(ground - whole), 1.0f);

    // No depth (a still image): sky exclusion is off, the whole frame is metered, the status says why.
    std::string status;
    EXPECT_NEAR(percentileTarget(picture, s, nullptr, &status), whole, 1e-4);
    EXPECT_NE(status.find("sky exclusion off: no scene depth"), std::string::npos) << status;
    // A depth of another size: off as well.
    gl::Texture small = gl::Texture::depth("test.metering.small", GL_DEPTH_COMPONENT32F, {width / 2, height});
    EXPECT_NEAR(percentileTarget(picture, s, &small, &status), whole, 1e-4);
    EXPECT_NE(status.find("size differs"), std::string::npos) << status;
    ts::expectNoGlErrors("sky exclusion");
}

TEST_F(MeteringMaskGl, ZeroWeightKeepsThePreviousExposure)
{
    const ts::TestImage picture = twoHalves(32, 16);
    const std::filesystem::path folder = ts::scratchDir("metering-zero");
    image::Image8 mask;
    mask.width = 1;
    mask.height = 1;
    mask.channels = 1;
    mask.pixels = {0};
    image::writePng(folder / "zero.png", mask);
    post::PercentileSettings s;
    s.adapt = false;
    s.meteringMask.mask = post::MeteringMaskType::Texture;
    s.meteringMask.texturePath = (folder / "zero.png").string();
    std::string status;
    percentileTarget(picture, s, nullptr, &status);
    EXPECT_NE(status.find("no usable histogram"), std::string::npos) << status;
}

TEST_F(MeteringMaskGl, MeteringViewDarkensByWeightAndTintsExcludedPixels)
{
    const glm::ivec2 size{77, 45};
    const ts::TestImage picture = ts::randomHdrImage(size.x, size.y, -4.0f, 8.0f, 31);
    const gl::Texture frameTexture = ts::uploadImage(picture, "test.metering.frame");
    std::mt19937 random(4);
    std::vector<std::uint8_t> tonedBytes(std::size_t(size.x) * size.y * 4);
    for (auto& b : tonedBytes)
        b = std::uint8_t(random() % 256);
    gl::Texture toned("test.metering.toned", GL_RGBA8, size);
    toned.upload(GL_RGBA, GL_UNSIGNED_BYTE, tonedBytes.data());
    gl::Texture output("test.metering.view", GL_RGBA8, size);
    gl::Buffer params("test.metering.params", hd::kHistogramParamsWords * sizeof(std::uint32_t));
    const auto words = paramsWords(64, size);
    params.update(0, words.size() * sizeof(std::uint32_t), words.data());

    post::MeteringSettings s;
    s.mask = post::MeteringMaskType::Ellipse;
    s.gateMinEv = -2.0f;
    const post::ImageInput input{frameTexture, size};
    const post::MeteringFrame frame{input, input, params, nullptr, false};
    post::MeteringMask metering;
    metering.active(s, frame);
    post::PassContext ctx = context();
    metering.overlay(ctx, s, frame, toned, output);
    const std::vector<std::uint8_t> shown = output.readRgba8();

    ref::MeteringScene scene;
    scene.width = size.x;
    scene.height = size.y;
    int excluded = 0, partial = 0, worst = 0;
    for (int y = 0; y < size.y; ++y)
        for (int x = 0; x < size.x; ++x) {
            const std::size_t i = std::size_t(y * size.x + x);
            const float* p = picture.rgba.data() + i * 4;
            const std::uint32_t q = ref::meteringWeightQuantised(s, scene, x, y, hd::hdLuminance(p[0], p[1], p[2]));
            const auto expected = ref::meteringViewPixel(tonedBytes.data() + i * 4, q);
            for (int c = 0; c < 4; ++c)
                worst = std::max(worst, std::abs(int(expected[std::size_t(c)]) - int(shown[i * 4 + std::size_t(c)])));
            excluded += q == 0u;
            partial += q > 0u && q < 65535u;
        }
    EXPECT_LE(worst, 1) << "bytes vs ref::meteringViewPixel (1 LSB: float-to-unorm rounding)";
    EXPECT_GT(excluded, 100);
    EXPECT_GT(partial, 100);
}

TEST_F(MeteringMaskGl, BadMaskFilesGiveOneLineErrorsNamingKeyAndFile)
{
    const std::filesystem::path folder = ts::scratchDir("metering-bad");
    try {
        post::parseAssignment("percentile.mask_texture=/nonexistent/mask.exr", "--set");
        ADD_FAILURE() << "a missing mask file was accepted";
    } catch (const std::runtime_error& e) {
        const std::string text = e.what();
        EXPECT_NE(text.find("--set: percentile.mask_texture:"), std::string::npos) << text;
        EXPECT_NE(text.find("/nonexistent/mask.exr"), std::string::npos) << text;
        EXPECT_EQ(text.find('\n'), std::string::npos) << text;
    }
    {
        std::ofstream damaged(folder / "damaged.png", std::ios::binary);
        damaged << "\x89PNG\r\n\x1a\n not really";
    }
    EXPECT_THROW(post::parseAssignment("percentile.mask_texture=" + (folder / "damaged.png").string(), "--set"),
                 std::runtime_error);
    EXPECT_NO_THROW(post::parseAssignment("percentile.mask_texture=", "--set"));  // empty: no texture

    // A file that went bad after it was set: the operator meters the whole frame and says why.
    post::MeteringSettings s;
    s.mask = post::MeteringMaskType::Texture;
    s.texturePath = (folder / "damaged.png").string();
    const ts::TestImage picture = ts::randomHdrImage(8, 8, -2.0f, 2.0f, 1);
    const gl::Texture texture = ts::uploadImage(picture);
    gl::Buffer params("test.metering.params", hd::kHistogramParamsWords * sizeof(std::uint32_t));
    const auto words = paramsWords(16, {8, 8});
    params.update(0, words.size() * sizeof(std::uint32_t), words.data());
    const post::ImageInput input{texture, {8, 8}};
    post::MeteringMask metering;
    const post::MeteringFrame frame{input, input, params, nullptr, false};
    metering.active(s, frame);
    post::PassContext ctx = context();
    metering.run(ctx, s, frame);
    const std::string problem = metering.problem(s);
    EXPECT_NE(problem.find("damaged.png"), std::string::npos) << problem;
    EXPECT_NE(problem.find("metering the whole frame"), std::string::npos) << problem;
    const auto gpu = metering.weightedBins().readAll<std::uint32_t>(32);
    std::uint64_t total = 0;
    for (std::uint32_t i = 0; i < 16; ++i)
        total += gpu[2 * i];
    EXPECT_EQ(total, 64u * 65535u);  // every pixel at weight 1
}

TEST_F(MeteringMaskGl, SanitizeClampsAbsurdMaskSettings)
{
    post::MeteringSettings s;
    s.radiusX = 0.0f;
    s.radiusY = std::numeric_limits<float>::infinity();
    s.softness = -3.0f;
    s.centreX = std::numeric_limits<float>::quiet_NaN();
    s.gateMinEv = 10.0f;
    s.gateMaxEv = -10.0f;
    s.mask = post::MeteringMaskType(9);
    const post::MeteringSettings c = post::sanitize(s);
    EXPECT_GT(c.radiusX, 0.0f);
    EXPECT_EQ(c.radiusY, 0.3f);  // non-finite: the default
    EXPECT_GT(c.softness, 0.0f);
    EXPECT_EQ(c.centreX, 0.5f);
    EXPECT_LT(c.gateMinEv, c.gateMaxEv);
    EXPECT_EQ(c.mask, post::MeteringMaskType::Average);
}

TEST_F(MeteringMaskGl, PipelineKeysViewAndVerify)
{
    post::PostPipeline pipeline(ts::shaderLibrary(), ts::testProfiler(), ts::testGpuCaps());
    post::PipelineParameters parameters(pipeline);
    parameters.set("tonemap.operator", "percentile");
    const ts::TestImage picture = twoHalves(120, 68);
    const gl::Texture texture = ts::uploadImage(picture);
    const post::ImageInput input{texture, {120, 68}};

    // Default (average): no metering pass, the pipeline's CDF.
    pipeline.run(input, 1.0 / 60.0, 60.0f);
    auto& percentile = dynamic_cast<post::TonePercentile&>(pipeline.toneOperator());
    EXPECT_EQ(percentile.meteringCdf(), nullptr);

    parameters.set("percentile.metering_mask", "ellipse");
    parameters.set("percentile.mask_radius_x", "0.25");
    parameters.set("percentile.mask_gate_min_ev", "-4");
    EXPECT_EQ(percentile.settings().meteringMask.mask, post::MeteringMaskType::Ellipse);
    EXPECT_EQ(percentile.settings().meteringMask.radiusX, 0.25f);
    EXPECT_EQ(parameters.get("percentile.mask_gate_min_ev"), "-4");
    pipeline.setViewMode(post::ViewMode::Metering);
    const gl::Texture& view = pipeline.run(input, 1.0 / 60.0, 60.0f);
    EXPECT_NE(percentile.meteringCdf(), nullptr);
    EXPECT_NE(view.id(), pipeline.toneMappedTexture().id());
    EXPECT_NE(view.readRgba8(), pipeline.toneMappedTexture().readRgba8());
    const verify::VerifyReport report = verify::verifyPipeline(pipeline);
    EXPECT_TRUE(report.ok) << report.text;
    EXPECT_NE(report.text.find("percentile target exposure"), std::string::npos) << report.text;
    EXPECT_NE(report.text.find("metering mask: weighted CDF vs CPU reference"), std::string::npos) << report.text;
    EXPECT_EQ(post::parseViewMode("metering"), post::ViewMode::Metering);
    EXPECT_EQ(post::viewModeName(post::ViewMode::Metering), "metering");
}

}  // namespace
