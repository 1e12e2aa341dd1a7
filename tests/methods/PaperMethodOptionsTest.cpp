// The paper methods' own options and behaviours: scatter-blend's R16F saturation, local histograms
// and "large histogram then reduce"; Green's classic (stalling) and Valve (K bins per frame) modes;
// Kubias' cumulative output against the CPU cumulative histogram; Fluck's R32F targets;
// cpu-readback's asynchronous latency; compute-subgroup's reason on llvmpipe; GL state restored by
// every raster method; zero-size input.
#include "gl/Framebuffer.h"
#include "methods/MethodTestSupport.h"
#include "post/AutoRange.h"
#include "post/histogram/HistogramComputeReplicated.h"
#include "post/histogram/HistogramComputeSubgroup.h"
#include "post/histogram/HistogramCpuReadback.h"
#include "post/histogram/HistogramFluckTiles.h"
#include "post/histogram/HistogramGreenOcclusion.h"
#include "post/histogram/HistogramKubiasDepth.h"
#include "post/histogram/HistogramScatterBlend.h"
#include "reference/Histogram.h"
#include "reference/Scan.h"
#include "support/GlTestEnvironment.h"

#include <cmath>

namespace ts = testing_support;
namespace mt = methods_test;

namespace {

constexpr float kLogMin = -6.0f;
constexpr float kLogMax = 9.0f;

float greyAtBinCentre(std::uint32_t bin, std::uint32_t bins)
{
    const double centre = kLogMin + (bin + 0.5) * (double(kLogMax) - kLogMin) / bins;
    const double weights = double(hd::kLumaR) + double(hd::kLumaG) + double(hd::kLumaB);
    return float(std::exp2(centre) / weights);
}

ts::GpuHistogram run(post::HistogramMethod& method, const ts::TestImage& image, const post::HistogramSpec& spec)
{
    gl::Texture texture = ts::uploadImage(image);
    return mt::runOnTexture(method, texture, {image.width, image.height}, kLogMin, kLogMax, spec);
}

ref::Histogram reference(const ts::TestImage& image, const post::HistogramSpec& spec)
{
    return ref::buildHistogram(image.rgba.data(), image.width, image.height, kLogMin, kLogMax, spec.binCount,
                               ts::toReference(spec.outOfRange));
}

/// 64x64 = 4096 pixels: 3000 in bin 5, the other 1096 in bin 9 (of 16).
ts::TestImage crowdedImage()
{
    ts::TestImage image = ts::binCentreImage(64, 64, kLogMin, kLogMax, 1, 0);
    for (std::size_t i = 0; i < image.pixelCount(); ++i)
        image.setGrey(i, greyAtBinCentre(i < 3000 ? 5u : 9u, 16u));
    return image;
}

/// Persistent buffers and a context for methods built more than once on the same targets.
struct Rig
{
    gl::Buffer params = post::createHistogramParamsBuffer("methods-test.rig-params");
    gl::Buffer histogram{"methods-test.rig-histogram", hd::kHistogramBufferWords * sizeof(std::uint32_t)};
    gl::Buffer cumulative{"methods-test.rig-cumulative", hd::kMaxHistogramBins * sizeof(std::uint32_t)};
    post::PassContext ctx{ts::shaderLibrary(), ts::testProfiler(), ts::testGpuCaps(), 0};

