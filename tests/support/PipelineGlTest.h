// PipelineGlTest.h: the fixture of the GL tests that drive a whole PostPipeline on one test image
// (the local operators, the local chain, both local exposures): a pipeline with its settings, the
// image, its texture, one frame run, --verify of it and the histogram's params; and the two-zone test
// frame they share (a dark and a bright half, 8 EV apart, with NaN/Inf/negative pixels, so tiles differ).
#pragma once

#include "post/PipelineParameters.h"
#include "post/PostPipeline.h"
#include "shared/HostDevice.h"
#include "support/GlTestEnvironment.h"
#include "support/HistogramTestSupport.h"
#include "verify/PipelineVerify.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace testing_support {

class PipelineGlTest : public GlTest
{
protected:
    void SetUp() override { makePipeline(); }
    /// A new pipeline (and settings) with the test environment's shaders, profiler and capabilities.
    void makePipeline()
    {
        parameters.reset();
        pipeline = std::make_unique<post::PostPipeline>(shaderLibrary(), testProfiler(), testGpuCaps());
        parameters = std::make_unique<post::PipelineParameters>(*pipeline);
    }
    void setImage(const TestImage& source)
    {
        image = source;
        texture = uploadImage(image);
    }
    /// One frame of 1/60 s at 60 fps.
    void run() { pipeline->run({texture, {image.width, image.height}}, 1.0 / 60.0, 60.0f); }
    verify::VerifyReport verifyRun()
    {
        run();
        return verify::verifyPipeline(*pipeline);
    }
    /// The histogram pass's params words of the last frame (range, luminance weights, bins).
    std::vector<std::uint32_t> params() const
    {
        return pipeline->paramsBuffer().readAll<std::uint32_t>(hd::kHistogramParamsWords);
    }

    std::unique_ptr<post::PostPipeline> pipeline;
    std::unique_ptr<post::PipelineParameters> parameters;
    TestImage image;
    gl::Texture texture;
};

/// Random log-uniform luminances in [logMin, logMax] EV, the right half 2^8 brighter, and special
/// pixels (NaN, Inf, negative, zero) every 97th.
inline TestImage twoZoneImage(int width, int height, std::uint32_t seed, float logMin, float logMax)
{
    TestImage image = randomHdrImage(width, height, logMin, logMax, seed);
    for (int y = 0; y < height; ++y)
        for (int x = width / 2; x < width; ++x)
            for (int c = 0; c < 3; ++c)
                image.rgba[(std::size_t(y) * std::size_t(width) + std::size_t(x)) * 4 + c] *= 256.0f;
    addSpecialPixels(image, 97);
    return image;
}

}  // namespace testing_support
