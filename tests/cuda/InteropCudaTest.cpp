// CUDA-GL interop: the CUDA methods as the pipeline runs them (GL texture and buffers registered,
// mapped in one call, unmapped), the probe, the CUDA scan methods on GL buffers, the local
// adaptation buffer, and the CUDA-event timer backend. Uses the headless GL context, created only
// after a CUDA device was found.
#include "cuda/CudaEventTimer.h"
#include "cuda/CudaRaii.h"
#include "cuda/CudaTestSupport.h"
#include "cuda/GlInterop.h"
#include "cuda/LocalAdaptation.h"
#include "post/AutoRange.h"
#include "post/CudaProbe.h"
#include "post/LuminanceUnits.h"
#include "post/PostPipeline.h"
#include "post/histogram/HistogramMethod.h"
#include "post/scan/ScanMethod.h"
#include "post/tonemap/TonePercentile.h"
#include "reference/Histogram.h"
#include "reference/Image.h"
#include "reference/IntegralImage.h"
#include "reference/Scan.h"
#include "support/GlTestEnvironment.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <random>
#include <thread>

namespace {

/// The test context's caps with the CUDA probe run (testGpuCaps() leaves CUDA off).
const post::GpuCaps& interopCaps()
{
    static const post::GpuCaps caps = [] {
        post::GpuCaps probed = testing_support::testGpuCaps();
        cuda::probeCudaForGl(probed);
        return probed;
    }();
    return caps;
}

#define REQUIRE_CUDA_INTEROP()                                                           \
    do {                                                                                 \
        REQUIRE_CUDA_DEVICE();                                                           \
        if (!interopCaps().cudaAvailable)                                                \
            GTEST_SKIP() << "CUDA-GL interop unavailable: " << interopCaps().cudaReason; \
    } while (0)

TEST(CudaInterop, ProbeAcceptsAnNvidiaGlContext)
{
    REQUIRE_CUDA_DEVICE();
    const post::GpuCaps& caps = interopCaps();
    if (!caps.gl.isNvidia())
        GTEST_SKIP() << "GL runs on " << caps.gl.renderer << ": " << caps.cudaReason;
    EXPECT_TRUE(caps.cudaAvailable) << caps.cudaReason;
}

TEST(CudaRaii, DeviceAllocationsAreCountedWhileAlive)
{
    REQUIRE_CUDA_DEVICE();
    const std::optional<int> before = cuda::liveDeviceAllocations();
    ASSERT_TRUE(before.has_value()) << "a CUDA build reports its allocations";
    {
        cuda::DeviceBuffer<std::uint32_t> buffer(64);
        cuda::DeviceBuffer<std::uint32_t> moved = std::move(buffer);
        moved.resize(128);  // freed and allocated again: still one
        const cudaChannelFormatDesc format = cudaCreateChannelDesc(32, 32, 32, 32, cudaChannelFormatKindFloat);
        cuda::CudaArray array(format, 4, 4);
        EXPECT_EQ(cuda::liveDeviceAllocations(), *before + 2);
        moved.resize(0);
        EXPECT_EQ(cuda::liveDeviceAllocations(), *before + 1);
    }
    EXPECT_EQ(cuda::liveDeviceAllocations(), *before);
}

class CudaHistogramMethodInterop : public ::testing::TestWithParam<std::string>
{
};

TEST_P(CudaHistogramMethodInterop, MatchesTheReferenceThroughGl)
{
    REQUIRE_CUDA_INTEROP();
    auto method = post::createHistogramMethod(GetParam());
    ASSERT_TRUE(method);
    ASSERT_TRUE(method->availability(interopCaps()).available);
    ASSERT_NE(method->timerBackend(), nullptr);
    for (unsigned bins : {1u, 100u, 4096u}) {
        for (post::OutOfRange policy : {post::OutOfRange::Clamp, post::OutOfRange::Separate}) {
            testing_support::TestImage image = testing_support::binCentreImage(257, 131, -10.0f, 20.0f, bins, bins, 9);
            testing_support::addSpecialPixels(image, 13);
            post::HistogramSpec spec;
            spec.binCount = bins;
            spec.outOfRange = policy;
            // Twice: the second run reuses the registrations and must give the same result.
            for (int run = 0; run < 2; ++run) {
                const auto gpu = testing_support::runHistogramMethod(*method, image, -10.0f, 20.0f, spec);
                const auto cpu = ref::buildHistogram(image.rgba.data(), image.width, image.height, -10.0f, 20.0f, bins,
                                                     testing_support::toReference(policy));
                testing_support::expectHistogramsEqual(
                    gpu, cpu, true, GetParam() + " " + std::to_string(bins) + " bins, run " + std::to_string(run));
                if (method->producesCumulative())
                    EXPECT_EQ(gpu.cumulative.size(), bins);
            }
        }
    }
}

// The pre-exposed frame (the app's default, scene/PreExposure.h): the scene times 2^k stored in
// RGBA16F (and RGBA32F), the params' weights times 2^-k. Each CUDA method bins the stored values under
// those weights exactly as the CPU reference does, which is the unexposed frame's histogram (bin
// centres, and pixels 1.5 EV outside the range, placed so that times 2^k they stay normal halves).
TEST_P(CudaHistogramMethodInterop, BinsAPreExposedFrameWithTheWeightsTimesTwoToTheMinusK)
{
    REQUIRE_CUDA_INTEROP();
    auto method = post::createHistogramMethod(GetParam());
    ASSERT_TRUE(method);
    for (const int k : {-17, -3, 4}) {
        const float logMin = k == -17 ? 5.0f : -6.0f;   // 2^3.5 x 2^-17 is above half's 2^-14
        const float logMax = k == -17 ? 28.0f : 10.0f;  // 2^11.5 x 2^4 is below 65504
        for (const GLenum format : {GLenum(GL_RGBA16F), GLenum(GL_RGBA32F)}) {
            for (const unsigned bins : {64u, 256u}) {
                const std::string what = GetParam() + ", k " + std::to_string(k) +
                                         (format == GL_RGBA16F ? ", RGBA16F, " : ", RGBA32F, ") + std::to_string(bins) +
                                         " bins";
                testing_support::TestImage unexposed =
                    testing_support::binCentreImage(203, 97, logMin, logMax, bins, bins, 5);
                testing_support::addSpecialPixels(unexposed, 11);
                testing_support::TestImage exposed = unexposed;
                for (float& v : exposed.rgba)
                    v = std::ldexp(v, k);  // NaN and infinities stay; -1 stays negative
                gl::Texture texture("test.cuda.pre-exposed", format, {exposed.width, exposed.height});
                texture.upload(GL_RGBA, GL_FLOAT, exposed.rgba.data());
                const std::vector<float> stored = texture.readRgbaFloat();
                post::LuminanceUnits units;
                units.preExposure = k;
                post::HistogramSpec spec{bins, post::OutOfRange::Separate};
                spec.luminance = units.effectiveWeights();
                spec.cdPerUnit = float(units.cdPerUnit());
                spec.storedScale = units.storedScale();
                const auto gpu = testing_support::runHistogramMethodOnTexture(
                    *method, texture, {exposed.width, exposed.height}, logMin, logMax, spec);
                const auto onStored = ref::buildHistogram(stored.data(), exposed.width, exposed.height, logMin, logMax,
                                                          bins, ref::OutOfRange::Separate, spec.luminance);
                testing_support::expectHistogramsEqual(gpu, onStored, true, what + " (stored values)");
                const auto truth = ref::buildHistogram(unexposed.rgba.data(), unexposed.width, unexposed.height, logMin,
                                                       logMax, bins, ref::OutOfRange::Separate);
                EXPECT_EQ(onStored.bins, truth.bins) << what << ": the stored frame's bins are the scene's";
                EXPECT_GT(std::count_if(truth.bins.begin(), truth.bins.end(), [](auto n) { return n > 0; }),
                          int(bins / 2))
                    << what << ": the frame must fill the bins for the test to mean anything";
            }
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Methods,
                         CudaHistogramMethodInterop,
                         ::testing::Values("cuda-bugetti", "cuda-fast", "cuda-cub"),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                             std::string name = info.param;
                             for (char& c : name)
                                 if (c == '-')
                                     c = '_';
                             return name;
                         });

TEST(CudaInterop, ScanMethodsOnGlBuffers)
{
    REQUIRE_CUDA_INTEROP();
    std::mt19937 random(4);
    std::uniform_int_distribution<std::uint32_t> pick(0, 100000);
    for (const char* id : {"cuda-kogge-stone", "cuda-kogge-stone-db", "cuda-brent-kung", "cuda-blelloch",
                           "cuda-warp-shuffle", "cuda-cub"}) {
        auto method = post::createScanMethod(id);
        ASSERT_TRUE(method) << id;
        ASSERT_TRUE(method->availability(interopCaps()).available) << id;
        for (std::uint32_t count : {1u, 255u, 4096u}) {
            std::vector<std::uint32_t> values(count);
            for (auto& value : values)
                value = pick(random);
            gl::Buffer input = gl::Buffer::fromSpan<std::uint32_t>("test.scan.in", values);
            gl::Buffer output("test.scan.out", hd::kMaxHistogramBins * sizeof(std::uint32_t));
            output.clearUint(0xDEADBEEFu);
            post::PassContext ctx{testing_support::shaderLibrary(), testing_support::testProfiler(), interopCaps(), 0};
            // The app registers the histogram buffer in the histogram method and again as the scan's
            // input: a second registration of the same GL buffer must work.
            cuda::GlRegistration other;
            other.track(input, cuda::GlRegistration::Access::ReadWrite);
            method->inclusiveScan(ctx, input, output, count);
            EXPECT_EQ(output.readAll<std::uint32_t>(count), ref::inclusiveScan(values)) << id << " " << count;
            // In place (input and output the same GL buffer).
            method->inclusiveScan(ctx, input, input, count);
            EXPECT_EQ(input.readAll<std::uint32_t>(count), ref::inclusiveScan(values)) << id << " in place " << count;
            // Recreated buffers reuse GL names: results must land in the new ones.
        }
    }
}

TEST(CudaInterop, ManyRegistrationsOfOneObjectKeepItsLabelWithinTheLimit)
{
    // Each registration tags the object's label; bench pipeline's sweep registers the same frame and
    // buffers hundreds of times. The label must stay under GL_MAX_LABEL_LENGTH (a GL error otherwise)
    // and the newest registrations must still recognise their object.
    REQUIRE_CUDA_INTEROP();
    gl::Buffer buffer("test.interop.relabelled-buffer-with-a-long-label", 1024);
    GLint maxLength = 0;
    glGetIntegerv(GL_MAX_LABEL_LENGTH, &maxLength);
    ASSERT_GT(maxLength, 0);
    while (glGetError() != GL_NO_ERROR) {
    }
    std::vector<cuda::GlRegistration> alive(2);
    for (int round = 0; round < 200; ++round) {
        cuda::GlRegistration& registration = alive[std::size_t(round % 2)];
        registration = cuda::GlRegistration();
        registration.track(buffer, cuda::GlRegistration::Access::ReadWrite);
        ASSERT_EQ(glGetError(), GLenum(GL_NO_ERROR)) << "registration " << round;
    }
    char text[1024];
    GLsizei length = 0;
    glGetObjectLabel(GL_BUFFER, buffer.id(), GLsizei(sizeof(text)), &length, text);
    EXPECT_LT(length, maxLength);
    EXPECT_NE(std::string(text, std::size_t(length)).find("[cuda "), std::string::npos);
    // Only the oldest tags were dropped: both live registrations still know their buffer.
    for (cuda::GlRegistration& registration : alive)
        EXPECT_FALSE(registration.track(buffer, cuda::GlRegistration::Access::ReadWrite));
    EXPECT_EQ(glGetError(), GLenum(GL_NO_ERROR));
}

TEST(CudaInterop, LocalAdaptationIsTheWindowMeanOfClampedLogLuminance)
{
    REQUIRE_CUDA_INTEROP();
    const int width = 203, height = 77, radius = 6;
    const float logMin = -6.0f, logMax = 10.0f;
    testing_support::TestImage image = testing_support::randomHdrImage(width, height, logMin - 2.0f, logMax + 2.0f, 17);
    testing_support::addSpecialPixels(image, 29);
    gl::Texture texture = testing_support::uploadImage(image);
    gl::Buffer params = post::createHistogramParamsBuffer("test.params");
    post::HistogramSpec spec;
    post::writeHistogramParams(params, logMin, logMax, spec, {width, height});
    gl::Buffer output("test.local", cuda::LocalAdaptation::outputBytes({width, height}));
    cuda::LocalAdaptation adaptation;
    adaptation.run(texture, {width, height}, params, output, radius);
    const auto got = output.readAll<float>(std::size_t(width) * height);

    std::vector<double> logs(std::size_t(width) * height);
    for (std::size_t i = 0; i < logs.size(); ++i) {
        const float* p = &image.rgba[i * 4];
        const float luminance = hd::hdLuminance(p[0], p[1], p[2]);
        double value;
        if (std::isnan(luminance) || luminance <= 0.0f)
            value = logMin;
        else if (std::isinf(luminance))
            value = logMax;
        else
            value = std::clamp(double(std::log2(luminance)), double(logMin), double(logMax));
        logs[i] = value;
    }
    const auto sat = ref::integralImage<double>(logs.data(), width, height, ref::IntegralKind::Inclusive);
    std::size_t bad = 0;
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            const int x0 = std::max(0, x - radius), x1 = std::min(width, x + radius + 1);
            const int y0 = std::max(0, y - radius), y1 = std::min(height, y + radius + 1);
            const double mean = ref::boxSum(sat, width, x0, y0, x1, y1) / double((x1 - x0) * (y1 - y0));
            const float value = got[std::size_t(y) * width + std::size_t(x)];
            if (std::abs(double(value) - mean) > 1e-4 && bad++ < 3)
                ADD_FAILURE() << "(" << x << ", " << y << "): gpu " << value << " cpu " << mean;
        }
    EXPECT_EQ(bad, 0u);
}

TEST(CudaInterop, PipelineAppliesPercentileLocalAdaptationFromTheSummedAreaTable)
{
    REQUIRE_CUDA_INTEROP();
    const int width = 160, height = 90, radius = 5;
    testing_support::TestImage image = testing_support::randomHdrImage(width, height, -6.0f, 14.0f, 33);
    gl::Texture texture = testing_support::uploadImage(image);
    post::PostPipeline pipeline(testing_support::shaderLibrary(), testing_support::testProfiler(), interopCaps());
    post::PipelineSettings settings = pipeline.settings();
    settings.toneOperator = "percentile";
    settings.logMin = -8.0f;
    settings.logMax = 16.0f;
    std::string message;
    ASSERT_TRUE(pipeline.applySettings(settings, &message) || message.empty()) << message;
    auto& percentile = dynamic_cast<post::TonePercentile&>(pipeline.toneOperator());
    post::PercentileSettings local = percentile.settings();
    local.localAdaptation = true;
    local.localBlend = 0.6f;
    local.localRadius = radius;
    percentile.setSettings(local);

    pipeline.run({texture, {width, height}}, 1.0 / 60.0, 60.0f);  // learns that CUDA is available
    ASSERT_EQ(percentile.localAdaptationRadius(), radius);
    const gl::Texture& display = pipeline.run({texture, {width, height}}, 1.0 / 60.0, 60.0f);
    const std::vector<unsigned char> actual = display.readRgba8();
    const std::vector<float> curve = pipeline.curveBuffer().readAll<float>(hd::kCurveBufferWords);
    EXPECT_FLOAT_EQ(curve[hd::kCurveLocalBlend], 0.6f);
    const std::vector<float> mean = ref::localMeanLog2(image.rgba.data(), width, height, radius, -8.0f, 16.0f);
    const std::vector<std::uint8_t> expected =
        ref::applyCurve(image.rgba.data(), width, height, curve.data(), mean.data());
    std::size_t off = 0;
    for (std::size_t i = 0; i < actual.size(); ++i)
        if (std::abs(int(actual[i]) - int(expected[i])) > 1)
            ++off;
    EXPECT_LE(off, actual.size() / 1000) << "bytes more than 1 LSB from the CPU reference";
    EXPECT_NE(expected, ref::applyCurve(image.rgba.data(), width, height, curve.data()));
}

TEST(CudaEventTimer, MeasuresWithoutWaitingAndRecyclesSlots)
{
    REQUIRE_CUDA_DEVICE();
    cuda::CudaContext& context = cuda::CudaContext::instance();
    cuda::CudaEventTimer timer(context.stream(), 4);
    const int token = timer.begin();
    ASSERT_GE(token, 0);
    cuda::DeviceBuffer<std::uint32_t> data(1 << 22);
    CUDA_CHECK(cudaMemsetAsync(data.data(), 0, data.bytes(), context.stream()));
    timer.end(token);
    std::optional<double> ms;
    for (int attempt = 0; attempt < 2000 && !ms; ++attempt) {
        ms = timer.tryElapsedMs(token);
        if (!ms)
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    ASSERT_TRUE(ms.has_value());
    EXPECT_GE(*ms, 0.0);
    EXPECT_EQ(timer.slotsInUse(), 1);
    timer.release(token);
    EXPECT_EQ(timer.slotsInUse(), 0);
    int tokens[5];
    for (int& t : tokens)
        t = timer.begin();
    EXPECT_EQ(tokens[4], -1) << "a full ring hands out no token";
    EXPECT_FALSE(timer.tryElapsedMs(-1).has_value());
    for (int t : tokens)
        if (t >= 0) {
            timer.end(t);
            timer.release(t);
        }
}

}  // namespace