    std::vector<std::uint32_t> build(post::HistogramMethod& method,
                                     const gl::Texture& texture,
                                     glm::ivec2 size,
                                     const post::HistogramSpec& spec)
    {
        post::writeHistogramParams(params, kLogMin, kLogMax, spec, size);
        post::HistogramTargets targets{histogram, params, method.producesCumulative() ? &cumulative : nullptr};
        method.build(ctx, post::ImageInput{texture, size}, spec, targets);
        glFinish();
        return histogram.readAll<std::uint32_t>(spec.binCount);
    }
};

class PaperMethodOptions : public ts::GlTest
{
};

TEST_F(PaperMethodOptions, ScatterBlendR16FSaturatesAt2048)
{
    post::HistogramScatterBlend method;
    method.setSettings({post::ScatterFormat::R16F, 1, false});
    ts::TestImage image = crowdedImage();
    gl::Texture texture = ts::uploadImage(image);
    Rig rig;
    const post::HistogramSpec spec{16, post::OutOfRange::Clamp};
    std::vector<std::uint32_t> bins = rig.build(method, texture, {64, 64}, spec);
    EXPECT_EQ(bins[5], 2048u) << "float16 cannot represent 2049: the bin stops at 2048";
    EXPECT_EQ(bins[9], 1096u);
    std::uint64_t total = 0;
    for (std::uint32_t count : bins)
        total += count;
    EXPECT_LT(total, image.pixelCount());
    rig.build(method, texture, {64, 64}, spec);  // the status of the first build arrives without waiting
    EXPECT_NE(method.status().find("1 bins saturated"), std::string::npos) << method.status();

    // The paper's workaround: 4 local histograms (one per RGBA channel) see 750 points each.
    method.setSettings({post::ScatterFormat::R16F, 4, false});
    bins = rig.build(method, texture, {64, 64}, spec);
    EXPECT_EQ(bins[5], 3000u);
    EXPECT_EQ(bins[9], 1096u);

    // R32F (the default) is exact.
    method.setSettings({post::ScatterFormat::R32F, 1, false});
    bins = rig.build(method, texture, {64, 64}, spec);
    EXPECT_EQ(bins[5], 3000u);
}

TEST_F(PaperMethodOptions, ScatterBlendLocalHistogramsAndLargeThenReduceAreExact)
{
    post::HistogramScatterBlend method;
    for (std::uint32_t locals : {2u, 5u, 16u}) {
        for (std::uint32_t bins : {16u, 100u, 256u, 4096u}) {
            for (bool reduce : {false, true}) {
                method.setSettings({post::ScatterFormat::R32F, locals, reduce});
                const post::HistogramSpec spec{bins,
                                               bins % 2 == 0 ? post::OutOfRange::Separate : post::OutOfRange::Clamp};
                ts::TestImage image = ts::binCentreImage(257, 131, kLogMin, kLogMax, bins, locals * 31 + bins, 7);
                ts::expectHistogramsEqual(run(method, image, spec), reference(image, spec), true,
                                          "scatter L=" + std::to_string(locals) + " bins " + std::to_string(bins) +
                                              (reduce ? " reduce" : ""));
                const bool applied = bins != 100u && bins != 4096u;
                if (reduce)
                    EXPECT_EQ(method.status().find("not applied") == std::string::npos, applied) << method.status();
            }
        }
    }
}

TEST_F(PaperMethodOptions, GreenClassicModeStallsButCountsExactly)
{
    post::HistogramGreenOcclusion method;
    method.setSettings({post::GreenMode::Classic, 16});
    const post::HistogramSpec spec{64, post::OutOfRange::Separate};
    ts::TestImage image = ts::binCentreImage(45, 23, kLogMin, kLogMax, 64, 3, 5);
    ts::addSpecialPixels(image, 9);
    ts::expectHistogramsEqual(run(method, image, spec), reference(image, spec), true, "green classic");
    EXPECT_NE(method.status().find("stalled"), std::string::npos) << method.status();
}

TEST_F(PaperMethodOptions, GreenValveModeUpdatesKSlotsPerFrame)
{
    constexpr std::uint32_t kBins = 32;
    constexpr std::uint32_t kPerFrame = 8;
    const post::HistogramSpec spec{kBins, post::OutOfRange::Clamp};
    post::HistogramGreenOcclusion method;
    method.setSettings({post::GreenMode::Valve, kPerFrame});
    ts::TestImage first = ts::binCentreImage(40, 30, kLogMin, kLogMax, kBins, 1);
    ts::TestImage second = ts::binCentreImage(40, 30, kLogMin, kLogMax, kBins, 2);
    const ref::Histogram firstCpu = reference(first, spec);
    const ref::Histogram secondCpu = reference(second, spec);
    gl::Texture firstTexture = ts::uploadImage(first);
    gl::Texture secondTexture = ts::uploadImage(second);
    Rig rig;

    // A fresh configuration refreshes every slot at once.
    EXPECT_EQ(rig.build(method, firstTexture, {40, 30}, spec), firstCpu.bins);
    // Then K slots per frame, round robin from slot 0: the others keep the first image's counts.
    std::vector<std::uint32_t> mixed = rig.build(method, secondTexture, {40, 30}, spec);
    ASSERT_NE(firstCpu.bins, secondCpu.bins);
    for (std::uint32_t bin = 0; bin < kBins; ++bin)
        EXPECT_EQ(mixed[bin], bin < kPerFrame ? secondCpu.bins[bin] : firstCpu.bins[bin]) << "bin " << bin;
    EXPECT_NE(method.status().find("8 of 37 slots"), std::string::npos) << method.status();
    // (32 bins + 5 counters) / 8 per frame: every slot is fresh after 5 frames.
    std::vector<std::uint32_t> latest;
    for (int frame = 0; frame < 4; ++frame)
        latest = rig.build(method, secondTexture, {40, 30}, spec);
    EXPECT_EQ(latest, secondCpu.bins);
}

TEST_F(PaperMethodOptions, KubiasCumulativeEqualsTheCpuCumulativeHistogram)
{
    post::HistogramKubiasDepth method;
    ASSERT_TRUE(method.producesCumulative());
    for (std::uint32_t bins : {1u, 7u, 256u, 1024u}) {
        const post::HistogramSpec spec{bins, post::OutOfRange::Separate};
        ts::TestImage image = ts::binCentreImage(61, 43, kLogMin, kLogMax, bins, bins, 6);
        ts::addSpecialPixels(image, 13);
        ts::GpuHistogram gpu = run(method, image, spec);
        const ref::Histogram cpu = reference(image, spec);
        EXPECT_EQ(gpu.cumulative, ref::inclusiveScan(cpu.bins)) << "bins " << bins;
        ts::expectHistogramsEqual(gpu, cpu, true, "kubias bins " + std::to_string(bins));
    }
}

TEST_F(PaperMethodOptions, FluckFloatTargetsAreExactAndTileSidesCoverTheBins)
{
    for (std::uint32_t bins : {1u, 2u, 4u, 5u, 100u, 256u, 1000u, 4096u}) {
        const int side = post::HistogramFluckTiles::tileSideFor(bins);
        EXPECT_GE(std::uint32_t(side * side), bins);
        EXPECT_LT(std::uint32_t((side - 1) * (side - 1)), bins);
    }
    post::HistogramFluckTiles method;
    method.setSettings({post::FluckFormat::R32F});
    for (glm::ivec2 size : {glm::ivec2(1, 1), glm::ivec2(70, 3), glm::ivec2(129, 65)}) {
        const post::HistogramSpec spec{64, post::OutOfRange::Clamp};
        ts::TestImage image = ts::binCentreImage(size.x, size.y, kLogMin, kLogMax, 64, 9, 4);
        ts::expectHistogramsEqual(run(method, image, spec), reference(image, spec), true, "fluck R32F");
    }
    EXPECT_NE(method.status().find("R32F"), std::string::npos);
}

TEST_F(PaperMethodOptions, CpuReadbackIsAsynchronousByDefault)
{
    post::HistogramCpuReadback method;
    ASSERT_FALSE(method.synchronous());
    const post::HistogramSpec spec{64, post::OutOfRange::Clamp};
    ts::TestImage image = ts::binCentreImage(33, 21, kLogMin, kLogMax, 64, 4);
    const ref::Histogram cpu = reference(image, spec);
    gl::Texture texture = ts::uploadImage(image);
    Rig rig;
    // The first frame has no result yet: zeros, never a wait.
    std::vector<std::uint32_t> first = rig.build(method, texture, {33, 21}, spec);
    EXPECT_EQ(first, std::vector<std::uint32_t>(64, 0u));
    EXPECT_EQ(method.status(), "waiting for the first readback");
    // rig.build() ends with glFinish, so the readback has arrived by the next frame.
    EXPECT_EQ(rig.build(method, texture, {33, 21}, spec), cpu.bins);
    EXPECT_NE(method.status().find("latency 1 frames"), std::string::npos) << method.status();
}

TEST_F(PaperMethodOptions, ComputeReplicatedPicksCopiesThatFitSharedMemory)
{
    EXPECT_EQ(post::HistogramComputeReplicated::replicasFor(256, 8184), 16u);
    EXPECT_EQ(post::HistogramComputeReplicated::replicasFor(1024, 8184), 7u);
    EXPECT_EQ(post::HistogramComputeReplicated::replicasFor(4096, 8184), 1u);
}

TEST_F(PaperMethodOptions, ComputeSubgroupSaysWhyNotOnLlvmpipe)
{
    post::HistogramComputeSubgroup method;
    const post::GpuCaps& caps = ts::testGpuCaps();
    post::Availability availability = method.availability(caps);
    if (caps.gl.hasExtension("GL_KHR_shader_subgroup"))
        GTEST_SKIP() << "subgroups present here (" << caps.gl.renderer << "): covered by the registry tests";
    EXPECT_FALSE(availability.available);
    EXPECT_NE(availability.reason.find("GL_KHR_shader_subgroup not supported by"), std::string::npos)
        << availability.reason;
}

struct RasterState
{
    GLint framebuffer = 0;
    GLint viewport[4] = {};
    GLboolean blend = GL_FALSE;
    GLint blendSrc = 0;
    GLboolean depthTest = GL_FALSE;
    GLint depthFunc = 0;
    GLboolean depthMask = GL_FALSE;
    GLboolean colorMask[4] = {};
    GLint pixelPackBuffer = 0;

