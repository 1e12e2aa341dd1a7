// Bilateral local exposure (Unreal Engine 5's "Bilateral"; post/localexposure, docs/TONE_OPERATORS.md
// "Local exposure"): the grid word for word against the CPU reference at awkward sizes, built in the
// histogram pass and in its own pass; the blur within its tolerance; --verify (grid, blur, picture
// <= 1 LSB) for every global operator, both structures, SDR and HDR10; the four views against the
// reference; off gives today's picture bit for bit; the step-edge halo within its documented bound;
// the probe's terms; the settings keys and the unreal preset.
#include "post/PipelineParameters.h"
#include "post/PostPipeline.h"
#include "post/TonemapApply.h"
#include "post/localexposure/BilateralLocalExposure.h"
#include "reference/LocalExposureRef.h"
#include "shared/LocalExposure.h"
#include "support/HistogramTestSupport.h"
#include "support/PipelineGlTest.h"
#include "verify/LocalExposureVerify.h"
#include "verify/PipelineVerify.h"

#include <bit>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>

namespace ts = testing_support;

namespace {

class LocalExposureGl : public ts::PipelineGlTest
{
protected:
    ref::LocalExposureGrid cpuGrid() const
    {
        const auto p = params();
        return ref::localExposureGrid(
            image.rgba.data(), image.width, image.height, std::bit_cast<float>(p[hd::kParamLogMin]),
            std::bit_cast<float>(p[hd::kParamLogMax]),
            {std::bit_cast<float>(p[hd::kParamLumaR]), std::bit_cast<float>(p[hd::kParamLumaG]),
             std::bit_cast<float>(p[hd::kParamLumaB])});
    }
};

ts::TestImage twoZoneImage(int width, int height, std::uint32_t seed)
{
    return ts::twoZoneImage(width, height, seed, -6.0f, 4.0f);
}

TEST_F(LocalExposureGl, GridIsTheCpuGridWordForWordInBothStructures)
{
    // The histogram pass's blocks are 32x32: 61x37 and 301x263 end mid-block and mid-tile; 1x1 and 3x2
    // are one partial tile; 64x64 and 65x129 sit on and just past tile edges.
    const std::pair<int, int> sizes[] = {{1, 1}, {3, 2}, {61, 37}, {64, 64}, {65, 129}, {301, 263}};
    parameters->set("tonemap.operator", "percentile");  // ward's foveal pass cannot build the grid
    parameters->set("local_exposure.method", "bilateral");
    for (const auto& [w, h] : sizes)
        for (const char* structure : {"fused", "separate"}) {
            SCOPED_TRACE(std::to_string(w) + "x" + std::to_string(h) + " " + structure);
            setImage(twoZoneImage(w, h, std::uint32_t(w * 5 + h)));
            parameters->set("local_exposure.structure", structure);
            run();
            const post::BilateralLocalExposure& le = pipeline->localExposure();
            EXPECT_EQ(le.lastFused(), std::string(structure) == "fused");
            const ref::LocalExposureGrid expected = cpuGrid();
            EXPECT_EQ(le.tiles(), glm::ivec2(expected.tilesX, expected.tilesY));
            EXPECT_EQ(le.readGrid(), expected.words);
            // Every counted pixel is in one cell: the counts sum to the finite positive pixels.
            std::uint64_t counted = 0;
            for (std::size_t i = 0; i < expected.words.size(); i += 2)
                counted += expected.words[i];
            const auto histogram = pipeline->histogramBuffer().readAll<std::uint32_t>(hd::kHistogramBufferWords);
            std::uint64_t binned = 0;
            for (std::uint32_t b = 0; b < params()[hd::kParamBinCount]; ++b)
                binned += histogram[b];
            EXPECT_EQ(counted, binned);
        }
}

TEST_F(LocalExposureGl, HistogramMethodsWithoutTheGridFallBackToTheSeparatePass)
{
    setImage(twoZoneImage(130, 70, 3));
    parameters->set("tonemap.operator", "equalize");
    parameters->set("local_exposure.method", "bilateral");
    for (const char* method : {"compute-global-atomic", "compute-shared-atomic"}) {
        SCOPED_TRACE(method);
        parameters->set("histogram.method", method);
        run();
        EXPECT_EQ(pipeline->localExposure().lastFused(), std::string(method) == "compute-shared-atomic");
        EXPECT_EQ(pipeline->localExposure().readGrid(), cpuGrid().words);
    }
    // A downsampled histogram input: the grid still comes from the full frame, in its own pass.
    parameters->set("histogram.downsample", "2");
    run();
    EXPECT_FALSE(pipeline->localExposure().lastFused());
    EXPECT_EQ(pipeline->localExposure().readGrid(), cpuGrid().words);
}

TEST_F(LocalExposureGl, BlurIsTheReferenceWithinItsTolerance)
{
    // 6 x 4 tiles, and 19 x 18 = 342 tiles: more than one workgroup of GridBlur.comp's 256.
    for (const glm::ivec2 size : {glm::ivec2(333, 201), glm::ivec2(1190, 1101)})
        for (const float kernel : {1.0f, 10.0f, 50.0f, 100.0f}) {
            SCOPED_TRACE(kernel);
            SCOPED_TRACE(size.x);
            setImage(twoZoneImage(size.x, size.y, 9));
            parameters->set("local_exposure.method", "bilateral");
            parameters->set("local_exposure.kernel_size_percent", std::to_string(kernel));
            run();
            const auto p = params();
            const float logMin = std::bit_cast<float>(p[hd::kParamLogMin]);
            const float logMax = std::bit_cast<float>(p[hd::kParamLogMax]);
            const ref::LocalExposureBlur blur = ref::localExposureBlur(cpuGrid(), image.width, kernel, logMin, logMax);
            const std::vector<float> gpu = pipeline->localExposure().readBlur();
            EXPECT_NEAR(gpu[hd::kLocalExposureFrameMean], blur.frameMean, verify::kLocalExposureBlurToleranceEv);
            EXPECT_EQ(double(gpu[hd::kLocalExposureFrameCount]), blur.frameCount);
            for (std::size_t t = 0; t < blur.blurred.size(); ++t)
                ASSERT_NEAR(gpu[hd::kLocalExposureBlurHeaderWords + t], blur.blurred[t],
                            verify::kLocalExposureBlurToleranceEv)
                    << "tile " << t;
        }
}

TEST_F(LocalExposureGl, VerifiesForEveryGlobalOperatorBothStructuresAndHdr10)
{
    setImage(twoZoneImage(97, 75, 21));
    parameters->set("local_exposure.method", "bilateral");
    parameters->set("local_exposure.highlight_contrast_scale", "0.5");
    parameters->set("local_exposure.shadow_contrast_scale", "0.7");
    parameters->set("local_exposure.detail_strength", "1.3");
    parameters->set("local_exposure.middle_grey_bias", "0.5");
    for (const char* op : {"percentile", "equalize", "ward", "exposure"})
        for (const char* structure : {"fused", "separate"})
            for (const char* target : {"sdr", "hdr10"}) {
                SCOPED_TRACE(std::string(op) + " " + structure + " " + target);
                parameters->set("tonemap.operator", op);
                parameters->set("local_exposure.structure", structure);
                parameters->set("display.target", target);
                const verify::VerifyReport report = verifyRun();
                EXPECT_TRUE(report.ok) << report.text;
                EXPECT_NE(report.text.find("local exposure grid"), std::string::npos) << report.text;
                EXPECT_NE(report.text.find("apply pass with local exposure"), std::string::npos) << report.text;
            }
}

TEST_F(LocalExposureGl, OffIsTodaysPictureBitForBit)
{
    setImage(twoZoneImage(77, 45, 5));
    for (const char* op : {"percentile", "equalize", "ward", "exposure"}) {
        SCOPED_TRACE(op);
        parameters->set("tonemap.operator", op);
        parameters->set("local_exposure.method", "off");
        run();
        // Today's apply pass: TonemapApply without local exposure on the pipeline's own curve and params.
        post::TonemapApply apply;
        post::PassContext ctx{ts::shaderLibrary(), ts::testProfiler(), ts::testGpuCaps(), 0};
        gl::Texture today("test.today", GL_RGBA8, {image.width, image.height});
        apply.apply(ctx, {texture, {image.width, image.height}}, pipeline->paramsBuffer(), pipeline->curveBuffer(),
                    today);
        const auto off = pipeline->toneMappedTexture().readRgba8();
        EXPECT_EQ(off, today.readRgba8());
        EXPECT_FALSE(pipeline->lastRun().usedLocalExposure);
        // On changes the picture; off again gives the same bytes as before.
        parameters->set("local_exposure.method", "bilateral");
        parameters->set("local_exposure.highlight_contrast_scale", "0.5");
        run();
        EXPECT_TRUE(pipeline->lastRun().usedLocalExposure);
        EXPECT_NE(pipeline->toneMappedTexture().readRgba8(), off);
        parameters->set("local_exposure.method", "off");
        run();
        EXPECT_EQ(pipeline->toneMappedTexture().readRgba8(), off);
    }
}

TEST_F(LocalExposureGl, ViewsAreTheReferenceTerms)
{
    setImage(twoZoneImage(131, 67, 8));
    parameters->set("tonemap.operator", "percentile");
    parameters->set("local_exposure.method", "bilateral");
    parameters->set("local_exposure.highlight_contrast_scale", "0.6");
    for (post::ViewMode mode : {post::ViewMode::LocalBase, post::ViewMode::LocalBlurred, post::ViewMode::LocalDetail,
                                post::ViewMode::LocalExposure}) {
        SCOPED_TRACE(std::string(post::viewModeName(mode)));
        pipeline->setViewMode(mode);
        const verify::VerifyReport report = verifyRun();
        EXPECT_TRUE(pipeline->lastRun().localExposureView);
        EXPECT_TRUE(report.ok) << report.text;
        EXPECT_NE(report.text.find("local exposure view vs CPU reference"), std::string::npos) << report.text;
    }
    // The views run with the method off too (what it would do).
    parameters->set("local_exposure.method", "off");
    pipeline->setViewMode(post::ViewMode::LocalExposure);
    EXPECT_TRUE(verifyRun().ok);
    EXPECT_TRUE(pipeline->lastRun().localExposureView);
}

TEST_F(LocalExposureGl, ProbeShowsEachTerm)
{
    setImage(twoZoneImage(96, 64, 4));
    parameters->set("tonemap.operator", "percentile");
    parameters->set("local_exposure.method", "bilateral");
    parameters->set("local_exposure.shadow_contrast_scale", "0.5");
    pipeline->setProbePoints({{10, 10}, {80, 40}, {-1, 3}});
    run();
    glFinish();
    pipeline->pollProbe();
    const std::vector<post::LocalExposureProbe>& probes = pipeline->localExposure().probeRecords();
    ASSERT_EQ(probes.size(), 3u);
    EXPECT_FALSE(probes[2].valid);
    const std::string line = pipeline->describeLocalExposureProbe(0);
    EXPECT_NE(line.find("local exposure"), std::string::npos) << line;
    EXPECT_NE(line.find("bilateral"), std::string::npos) << line;
    // The terms against the reference at the probe's texel (bottom-up rows).
    const auto p = params();
    const float logMin = std::bit_cast<float>(p[hd::kParamLogMin]);
    const float logMax = std::bit_cast<float>(p[hd::kParamLogMax]);
    const ref::LocalExposureGrid grid = cpuGrid();
    const ref::LocalExposureBlur blur = ref::localExposureBlur(grid, image.width, 50.0f, logMin, logMax);
    const auto curve = pipeline->curveBuffer().readAll<float>(hd::kCurveBufferWords);
    for (int i = 0; i < 2; ++i) {
        const glm::ivec2 point = i == 0 ? glm::ivec2(10, 10) : glm::ivec2(80, 40);
        const glm::ivec2 texel{point.x, image.height - 1 - point.y};
        const float* rgba =
            image.rgba.data() + (std::size_t(texel.y) * std::size_t(image.width) + std::size_t(texel.x)) * 4;
        const double Lw = hd::hdLuminance(rgba[0], rgba[1], rgba[2], {});
        const ref::LocalExposureTerms t =
            ref::localExposureTerms(grid, blur, pipeline->settings().localExposure,
                                    {true, double(curve[hd::kCurveScale])}, logMin, logMax, texel.x, texel.y, Lw);
        ASSERT_EQ(probes[std::size_t(i)].valid, t.valid);
        if (!t.valid)
            continue;
        EXPECT_NEAR(probes[std::size_t(i)].bilateral, t.bilateral, 1e-3);
        EXPECT_NEAR(probes[std::size_t(i)].blurred, t.blurred, 1e-3);
        EXPECT_NEAR(probes[std::size_t(i)].mid, t.mid, 1e-3);
        EXPECT_NEAR(probes[std::size_t(i)].ev, t.ev, 2e-3);
    }
}

/// The local exposure (EV) of the wall next to the window minus far from it: the halo.
struct Halo
{
    double nearEv = 0.0;
    double farEv = 0.0;
    double halo() const { return nearEv - farEv; }
};

Halo stepEdgeHalo(const ts::TestImage& image, int windowX0, const std::vector<float>& ev)
{
    // The wall's row through the window's middle: 4 pixels left of the window and 4 from the frame's edge.
    const int y = image.height / 2;
    const auto at = [&](int x) { return double(ev[std::size_t(y) * std::size_t(image.width) + std::size_t(x)]); };
    return {at(windowX0 - 4), at(4)};
}

TEST_F(LocalExposureGl, StepEdgeHaloStaysWithinItsBound)
{
    // A bright window (2^12 cd/m^2) in a dark wall (1 cd/m^2), 384x192, the window 128 wide in the middle.
    ts::TestImage wall;
    wall.width = 384;
    wall.height = 192;
    wall.rgba.assign(wall.pixelCount() * 4, 1.0f);
    const int x0 = 128, x1 = 256, y0 = 48, y1 = 144;
    for (int y = y0; y < y1; ++y)
        for (int x = x0; x < x1; ++x)
            wall.setGrey(std::size_t(y) * std::size_t(wall.width) + std::size_t(x), 4096.0f);
    setImage(wall);
    parameters->set("tonemap.operator", "percentile");
    parameters->set("local_exposure.method", "bilateral");
    parameters->set("local_exposure.highlight_contrast_scale", "0.5");
    parameters->set("local_exposure.shadow_contrast_scale", "0.5");
    std::map<std::string, double> halos;
    for (const char* blend : {"0", "0.6", "1"}) {
        SCOPED_TRACE(blend);
        parameters->set("local_exposure.blurred_luminance_blend", blend);
        const verify::VerifyReport report = verifyRun();  // the GPU picture is the reference's (<= 1 LSB)
        ASSERT_TRUE(report.ok) << report.text;
        const auto p = params();
        const float logMin = std::bit_cast<float>(p[hd::kParamLogMin]);
        const float logMax = std::bit_cast<float>(p[hd::kParamLogMax]);
        const ref::LocalExposureGrid grid = cpuGrid();
        const ref::LocalExposureBlur blur = ref::localExposureBlur(grid, wall.width, 50.0f, logMin, logMax);
        const auto curve = pipeline->curveBuffer().readAll<float>(hd::kCurveBufferWords);
        const std::vector<float> ev = ref::localExposureEv(wall.rgba.data(), wall.width, wall.height, grid, blur,
                                                           pipeline->settings().localExposure,
                                                           {true, double(curve[hd::kCurveScale])}, logMin, logMax);
        halos[blend] = stepEdgeHalo(wall, x0, ev).halo();
    }
    // The blurred luminance spreads the window into the wall: the wall next to it is darkened (a halo);
    // the bilateral base keeps the wall's own level (the window is 12 EV away, 12 bins of the grid).
    // Documented bound (docs/TONE_OPERATORS.md): bilateral alone |halo| <= 0.05 EV; Unreal's blend 0.6 at
    // most 0.6 of the blur's halo plus that.
    EXPECT_LE(std::abs(halos["0"]), 0.05) << halos["0"];
    EXPECT_LE(halos["1"], -0.5) << "the blur alone shows a halo";
    EXPECT_LE(std::abs(halos["0.6"]), 0.6 * std::abs(halos["1"]) + 0.05) << halos["0.6"];
    std::printf("step-edge halo (wall next to the window minus far, EV): bilateral %.3f, blend 0.6 %.3f, blur %.3f\n",
                halos["0"], halos["0.6"], halos["1"]);
}

TEST_F(LocalExposureGl, SettingsKeysFusionRefusalAndTheUnrealPreset)
{
    EXPECT_EQ(parameters->get("local_exposure.method"), "off");
    EXPECT_EQ(parameters->get("local_exposure.structure"), "fused");
    EXPECT_EQ(parameters->get("local_exposure.highlight_contrast_scale"), "1");
    EXPECT_EQ(parameters->get("local_exposure.shadow_contrast_scale"), "1");
    EXPECT_EQ(parameters->get("local_exposure.detail_strength"), "1");
    EXPECT_EQ(parameters->get("local_exposure.blurred_luminance_blend"), "0.6");
    EXPECT_EQ(parameters->get("local_exposure.kernel_size_percent"), "50");
    EXPECT_EQ(parameters->get("local_exposure.middle_grey_bias"), "0");
    parameters->set("local_exposure.method", "fusion");  // wired in (FusionLocalExposureGlTest.cpp)
    EXPECT_EQ(parameters->get("local_exposure.method"), "fusion");
    parameters->set("local_exposure.method", "off");
    EXPECT_THROW(parameters->set("local_exposure.highlight_contrast_scale", "2"), std::runtime_error);
    EXPECT_THROW(parameters->set("local_exposure.method", "sideways"), std::runtime_error);
    parameters->set("tonemap.operator", "percentile");
    parameters->set("local_exposure.structure", "separate");
    parameters->set("percentile.preset", "unreal");
    EXPECT_EQ(parameters->get("local_exposure.method"), "bilateral");
    EXPECT_EQ(parameters->get("local_exposure.highlight_contrast_scale"), "0.8");
    EXPECT_EQ(parameters->get("local_exposure.shadow_contrast_scale"), "0.8");
    EXPECT_EQ(parameters->get("local_exposure.structure"), "separate");  // hdrlab's own choice, kept
    parameters->set("percentile.preset", "bevy");
    EXPECT_EQ(parameters->get("local_exposure.method"), "off");
}

}  // namespace
