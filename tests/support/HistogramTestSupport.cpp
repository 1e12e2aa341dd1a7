#include "support/HistogramTestSupport.h"

#include "post/AutoRange.h"
#include "post/PostTypes.h"
#include "reference/Scan.h"
#include "support/GlTestEnvironment.h"

#include <cmath>
#include <iostream>
#include <limits>
#include <memory>
#include <random>
#include <set>

namespace testing_support {

void TestImage::setGrey(std::size_t pixel, float value)
{
    setRgb(pixel, value, value, value);
}

void TestImage::setRgb(std::size_t pixel, float r, float g, float b)
{
    float* p = rgba.data() + pixel * 4;
    p[0] = r;
    p[1] = g;
    p[2] = b;
    p[3] = 1.0f;
}

namespace {

TestImage blankImage(int width, int height)
{
    TestImage image;
    image.width = width;
    image.height = height;
    image.rgba.assign(image.pixelCount() * 4, 0.0f);
    return image;
}

/// The grey value whose luminance is 2^logL (divides out the weight sum, 1 up to rounding).
float greyForLog2(double logL)
{
    const double weights = double(hd::kLumaR) + double(hd::kLumaG) + double(hd::kLumaB);
    return float(std::exp2(logL) / weights);
}

}  // namespace

TestImage binCentreImage(int width,
                         int height,
                         float logMin,
                         float logMax,
                         std::uint32_t bins,
                         std::uint32_t seed,
                         int outOfRangeEvery)
{
    TestImage image = blankImage(width, height);
    std::mt19937 random(seed);
    std::uniform_int_distribution<std::uint32_t> pickBin(0, bins - 1);
    const double width1 = (double(logMax) - logMin) / bins;
    for (std::size_t i = 0; i < image.pixelCount(); ++i) {
        double logL = logMin + (pickBin(random) + 0.5) * width1;
        if (outOfRangeEvery > 0 && i % std::size_t(outOfRangeEvery) == std::size_t(outOfRangeEvery - 1))
            logL = (i / std::size_t(outOfRangeEvery)) % 2 == 0 ? logMin - 1.5 : logMax + 1.5;
        image.setGrey(i, greyForLog2(logL));
    }
    return image;
}

std::vector<float> randomFrameWithSpecials(glm::ivec2 size, unsigned seed, float evMin, float evMax)
{
    std::mt19937 random(seed);
    std::uniform_real_distribution<float> ev(evMin, evMax);
    std::uniform_int_distribution<int> special(0, 49);
    std::vector<float> rgba(std::size_t(size.x) * std::size_t(size.y) * 4);
    for (std::size_t i = 0; i < rgba.size(); i += 4) {
        const float base = std::exp2(ev(random));
        rgba[i] = base, rgba[i + 1] = base * 0.7f, rgba[i + 2] = base * 1.3f, rgba[i + 3] = 1.0f;
        switch (special(random)) {
            case 0:
                rgba[i] = std::numeric_limits<float>::quiet_NaN();
                break;
            case 1:
                rgba[i + 1] = std::numeric_limits<float>::infinity();
                break;
            case 2:
                rgba[i] = rgba[i + 1] = rgba[i + 2] = -1.0f;
                break;
            case 3:
                rgba[i] = rgba[i + 1] = rgba[i + 2] = 0.0f;
                break;
            default:
                break;
        }
    }
    return rgba;
}

TestImage randomHdrImage(int width, int height, float logMin, float logMax, std::uint32_t seed)
{
    TestImage image = blankImage(width, height);
    std::mt19937 random(seed);
    std::uniform_real_distribution<double> pickLog(logMin, logMax);
    std::uniform_real_distribution<float> pickTint(0.2f, 1.0f);
    for (std::size_t i = 0; i < image.pixelCount(); ++i) {
        float r = pickTint(random), g = pickTint(random), b = pickTint(random);
        float scale = float(std::exp2(pickLog(random)) / hd::hdLuminance(r, g, b));
        image.setRgb(i, r * scale, g * scale, b * scale);
    }
    return image;
}

SpecialCounts addSpecialPixels(TestImage& image, int every)
{
    SpecialCounts counts;
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    int kind = 0;
    for (std::size_t i = 0; i < image.pixelCount(); i += std::size_t(every)) {
        switch (kind++ % 6) {
            case 0:
                image.setGrey(i, nan);
                ++counts.nan;
                break;
            case 1:
                image.setGrey(i, inf);
                ++counts.inf;
                break;
            case 2:
                image.setGrey(i, -inf);
                ++counts.inf;
                break;
            case 3:
                image.setGrey(i, -2.0f);
                ++counts.nonPositive;
                break;
            case 4:
                image.setGrey(i, 0.0f);
                ++counts.nonPositive;
                break;
            case 5:
                image.setRgb(i, 1.0f, nan, 1.0f);
                ++counts.nan;
                break;
        }
    }
    return counts;
}

gl::Texture uploadImage(const TestImage& image, const char* label)
{
    gl::Texture texture(label, GL_RGBA32F, {image.width, image.height});
    texture.upload(GL_RGBA, GL_FLOAT, image.rgba.data());
    return texture;
}

const post::GpuCaps& testGpuCaps()
{
    static const post::GpuCaps caps = post::queryGpuCaps(glContext().info());
    return caps;
}

profiling::Profiler& testProfiler()
{
    static std::unique_ptr<profiling::Profiler> profiler;
    if (!profiler) {
        glContext();
        profiler = std::make_unique<profiling::Profiler>(false);
    }
    return *profiler;
}

GpuHistogram runHistogramMethodOnTexture(post::HistogramMethod& method,
                                         const gl::Texture& texture,
                                         glm::ivec2 size,
                                         float logMin,
                                         float logMax,
                                         const post::HistogramSpec& spec,
                                         post::FovealTarget* foveal)
{
    gl::Buffer params = post::createHistogramParamsBuffer("test.params");
    post::writeHistogramParams(params, logMin, logMax, spec, size);
    gl::Buffer histogram("test.histogram", hd::kHistogramBufferWords * sizeof(std::uint32_t));
    gl::Buffer cumulative("test.cumulative", hd::kMaxHistogramBins * sizeof(std::uint32_t));
    // Garbage first: a method must clear what it writes.
    histogram.clearUint(0xDEADBEEFu);
    cumulative.clearUint(0xDEADBEEFu);

    post::PassContext ctx{shaderLibrary(), testProfiler(), testGpuCaps(), 0};
    post::HistogramTargets targets{histogram, params, method.producesCumulative() ? &cumulative : nullptr, foveal};
    method.build(ctx, post::ImageInput{texture, size}, spec, targets);
    glFinish();

    GpuHistogram result;
    const auto words = histogram.readAll<std::uint32_t>(hd::kHistogramBufferWords);
    result.bins.assign(words.begin(), words.begin() + spec.binCount);
    for (std::size_t i = 0; i < hd::kCounterCount; ++i)
        result.counters[i] = words[hd::kHistogramCountersOffset + i];
    if (method.producesCumulative())
        result.cumulative = cumulative.readAll<std::uint32_t>(spec.binCount);
    return result;
}

GpuHistogram runHistogramMethod(post::HistogramMethod& method,
                                const TestImage& image,
                                float logMin,
                                float logMax,
                                const post::HistogramSpec& spec,
                                post::FovealTarget* foveal)
{
    gl::Texture texture = uploadImage(image);
    return runHistogramMethodOnTexture(method, texture, {image.width, image.height}, logMin, logMax, spec, foveal);
}

ref::OutOfRange toReference(post::OutOfRange policy)
{
    return policy == post::OutOfRange::Separate ? ref::OutOfRange::Separate : ref::OutOfRange::Clamp;
}

std::vector<std::string> allHistogramMethodIds()
{
    std::vector<std::string> ids;
    for (const post::HistogramMethodEntry& entry : post::histogramMethodRegistry())
        ids.emplace_back(entry.id);
    return ids;
}

std::vector<std::string> availableGlHistogramMethodIds()
{
    static std::set<std::string> reported;
    std::vector<std::string> ids;
    for (const post::HistogramMethodEntry& entry : post::histogramMethodRegistry()) {
        auto method = entry.create();
        post::Availability availability = method->availability(testGpuCaps());
        if (method->backend() == post::Backend::OpenGL && availability.available && !method->needsFusedProducer()) {
            ids.emplace_back(entry.id);
        } else if (reported.insert(std::string(entry.id)).second) {
            std::cout << "[ skipped  ] histogram method " << entry.id << ": "
                      << (!availability.available ? availability.reason
                          : method->needsFusedProducer()
                              ? std::string(post::kNeedsFusedProducer) + " (tests/app/FusedHistogramGlTest.cpp)"
                              : std::string("not an OpenGL method"))
                      << "\n";
        }
    }
    return ids;
}

void expectHistogramsEqual(const GpuHistogram& gpu,
                           const ref::Histogram& cpu,
                           bool countersToo,
                           const std::string& what)
{
    ASSERT_EQ(gpu.bins.size(), cpu.bins.size()) << what;
    std::size_t differing = 0;
    for (std::size_t i = 0; i < cpu.bins.size(); ++i) {
        if (gpu.bins[i] != cpu.bins[i] && differing++ < 3)
            ADD_FAILURE() << what << ": bin " << i << " gpu " << gpu.bins[i] << " cpu " << cpu.bins[i];
    }
    EXPECT_EQ(differing, 0u) << what << ": bins that differ";
    if (countersToo) {
        const char* names[] = {"NaN", "Inf", "non-positive", "below", "above"};
        for (std::size_t c = 0; c < 5; ++c)
            EXPECT_EQ(gpu.counters[c], cpu.counters[c]) << what << ": counter " << names[c];
    }
    if (!gpu.cumulative.empty())
        EXPECT_EQ(gpu.cumulative, ref::inclusiveScan(gpu.bins)) << what << ": built-in cumulative histogram";
}

void expectHistogramsClose(const GpuHistogram& gpu,
                           const TestImage& image,
                           float logMin,
                           float logMax,
                           const post::HistogramSpec& spec,
                           bool countersToo,
                           const std::string& what)
{
    const ref::Histogram cpu = ref::buildHistogram(image.rgba.data(), image.width, image.height, logMin, logMax,
                                                   spec.binCount, toReference(spec.outOfRange));
    const auto near = ref::countNearEdges(image.rgba.data(), image.width, image.height, logMin, logMax, spec.binCount,
                                          ref::gpuBinTolerance(logMin, logMax, spec.binCount));
    std::array<std::uint32_t, hd::kCounterCount> counters = gpu.counters;
    if (!countersToo)
        for (std::size_t c = 0; c < hd::kCounterCount; ++c)
            counters[c] = std::uint32_t(cpu.counters[c]);
    const ref::HistogramComparison cmp = ref::compareHistograms(gpu.bins, counters.data(), cpu, near);
    EXPECT_EQ(cmp.gpuTotal, cmp.cpuTotal) << what;
    EXPECT_TRUE(cmp.countersEqual) << what;
    EXPECT_TRUE(cmp.onlyNeighbourMoves) << what << ": unexplained difference at edge " << cmp.firstUnexplainedEdge
                                        << " (L1 " << cmp.l1Difference << ")";
    if (!gpu.cumulative.empty())
        EXPECT_EQ(gpu.cumulative, ref::inclusiveScan(gpu.bins)) << what << ": built-in cumulative histogram";
}

}  // namespace testing_support