    static RasterState capture()
    {
        RasterState s;
        glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &s.framebuffer);
        glGetIntegerv(GL_VIEWPORT, s.viewport);
        s.blend = glIsEnabled(GL_BLEND);
        glGetIntegerv(GL_BLEND_SRC_RGB, &s.blendSrc);
        s.depthTest = glIsEnabled(GL_DEPTH_TEST);
        glGetIntegerv(GL_DEPTH_FUNC, &s.depthFunc);
        glGetBooleanv(GL_DEPTH_WRITEMASK, &s.depthMask);
        glGetBooleanv(GL_COLOR_WRITEMASK, s.colorMask);
        glGetIntegerv(GL_PIXEL_PACK_BUFFER_BINDING, &s.pixelPackBuffer);
        return s;
    }
    bool operator==(const RasterState& o) const
    {
        return framebuffer == o.framebuffer && std::equal(viewport, viewport + 4, o.viewport) && blend == o.blend &&
               blendSrc == o.blendSrc && depthTest == o.depthTest && depthFunc == o.depthFunc &&
               depthMask == o.depthMask && std::equal(colorMask, colorMask + 4, o.colorMask) &&
               pixelPackBuffer == o.pixelPackBuffer;
    }
};

TEST_F(PaperMethodOptions, RasterMethodsRestoreTheGlStateTheyChange)
{
    gl::Texture colour("methods-test.state-colour", GL_RGBA8, {8, 8});
    gl::Framebuffer framebuffer("methods-test.state-framebuffer");
    framebuffer.attachTexture(GL_COLOR_ATTACHMENT0, colour);
    framebuffer.bind();
    glViewport(3, 4, 5, 6);
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_GREATER);
    glDepthMask(GL_FALSE);
    glColorMask(GL_TRUE, GL_FALSE, GL_TRUE, GL_FALSE);
    const RasterState before = RasterState::capture();

    ts::TestImage image = ts::binCentreImage(19, 11, kLogMin, kLogMax, 16, 8);
    const post::HistogramSpec spec{16, post::OutOfRange::Clamp};
    for (const post::HistogramMethodEntry& entry : post::histogramMethodRegistry()) {
        std::unique_ptr<post::HistogramMethod> method = mt::createForTest(std::string(entry.id));
        if (method->backend() == post::Backend::Cuda || !method->availability(ts::testGpuCaps()).available ||
            method->needsFusedProducer())
            continue;
        ts::GpuHistogram gpu = run(*method, image, spec);
        EXPECT_EQ(gpu.bins, reference(image, spec).bins) << entry.id << " under unusual GL state";
        EXPECT_TRUE(RasterState::capture() == before) << entry.id << " left GL state changed";
    }
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glViewport(0, 0, 1, 1);
    glDisable(GL_BLEND);
    glBlendFunc(GL_ONE, GL_ZERO);
    glDisable(GL_DEPTH_TEST);
    glDepthFunc(GL_LESS);
    glDepthMask(GL_TRUE);
    glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
}

TEST_F(PaperMethodOptions, ZeroSizeInputGivesAnEmptyHistogram)
{
    gl::Texture texture("methods-test.zero", GL_RGBA32F, {1, 1});
    const post::HistogramSpec spec{32, post::OutOfRange::Separate};
    for (const post::HistogramMethodEntry& entry : post::histogramMethodRegistry()) {
        std::unique_ptr<post::HistogramMethod> method = mt::createForTest(std::string(entry.id));
        if (method->backend() == post::Backend::Cuda || !method->availability(ts::testGpuCaps()).available ||
            method->needsFusedProducer())
            continue;
        ts::GpuHistogram gpu = mt::runOnTexture(*method, texture, {0, 0}, kLogMin, kLogMax, spec);
        EXPECT_EQ(gpu.bins, std::vector<std::uint32_t>(32, 0u)) << entry.id;
        if (method->fillsCounters())
            for (std::uint32_t counter : gpu.counters)
                EXPECT_EQ(counter, 0u) << entry.id;
    }
}

}  // namespace
