// HistogramTestSupport.h: image generators, GPU runners and comparisons shared by the histogram,
// scan and pipeline tests (and reused by the methods' own tests).
//
// Binning is bit-exact on every device (shared/HostDevice.h), so GPU histograms are compared for
// equality, also on random HDR images; bin-centre images keep the exact-count tests readable.
// expectHistogramsClose ("moves only between neighbouring bins", ref::compareHistograms) remains for
// method options that trade exactness for speed (cuda-fast's hardware log2).
#pragma once

#include "gl/Buffer.h"
#include "gl/Texture.h"
#include "post/PostTypes.h"
#include "post/histogram/HistogramMethod.h"
#include "profiling/Profiler.h"
#include "reference/Histogram.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace testing_support {

struct TestImage
{
    int width = 0;
    int height = 0;
    std::vector<float> rgba;  ///< width * height * 4

    std::size_t pixelCount() const { return std::size_t(width) * std::size_t(height); }
    void setGrey(std::size_t pixel, float value);
    void setRgb(std::size_t pixel, float r, float g, float b);
};

/// Grey pixels whose log2 luminance is the centre of a pseudo-random bin of [logMin, logMax].
/// With `outOfRangeEvery` > 0, every n-th pixel lies 1.5 EV below or above the range instead.
TestImage binCentreImage(int width,
                         int height,
                         float logMin,
                         float logMax,
                         std::uint32_t bins,
                         std::uint32_t seed,
                         int outOfRangeEvery = 0);
/// Coloured pixels, log-uniform luminance over [logMin, logMax].
TestImage randomHdrImage(int width, int height, float logMin, float logMax, std::uint32_t seed);
/// RGBA floats of a frame: each pixel a colour (base, 0.7 base, 1.3 base) with log2 base uniform over
/// [evMin, evMax], and about one in 50 replaced by NaN, +Inf, negative or zero values.
std::vector<float> randomFrameWithSpecials(glm::ivec2 size, unsigned seed, float evMin, float evMax);
/// Overwrites pixels at fixed positions with NaN, +Inf, -Inf, negative and zero values (in that
/// cycle, every `every`-th pixel) and returns how many of each were written.
struct SpecialCounts
{
    std::uint64_t nan = 0, inf = 0, nonPositive = 0;
};
SpecialCounts addSpecialPixels(TestImage& image, int every);

/// An RGBA32F texture holding the image.
gl::Texture uploadImage(const TestImage& image, const char* label = "test.image");

/// The GpuCaps of the test context.
const post::GpuCaps& testGpuCaps();
/// A profiler for PassContexts in tests (GL timers off).
profiling::Profiler& testProfiler();

/// What a histogram method produced for one image.
struct GpuHistogram
{
    std::vector<std::uint32_t> bins;
    std::array<std::uint32_t, hd::kCounterCount> counters{};
    std::vector<std::uint32_t> cumulative;  ///< only when the method produces it
};

/// Builds `method`'s histogram of an uploaded texture (buffers pre-filled with garbage, so a method
/// must clear what it writes) and reads bins, counters and the cumulative output back.
/// With `foveal`, the method is also offered that foveal target.
GpuHistogram runHistogramMethodOnTexture(post::HistogramMethod& method,
                                         const gl::Texture& texture,
                                         glm::ivec2 size,
                                         float logMin,
                                         float logMax,
                                         const post::HistogramSpec& spec,
                                         post::FovealTarget* foveal = nullptr);

/// Runs `method` on `image` with range [logMin, logMax] and `spec` (params, buffers made here).
GpuHistogram runHistogramMethod(post::HistogramMethod& method,
                                const TestImage& image,
                                float logMin,
                                float logMax,
                                const post::HistogramSpec& spec,
                                post::FovealTarget* foveal = nullptr);

ref::OutOfRange toReference(post::OutOfRange policy);

/// Every histogram method of the registry that can run here and is an OpenGL method; prints the
/// skipped ones (with the reason) once.
std::vector<std::string> availableGlHistogramMethodIds();
/// All registry ids (for value-parameterised tests; unavailable ones skip inside the test).
std::vector<std::string> allHistogramMethodIds();

/// Expects identical bins (and counters when `countersToo`), with a readable first difference.
void expectHistogramsEqual(const GpuHistogram& gpu,
                           const ref::Histogram& cpu,
                           bool countersToo,
                           const std::string& what);
/// Expects equal totals, equal NaN/Inf/<=0 counters (when `countersToo`) and only neighbouring-bin
/// moves explained by pixels near bin edges.
void expectHistogramsClose(const GpuHistogram& gpu,
                           const TestImage& image,
                           float logMin,
                           float logMax,
                           const post::HistogramSpec& spec,
                           bool countersToo,
                           const std::string& what);

}  // namespace testing_support
