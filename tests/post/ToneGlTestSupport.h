// ToneGlTestSupport.h: a small rig for the tone-operator GL tests: the pipeline-owned buffers
// (histogram, CDF, params, curve) filled directly from a prepared histogram, an image texture, and
// a histogram "method" that writes a prepared histogram (to feed Ward a known histogram).
#pragma once

#include "gl/Buffer.h"
#include "gl/Texture.h"
#include "post/AutoRange.h"
#include "post/histogram/HistogramMethod.h"
#include "post/scan/ScanMethod.h"
#include "post/tonemap/ToneOperator.h"
#include "shared/HostDevice.h"
#include "support/GlTestEnvironment.h"
#include "support/HistogramTestSupport.h"

#include <cstring>
#include <vector>

namespace tone_test {

/// Ignores the image and writes `bins` (counters zero) into the histogram it is given.
class PreparedHistogram final : public post::HistogramMethod
{
public:
    std::vector<std::uint32_t> bins;

    std::string_view id() const override { return "test-prepared"; }
    std::string_view label() const override { return "prepared histogram (tests)"; }
    std::string_view description() const override { return "writes a prepared histogram"; }
    void build(post::PassContext&,
               const post::ImageInput&,
               const post::HistogramSpec&,
               const post::HistogramTargets& targets) override
    {
        std::vector<std::uint32_t> words(hd::kHistogramBufferWords, 0u);
        std::copy(bins.begin(), bins.end(), words.begin());
        targets.histogram.update(0, words.size() * sizeof(std::uint32_t), words.data());
    }
};

inline std::uint32_t floatBits(float value)
{
    std::uint32_t bits = 0;
    std::memcpy(&bits, &value, sizeof(bits));
    return bits;
}

struct ToneRig
{
    gl::Buffer histogram{"test.tone.histogram", hd::kHistogramBufferWords * sizeof(std::uint32_t)};
    gl::Buffer cdf{"test.tone.cdf", hd::kMaxHistogramBins * sizeof(std::uint32_t)};
    gl::Buffer params{"test.tone.params", hd::kHistogramParamsWords * sizeof(std::uint32_t)};
    gl::Buffer curve{"test.tone.curve", hd::kCurveBufferWords * sizeof(float)};
    gl::Texture image;
    glm::ivec2 size{0};
    post::HistogramSpec spec;

    void setImage(const testing_support::TestImage& picture)
    {
        image = testing_support::uploadImage(picture, "test.tone.image");
        size = {picture.width, picture.height};
    }

    /// Writes bins, their inclusive CDF and the params (range, bin count) straight into the buffers.
    void setHistogram(const std::vector<std::uint32_t>& bins, float logMin, float logMax)
    {
        std::vector<std::uint32_t> words(hd::kHistogramBufferWords, 0u);
        std::vector<std::uint32_t> cumulative(hd::kMaxHistogramBins, 0u);
        std::uint32_t running = 0;
        for (std::size_t i = 0; i < bins.size(); ++i) {
            words[i] = bins[i];
            cumulative[i] = running += bins[i];
        }
        histogram.update(0, words.size() * sizeof(std::uint32_t), words.data());
        cdf.update(0, cumulative.size() * sizeof(std::uint32_t), cumulative.data());
        spec.binCount = std::uint32_t(bins.size());
        post::writeHistogramParams(params, logMin, logMax, spec, size);  // clamp policy, default luminance
    }

    std::vector<float> run(post::ToneOperator& op,
                           post::HistogramMethod& method,
                           double dt = 1.0 / 60.0,
                           float fovY = 60.0f,
                           post::ScanMethod* scan = nullptr)
    {
        post::PassContext ctx{testing_support::shaderLibrary(), testing_support::testProfiler(),
                              testing_support::testGpuCaps(), 0};
        const post::ImageInput input{image, size};
        post::ToneInputs inputs{input, input, histogram, cdf, params, spec, dt, fovY, method, scan};
        op.computeCurve(ctx, inputs, curve);
        op.flushStateReadback();  // as the pipeline does after the frame's passes
        return curve.readAll<float>(hd::kCurveBufferWords);
    }
};

inline float lut(const std::vector<float>& words, std::uint32_t channel, std::uint32_t i)
{
    return words[hd::kCurveHeaderWords + channel * hd::kMaxCurveSamples + i];
}

}  // namespace tone_test
