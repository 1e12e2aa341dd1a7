// LuminanceUnitsGlTest.cpp: the units of a Radiance picture through the GPU passes: every exact
// OpenGL histogram method bins a .hdr picture (EXPOSURE 2) exactly as the CPU reference does with
// the picture's effective weights; the pipeline's probe reports 179 Y / EXPOSURE cd/m^2 and
// input.units=plain gives 1 unit = 1 cd/m^2 back; Ward's operator sees cd/m^2 without
// ward.scene_scale; `tonemap` says which units it used.
#include "commands/tonemap/TonemapCore.h"
#include "image/ImageIo.h"
#include "image/RadianceColour.h"
#include "methods/MethodTestSupport.h"
#include "post/LuminanceUnits.h"
#include "post/PipelineParameters.h"
#include "post/PostPipeline.h"
#include "reference/FalseColourRef.h"
#include "reference/Histogram.h"
#include "support/GlTestEnvironment.h"
#include "support/HistogramTestSupport.h"
#include "support/TestPaths.h"
#include "verify/PipelineVerify.h"

#include <bit>
#include <cmath>
#include <fstream>
#include <random>
#include <sstream>

namespace ts = testing_support;

namespace {

/// A flat Radiance picture of pseudo-random colours over about 12 EV, with the given header lines.
std::string radiancePicture(int width,
                            int height,
                            const std::string& headerLines,
                            std::uint32_t seed,
                            bool grey = false)
{
    std::mt19937 random(seed);
    std::string bytes = "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n" + headerLines + "\n-Y " + std::to_string(height) +
                        " +X " + std::to_string(width) + "\n";
    for (int i = 0; i < width * height; ++i) {
        const auto m = std::uint8_t(128 + random() % 128);
        bytes += char(m);
        bytes += char(grey ? m : std::uint8_t(random() % 256));
        bytes += char(grey ? m : std::uint8_t(random() % 256));
        bytes += char(122 + random() % 12);
    }
    return bytes;
}

image::ImageF decode(const std::string& bytes)
{
    return image::decodeHdrImage(std::span(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()),
                                 "units.hdr");
}

ts::TestImage toTestImage(const image::ImageF& picture)
{
    ts::TestImage image;
    image.width = picture.width;
    image.height = picture.height;
    image.rgba = picture.pixels;
    return image;
}

class LuminanceUnitsGl : public ts::GlTest
{
};

TEST_F(LuminanceUnitsGl, EveryExactMethodBinsARadiancePictureWithItsWeights)
{
    const image::ImageF picture = decode(radiancePicture(53, 29, "EXPOSURE=4\nEXPOSURE=0.5\n", 7));
    ASSERT_TRUE(picture.radiance);
    ASSERT_EQ(picture.radiance->exposure, 2.0);
    const ts::TestImage image = toTestImage(picture);
    const post::LuminanceUnits units = post::resolveLuminanceUnits(post::UnitsMode::Auto, 0.0, picture.radiance);
    post::HistogramSpec spec;
    spec.binCount = 211;
    spec.outOfRange = post::OutOfRange::Separate;
    spec.luminance = units.effectiveWeights();
    spec.cdPerUnit = float(units.cdPerUnit());
    const auto range = ref::autoRange(image.rgba.data(), image.width, image.height, spec.luminance);
    ASSERT_TRUE(range);
    const float logMin = range->logMin + 0.5f, logMax = range->logMax - 0.25f;  // some pixels outside
    const ref::Histogram cpu = ref::buildHistogram(image.rgba.data(), image.width, image.height, logMin, logMax,
                                                   spec.binCount, ref::OutOfRange::Separate, spec.luminance);
    const ref::Histogram unitless = ref::buildHistogram(image.rgba.data(), image.width, image.height, logMin, logMax,
                                                        spec.binCount, ref::OutOfRange::Separate);
    ASSERT_NE(cpu.bins, unitless.bins) << "the weights must matter for this test to mean anything";
    int methods = 0;
    for (const std::string& id : ts::availableGlHistogramMethodIds()) {
        auto method = methods_test::createForTest(id);
        if (!method->exactBinning() || !methods_test::withinTestBudget(id, image.width, image.height, spec.binCount))
            continue;
        const ts::GpuHistogram gpu = ts::runHistogramMethod(*method, image, logMin, logMax, spec);
        ts::expectHistogramsEqual(gpu, cpu, method->fillsCounters(), id);
        ++methods;
    }
    EXPECT_GE(methods, 5);
}

TEST_F(LuminanceUnitsGl, ProbeReportsCdPerM2OfARadiancePictureAndPlainUnitsRestoreOne)
{
    const image::ImageF picture = decode(radiancePicture(41, 17, "EXPOSURE=2\n", 3));
    post::PostPipeline pipeline(ts::shaderLibrary(), ts::testProfiler(), ts::testGpuCaps());
    pipeline.setInputRadiance(picture.radiance);
    pipeline.setTopDownRows(true);
    const std::vector<glm::ivec2> points{{0, 0}, {17, 9}, {40, 16}};
    pipeline.setProbePoints(points);
    gl::Texture texture = ts::uploadImage(toTestImage(picture));
    const std::array<float, 3> y = *image::radianceLuminanceWeights(std::nullopt);

    for (const post::UnitsMode mode : {post::UnitsMode::Auto, post::UnitsMode::Plain}) {
        post::PipelineSettings settings = pipeline.settings();
        settings.inputUnits = mode;
        settings.rangeMode = post::RangeMode::Auto;
        pipeline.applySettings(settings);
        const post::LuminanceUnits& units = pipeline.luminanceUnits();
        EXPECT_EQ(units.cdPerUnit(), mode == post::UnitsMode::Auto ? 89.5 : 1.0);
        pipeline.run({texture, {picture.width, picture.height}}, 1.0 / 60.0, 60.0f);
        // The automatic range is the picture's in cd/m^2 (a new definition restarts it: no smoothing).
        const auto range =
            ref::autoRange(picture.pixels.data(), picture.width, picture.height, units.effectiveWeights());
        ASSERT_TRUE(range);
        const auto params = pipeline.paramsBuffer().readAll<std::uint32_t>(hd::kHistogramParamsWords);
        EXPECT_NEAR(std::bit_cast<float>(params[hd::kParamLogMin]), range->logMin, 1e-5);
        EXPECT_NEAR(std::bit_cast<float>(params[hd::kParamLogMax]), range->logMax, 1e-5);
        EXPECT_EQ(std::bit_cast<float>(params[hd::kParamCdPerUnit]), float(units.cdPerUnit()));
        glFinish();
        pipeline.pollProbe();
        const auto probe = pipeline.latestProbe();
        ASSERT_TRUE(probe);
        ASSERT_EQ(probe->samples.size(), points.size());
        for (std::size_t i = 0; i < points.size(); ++i) {
            const post::ProbeSample& s = probe->samples[i];
            const float* rgb = picture.at(points[i].x, points[i].y);
            ASSERT_EQ(s.rgb, glm::vec3(rgb[0], rgb[1], rgb[2])) << i;
            EXPECT_EQ(std::bit_cast<std::uint32_t>(s.luminance),
                      std::bit_cast<std::uint32_t>(hd::hdLuminance(rgb[0], rgb[1], rgb[2], units.effectiveWeights())))
                << "the probe's L is the histogram's, bit for bit";
            if (mode == post::UnitsMode::Auto) {  // 179 Y / EXPOSURE, Y with Radiance's weights
                const double expected =
                    179.0 * (double(y[0]) * rgb[0] + double(y[1]) * rgb[1] + double(y[2]) * rgb[2]) / 2.0;
                EXPECT_NEAR(s.luminance, expected, 1e-6 * expected) << i;
            } else {
                EXPECT_EQ(s.luminance, hd::hdLuminance(rgb[0], rgb[1], rgb[2])) << i;
            }
        }
        EXPECT_NE(post::describeProbeSample(probe->samples[1], units.probeNote())
                      .find(mode == post::UnitsMode::Auto ? " cd/m^2 (1 unit = 89.5 cd/m^2, Radiance picture), EV "
                                                          : " cd/m^2 (1 unit = 1 cd/m^2, input.units=plain), EV "),
                  std::string::npos)
            << post::describeProbeSample(probe->samples[1], units.probeNote());
        const verify::VerifyReport report = verify::verifyPipeline(pipeline);
        EXPECT_TRUE(report.ok) << report.text;
        EXPECT_EQ(report.l1Difference, 0u) << report.text;
        EXPECT_NE(report.text.find("units: " + units.describe()), std::string::npos) << report.text;
    }
}

// The false-colour view bands a Radiance picture in cd/m^2 too, exactly as the CPU reference does.
TEST_F(LuminanceUnitsGl, FalseColourOfARadiancePictureIsInCdPerM2)
{
    const image::ImageF picture = decode(radiancePicture(37, 21, "EXPOSURE=0.25\n", 9));
    post::PostPipeline pipeline(ts::shaderLibrary(), ts::testProfiler(), ts::testGpuCaps());
    pipeline.setInputRadiance(picture.radiance);
    post::PipelineSettings settings = pipeline.settings();
    settings.rangeMode = post::RangeMode::Manual;
    settings.logMin = 4.5f;  // 716 cd/m^2 per unit: the picture spans about 6..17 EV
    settings.logMax = 15.25f;
    ASSERT_TRUE(pipeline.applySettings(settings));
    pipeline.setViewMode(post::ViewMode::FalseColour, false);
    gl::Texture texture = ts::uploadImage(toTestImage(picture));
    const gl::Texture& shown = pipeline.run({texture, {picture.width, picture.height}}, 1.0 / 60.0, 60.0f);
    const hd::LuminanceWeights weights = pipeline.luminanceUnits().effectiveWeights();
    const auto expected = ref::falseColour(picture.pixels.data(), picture.width, picture.height, 4.5f, 15.25f, weights);
    EXPECT_EQ(shown.readRgba8(), expected);
    EXPECT_NE(expected, ref::falseColour(picture.pixels.data(), picture.width, picture.height, 4.5f, 15.25f))
        << "the units must move pixels between bands";
}

// A grey picture: Radiance's weights and Rec. 709's both sum to 1 (within float rounding), so the
// Radiance picture with EXPOSURE 2 shows as the same pixels read as plain units with Ward's scene
// scale 179 / 2 did before: Ward's operator gets cd/m^2 from the units, not from the user.
TEST_F(LuminanceUnitsGl, WardSeesCdPerM2WithoutItsSceneScale)
{
    const image::ImageF picture = decode(radiancePicture(64, 40, "EXPOSURE=2\n", 11, true));
    gl::Texture texture = ts::uploadImage(toTestImage(picture));
    auto render = [&](bool radianceUnits, const std::string& sceneScale) {
        post::PostPipeline pipeline(ts::shaderLibrary(), ts::testProfiler(), ts::testGpuCaps());
        if (radianceUnits)
            pipeline.setInputRadiance(picture.radiance);
        post::PipelineParameters parameters(pipeline);
        parameters.set("tonemap.operator", "ward");
        parameters.set("histogram.range", "auto");
        parameters.set("ward.human_contrast", "true");
        parameters.set("ward.scene_scale", sceneScale);
        pipeline.toneOperator().resetState();
        const gl::Texture& display = pipeline.run({texture, {picture.width, picture.height}}, 1.0 / 60.0, 60.0f);
        const verify::VerifyReport report = verify::verifyPipeline(pipeline);
        EXPECT_TRUE(report.ok) << report.text;
        return display.readRgba8();
    };
    const std::vector<unsigned char> radiance = render(true, "1");
    const std::vector<unsigned char> scaledByHand = render(false, "89.5");
    const std::vector<unsigned char> unscaled = render(false, "1");
    int worst = 0;
    for (std::size_t i = 0; i < radiance.size(); ++i)
        worst = std::max(worst, std::abs(int(radiance[i]) - int(scaledByHand[i])));
    EXPECT_LE(worst, 1);
    EXPECT_NE(radiance, unscaled) << "without units (1 unit = 1 cd/m^2) the human-contrast ceiling differs";
}

class LuminanceUnitsTonemap : public ts::GlTest
{
protected:
    std::string run(const std::filesystem::path& input, std::vector<std::string> sets = {})
    {
        app::TonemapOptions options;
        options.input = input;
        options.output = input.parent_path() / (input.stem().string() + ".png");
        options.probes = {{2, 1}};
        options.settingAssignments = std::move(sets);
        std::ostringstream out, err;
        EXPECT_EQ(app::tonemapImage(options, ts::shaderLibrary(), ts::testGpuCaps(), out, err), 0) << err.str();
        return out.str();
    }
};

TEST_F(LuminanceUnitsTonemap, SummaryLineNamesTheUnits)
{
    const auto dir = ts::scratchDir("units-tonemap");
    {
        std::ofstream file(dir / "picture.hdr", std::ios::binary);
        file << radiancePicture(9, 5, "EXPOSURE=2\n", 5);
    }
    const std::string radiance = run(dir / "picture.hdr");
    EXPECT_NE(radiance.find("; units: Radiance picture: 1 unit = 179/EXPOSURE(=2) = 89.5 cd/m^2, weights "
                            "0.2651/0.6701/0.0648 (Radiance's default primaries)\n"),
              std::string::npos)
        << radiance;
    EXPECT_NE(radiance.find(" cd/m^2 (1 unit = 89.5 cd/m^2, Radiance picture), EV "), std::string::npos) << radiance;

    const std::string plain = run(dir / "picture.hdr", {"input.units=plain"});
    EXPECT_NE(plain.find("; units: input.units=plain: 1 unit = 1 cd/m^2, Rec. 709 weights\n"), std::string::npos)
        << plain;

    image::ImageF exr(9, 5);
    exr.pixels.assign(exr.pixels.size(), 0.5f);
    image::writeExr(dir / "plain.exr", exr, image::ExrPixelType::Float);
    const std::string fromExr = run(dir / "plain.exr");
    EXPECT_NE(fromExr.find("; units: 1 unit = 1 cd/m^2, Rec. 709 weights\n"), std::string::npos) << fromExr;
    EXPECT_NE(fromExr.find(" cd/m^2, EV "), std::string::npos) << "no units note for the default: " << fromExr;
    const std::string watts = run(dir / "plain.exr", {"input.cd_per_unit=179"});
    EXPECT_NE(watts.find("; units: input.cd_per_unit: 1 unit = 179 cd/m^2, Rec. 709 weights\n"), std::string::npos)
        << watts;
    EXPECT_NE(watts.find("L 89.5 cd/m^2 (1 unit = 179 cd/m^2, input.cd_per_unit)"), std::string::npos) << watts;
}

}  // namespace
