// ReferenceChainGlTest.cpp: `bench pipeline`'s reference chain (commands/bench/ReferenceChain.h)
// computes what it claims, on llvmpipe, on small RGBA16F and RGBA32F frames (one of odd pixel count,
// so a half frame's last 16-byte element holds a padding pixel):
//  - the linear copy holds the frame's texels bit for bit;
//  - the histogram (hardware log2, not exact) against the CPU reference (ref::buildHistogram): the
//    total and the NaN/Inf/non-positive counters exact; pixels moved only between neighbouring bins
//    and only as many across an edge as lie within ref::gpuBinTolerance of it; on a frame of grey
//    pixels at bin centres, exact;
//  - the curve against its CPU model (ReferenceChainCpu.h) from the GPU's own histogram: header
//    exact, samples within a relative 2e-5;
//  - the apply's pixels against the CPU model from the GPU's own curve: within 1 LSB per channel;
//  - time() gives one finite, non-negative time per run and stage, the chain no less than its stages.
#include "commands/bench/ReferenceChain.h"
#include "commands/bench/ReferenceChainCpu.h"
#include "post/AutoRange.h"
#include "reference/Histogram.h"
#include "support/GlTestEnvironment.h"
#include "support/HistogramTestSupport.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>

namespace {

namespace ts = testing_support;

class ReferenceChainGlTest : public ts::GlTest
{
};

constexpr float kLogMin = -8.0f;
constexpr float kLogMax = 10.0f;

/// Grey pixels whose log2 luminance is a bin's centre (every bin in turn).
std::vector<float> binCentreFrame(glm::ivec2 size, std::uint32_t bins)
{
    std::vector<float> rgba(std::size_t(size.x) * std::size_t(size.y) * 4);
    const float width = (kLogMax - kLogMin) / float(bins);
    for (std::size_t p = 0; p < rgba.size() / 4; ++p) {
        const float grey = std::exp2(kLogMin + (float(p % bins) + 0.5f) * width);
        rgba[4 * p] = rgba[4 * p + 1] = rgba[4 * p + 2] = grey;
        rgba[4 * p + 3] = 1.0f;
    }
    return rgba;
}

struct Frame
{
    gl::Texture texture;
    std::vector<float> stored;  ///< the texels as the texture holds them
};

Frame uploadFrame(const std::vector<float>& rgba, glm::ivec2 size, GLenum format)
{
    Frame frame{gl::Texture("test.reference-frame", format, size), std::vector<float>(rgba.size())};
    frame.texture.upload(GL_RGBA, GL_FLOAT, rgba.data());
    glGetTextureImage(frame.texture.id(), 0, GL_RGBA, GL_FLOAT, GLsizei(frame.stored.size() * sizeof(float)),
                      frame.stored.data());
    return frame;
}

gl::Buffer paramsFor(std::uint32_t bins, glm::ivec2 size, app::ReferenceChainParams& model)
{
    post::HistogramSpec spec;
    spec.binCount = bins;
    spec.luminance = {0.25f, 0.625f, 0.125f};  // not the defaults: the shaders must read the params' weights
    spec.cdPerUnit = 2.0f;
    gl::Buffer params = post::createHistogramParamsBuffer("test.reference-params");
    post::writeHistogramParams(params, kLogMin, kLogMax, spec, size);
    model.logMin = kLogMin;
    model.logMax = kLogMax;
    model.bins = bins;
    model.weights = spec.luminance;
    model.cdPerUnit = spec.cdPerUnit;
    return params;
}

std::vector<std::uint32_t> readWords(const gl::Buffer& buffer, std::size_t count, std::size_t offsetWords = 0)
{
    return buffer.readAll<std::uint32_t>(count, offsetWords * sizeof(std::uint32_t));
}

TEST_F(ReferenceChainGlTest, StagesMatchTheCpuWithinTheirTolerances)
{
    app::GlReferenceChain chain(ts::shaderLibrary());
    for (GLenum format : {GLenum(GL_RGBA16F), GLenum(GL_RGBA32F)})
        for (glm::ivec2 size : {glm::ivec2{1, 1}, glm::ivec2{37, 23}, glm::ivec2{160, 90}})
            for (std::uint32_t bins : {1u, 64u, 256u, 1000u}) {
                SCOPED_TRACE(std::string(format == GL_RGBA16F ? "rgba16f " : "rgba32f ") + std::to_string(size.x) +
                             "x" + std::to_string(size.y) + ", " + std::to_string(bins) + " bins");
                const Frame frame = uploadFrame(
                    ts::randomFrameWithSpecials(size, unsigned(size.x * 7 + bins), -11.0f, 13.0f), size, format);
                app::ReferenceChainParams model;
                const gl::Buffer params = paramsFor(bins, size, model);
                chain.prepare(size, format, bins);
                chain.copyFrame(frame.texture);
                chain.histogram(params);
                chain.curve(params);
                chain.apply(params);

                // The linear copy: the texels bit for bit (halves compared as the floats they widen to).
                const std::size_t pixels = std::size_t(size.x) * std::size_t(size.y);
                std::vector<float> linear(pixels * 4);
                if (format == GL_RGBA16F) {
                    const std::vector<std::uint16_t> halves = chain.linearFrame().readAll<std::uint16_t>(pixels * 4);
                    gl::Texture widen("test.widen", GL_RGBA16F, size);
                    widen.upload(GL_RGBA, GL_HALF_FLOAT, halves.data());
                    glGetTextureImage(widen.id(), 0, GL_RGBA, GL_FLOAT, GLsizei(linear.size() * sizeof(float)),
                                      linear.data());
                } else {
                    linear = chain.linearFrame().readAll<float>(pixels * 4);
                }
                std::size_t different = 0;
                for (std::size_t i = 0; i < linear.size(); ++i)
                    if (!(std::isnan(linear[i]) && std::isnan(frame.stored[i])) &&
                        std::memcmp(&linear[i], &frame.stored[i], sizeof(float)) != 0)
                        ++different;
                EXPECT_EQ(different, 0u) << "values of the linear copy differ from the texture's";

                // The histogram: the CPU's up to pixels near bin edges.
                const std::vector<std::uint32_t> gpuBins = readWords(chain.histogramBuffer(), bins);
                const std::vector<std::uint32_t> gpuCounters =
                    readWords(chain.histogramBuffer(), hd::kCounterCount, hd::kHistogramCountersOffset);
                const ref::Histogram cpu = ref::buildHistogram(frame.stored.data(), size.x, size.y, kLogMin, kLogMax,
                                                               bins, ref::OutOfRange::Clamp, model.weights);
                const std::vector<std::uint32_t> nearEdges =
                    ref::countNearEdges(frame.stored.data(), size.x, size.y, kLogMin, kLogMax, bins,
                                        ref::gpuBinTolerance(kLogMin, kLogMax, bins), model.weights);
                const ref::HistogramComparison comparison =
                    ref::compareHistograms(gpuBins, gpuCounters.data(), cpu, nearEdges);
                EXPECT_EQ(comparison.gpuTotal, pixels);
                EXPECT_EQ(comparison.cpuTotal, pixels);
                EXPECT_TRUE(comparison.countersEqual);
                EXPECT_TRUE(comparison.onlyNeighbourMoves) << "edge " << comparison.firstUnexplainedEdge;

                // The curve from the GPU's histogram.
                const std::vector<float> expectedCurve = app::referenceCurveCpu(gpuBins, model);
                const std::vector<float> gpuCurve = chain.curveBuffer().readAll<float>(expectedCurve.size());
                for (std::uint32_t word = 0; word < hd::kCurveHeaderWords; ++word)
                    EXPECT_EQ(gpuCurve[word], expectedCurve[word]) << "header word " << word;
                for (std::size_t i = hd::kCurveHeaderWords; i < expectedCurve.size(); ++i)
                    EXPECT_NEAR(gpuCurve[i], expectedCurve[i], 2e-5 * expectedCurve[i]) << "sample " << i;

                // The pixels from the GPU's curve: within 1 LSB per channel.
                const std::vector<std::uint32_t> display = readWords(chain.displayBuffer(), pixels);
                int worst = 0;
                std::size_t worstPixel = 0;
                std::uint32_t worstExpected = 0;
                std::size_t offPixels = 0;
                for (std::size_t p = 0; p < pixels; ++p) {
                    const std::uint32_t expected = app::referenceApplyPixelCpu(linear[4 * p], linear[4 * p + 1],
                                                                               linear[4 * p + 2], gpuCurve, model);
                    int pixelWorst = 0;
                    for (int shift = 0; shift < 32; shift += 8)
                        pixelWorst = std::max(pixelWorst, std::abs(int((display[p] >> shift) & 0xFFu) -
                                                                   int((expected >> shift) & 0xFFu)));
                    offPixels += pixelWorst > 1 ? 1 : 0;
                    if (pixelWorst > worst)
                        worst = pixelWorst, worstPixel = p, worstExpected = expected;
                }
                // What a failure needs to be understood on a device the test cannot be debugged on.
                EXPECT_LE(worst, 1) << offPixels << " of " << pixels << " pixels off; pixel " << worstPixel << ": got "
                                    << std::hex << display[worstPixel] << ", expected " << worstExpected << std::dec
                                    << " from rgb " << linear[4 * worstPixel] << ", " << linear[4 * worstPixel + 1]
                                    << ", " << linear[4 * worstPixel + 2] << "; curve log2 ["
                                    << gpuCurve[hd::kCurveLogMin] << ", " << gpuCurve[hd::kCurveLogMax] << "], "
                                    << gpuCurve[hd::kCurveSampleCount] << " samples, first "
                                    << gpuCurve[hd::kCurveHeaderWords];
            }
}

TEST_F(ReferenceChainGlTest, HistogramIsExactOnBinCentres)
{
    app::GlReferenceChain chain(ts::shaderLibrary());
    const glm::ivec2 size{41, 19};
    for (GLenum format : {GLenum(GL_RGBA16F), GLenum(GL_RGBA32F)})
        for (std::uint32_t bins : {1u, 16u, 64u, 256u}) {
            SCOPED_TRACE(std::to_string(bins) + " bins");
            const Frame frame = uploadFrame(binCentreFrame(size, bins), size, format);
            app::ReferenceChainParams model;
            const gl::Buffer params = paramsFor(bins, size, model);
            chain.prepare(size, format, bins);
            chain.copyFrame(frame.texture);
            chain.histogram(params);
            const ref::Histogram cpu = ref::buildHistogram(frame.stored.data(), size.x, size.y, kLogMin, kLogMax, bins,
                                                           ref::OutOfRange::Clamp, model.weights);
            const std::vector<std::uint32_t> gpuBins = readWords(chain.histogramBuffer(), bins);
            EXPECT_EQ(gpuBins, cpu.bins);
            const std::vector<std::uint32_t> gpuCounters =
                readWords(chain.histogramBuffer(), hd::kCounterCount, hd::kHistogramCountersOffset);
            for (std::uint32_t c = 0; c < hd::kCounterCount; ++c)
                EXPECT_EQ(gpuCounters[c], cpu.counters[c]) << "counter " << c;
        }
}

TEST_F(ReferenceChainGlTest, MedianBinAndCurveModel)
{
    EXPECT_EQ(app::referenceMedianBin({0, 0, 0}), -1);
    EXPECT_EQ(app::referenceMedianBin({1, 0, 0}), 0);
    EXPECT_EQ(app::referenceMedianBin({1, 1, 0, 0}), 0);  // half the pixels reached in bin 0
    EXPECT_EQ(app::referenceMedianBin({1, 1, 1, 0}), 1);
    EXPECT_EQ(app::referenceMedianBin({0, 0, 5, 4}), 2);
    // The median bin's centre maps to middle grey: Reinhard's 0.18 / 1.18.
    app::ReferenceChainParams params;
    params.logMin = 0.0f;
    params.logMax = 4.0f;
    params.bins = 4;
    const std::vector<float> curve = app::referenceCurveCpu({0, 3, 1, 0}, params);
    ASSERT_EQ(curve.size(), hd::kCurveHeaderWords + 4u);
    EXPECT_FLOAT_EQ(curve[hd::kCurveHeaderWords + 1], 0.18f / 1.18f);
    EXPECT_FLOAT_EQ(curve[hd::kCurveHeaderWords + 2], 0.36f / 1.36f);
    // Black for what has no luminance.
    EXPECT_EQ(app::referenceApplyPixelCpu(0.0f, 0.0f, 0.0f, curve, params), 0xFF000000u);
    EXPECT_EQ(app::referenceApplyPixelCpu(std::nanf(""), 1.0f, 1.0f, curve, params), 0xFF000000u);
}

TEST_F(ReferenceChainGlTest, TimingGivesEveryRunAndStage)
{
    app::GlReferenceChain chain(ts::shaderLibrary());
    const glm::ivec2 size{64, 36};
    const Frame frame = uploadFrame(ts::randomFrameWithSpecials(size, 5u, -11.0f, 13.0f), size, GL_RGBA16F);
    app::ReferenceChainParams model;
    const gl::Buffer params = paramsFor(256, size, model);
    chain.prepare(size, GL_RGBA16F, 256);
    std::vector<bool> timers{false};  // the GPU timers only where they measure something (not llvmpipe)
    if (ts::testGpuCaps().glTimersUseful)
        timers.push_back(true);
    for (bool gpuTimers : timers) {
        const app::ReferenceTimes times = chain.time(frame.texture, params, 3, 1, gpuTimers);
        EXPECT_EQ(times.api, "gl");
        EXPECT_EQ(times.source, gpuTimers ? "gl-timer-query" : "cpu-fallback");
        ASSERT_TRUE(times.measured());
        for (const std::vector<double>* stage :
             {&times.copyUs, &times.histogramUs, &times.curveUs, &times.applyUs, &times.chainUs}) {
            ASSERT_EQ(stage->size(), 3u);
            for (double us : *stage)
                EXPECT_TRUE(std::isfinite(us) && us >= 0.0) << us;
        }
        for (std::size_t r = 0; r < 3; ++r)
            EXPECT_NEAR(times.chainUs[r], times.histogramUs[r] + times.curveUs[r] + times.applyUs[r], 1e-6);
        EXPECT_GT(times.medianUs("chain"), 0.0);
        EXPECT_EQ(times.medianUs("scan"), 0.0);
    }
    EXPECT_THROW(chain.prepare(size, GL_RGBA8, 256), std::invalid_argument);
    EXPECT_THROW(chain.prepare(size, GL_RGBA16F, 0), std::invalid_argument);
}

}  // namespace
