// The apply pass's RGB display transforms (AgX, PBR Neutral) and its HDR10 output against their CPU
// references (reference/Image: ref::applyCurve, ref::applyCurveHdr), and at values that follow from
// the transforms' definitions. Tolerances: 1 LSB of the 8-bit sRGB output; 2 of 65535 full-range
// PQ codes for the HDR10 output (GPU float against the reference's double).
#include "image/HdrPng.h"
#include "post/AutoRange.h"
#include "post/PipelineParameters.h"
#include "post/PostPipeline.h"
#include "post/TonemapApply.h"
#include "reference/Image.h"
#include "reference/ToneReference.h"
#include "support/GlTestEnvironment.h"
#include "support/HistogramTestSupport.h"
#include "tone/DisplayOutput.h"
#include "verify/PipelineVerify.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

namespace ts = testing_support;

namespace {

constexpr post::DisplayCurve kTransforms[] = {post::DisplayCurve::AgX, post::DisplayCurve::AgXPunchy,
                                              post::DisplayCurve::PbrNeutral};
constexpr int kHdrToleranceCodes = 2;

class DisplayTransformGl : public ts::GlTest
{
protected:
    post::PassContext context() { return {ts::shaderLibrary(), ts::testProfiler(), ts::testGpuCaps(), 0}; }

    /// The exposure operator's reference curve buffer for `curve` at `ev`.
    static std::vector<float> exposureCurve(post::DisplayCurve curve, float ev)
    {
        post::ExposureSettings s;
        s.exposureEv = ev;
        s.display.curve = curve;
        ref::CurveInputs in;
        in.settings = s;
        return ref::referenceCurve("exposure", in);
    }

    static int worstByteDifference(const std::vector<unsigned char>& a, const std::vector<std::uint8_t>& b)
    {
        int worst = 0;
        for (std::size_t i = 0; i < a.size() && i < b.size(); ++i)
            worst = std::max(worst, std::abs(int(a[i]) - int(b[i])));
        return a.size() == b.size() ? worst : 256;
    }

    static int worstPqCodeDifference(const std::vector<float>& a, const std::vector<float>& b)
    {
        int worst = 0;
        for (std::size_t i = 0; i < a.size() && i < b.size(); ++i)
            if (i % 4 != 3)
                worst = std::max(worst, std::abs(int(image::pqCode16(a[i])) - int(image::pqCode16(b[i]))));
        return a.size() == b.size() ? worst : 65536;
    }
};

TEST_F(DisplayTransformGl, TransformsMatchTheCpuReferenceWithinOneLsb)
{
    post::TonemapApply apply;
    ts::TestImage image = ts::randomHdrImage(97, 41, -12.0f, 12.0f, 5);
    ts::addSpecialPixels(image, 11);
    gl::Texture texture = ts::uploadImage(image);
    const glm::ivec2 size{image.width, image.height};
    gl::Texture output("test.display", GL_RGBA8, size);
    gl::Buffer curveBuffer = post::createCurveBuffer("test.curve");
    gl::Buffer params = post::createHistogramParamsBuffer("test.params");
    post::writeHistogramParams(params, -8.0f, 12.0f, post::HistogramSpec{}, size);
    for (post::DisplayCurve curve : kTransforms)
        for (float ev : {-3.0f, 0.0f, 2.5f}) {
            const std::vector<float> words = exposureCurve(curve, ev);
            curveBuffer.update<float>(words);
            post::ApplyDisplay display;
            display.transform = post::displayTransformCode(curve);
            post::PassContext ctx = context();
            apply.apply(ctx, {texture, size}, params, curveBuffer, output, nullptr, display);
            const std::vector<std::uint8_t> expected =
                ref::applyCurve(image.rgba.data(), image.width, image.height, words.data(), nullptr, {}, 1.0f, display);
            EXPECT_LE(worstByteDifference(output.readRgba8(), expected), 1) << post::toString(curve) << " at " << ev;
            // The transform acts on colour, not through the luminance ratio: the pictures differ.
            EXPECT_NE(expected, ref::applyCurve(image.rgba.data(), image.width, image.height, words.data()));
        }
}

// Grey pixels of known exposed luminance through the pass (exposure 0, 1 cd/m^2 per unit, Rec. 709
// weights summing to 1): PBR Neutral's fixed points (0.18 -> 0.14, 0.5 -> 0.46, toe 6.25 x^2) and
// AgX's middle grey (the sigmoid polynomial at 12.47393 / 16.500999 of its log range, to the 2.2 power).
TEST_F(DisplayTransformGl, GreyValuesFromTheDefinitions)
{
    post::TonemapApply apply;
    const float greys[] = {0.18f, 0.5f, 0.04f};
    ts::TestImage image;
    image.width = 3;
    image.height = 1;
    for (float g : greys)
        image.rgba.insert(image.rgba.end(), {g, g, g, 1.0f});
    gl::Texture texture = ts::uploadImage(image);
    gl::Texture output("test.display", GL_RGBA8, {3, 1});
    gl::Buffer curveBuffer = post::createCurveBuffer("test.curve");
    gl::Buffer params = post::createHistogramParamsBuffer("test.params");
    post::writeHistogramParams(params, -8.0f, 12.0f, post::HistogramSpec{}, {3, 1});
    auto byteOf = [](double linear) { return int(std::lround(ref::encodeSrgb(linear) * 255.0)); };
    auto run = [&](post::DisplayCurve curve) {
        curveBuffer.update<float>(exposureCurve(curve, 0.0f));
        post::PassContext ctx = context();
        apply.apply(ctx, {texture, {3, 1}}, params, curveBuffer, output, nullptr,
                    post::ApplyDisplay{post::displayTransformCode(curve)});
        return output.readRgba8();
    };
    const std::vector<unsigned char> pbr = run(post::DisplayCurve::PbrNeutral);
    EXPECT_NEAR(pbr[0], byteOf(0.14), 1);
    EXPECT_NEAR(pbr[4], byteOf(0.46), 1);
    EXPECT_NEAR(pbr[8], byteOf(6.25 * 0.04 * 0.04), 1);
    const double t = (std::log2(0.18) + 12.47393) / (4.026069 + 12.47393);
    const double sigmoid = 15.5 * std::pow(t, 6) - 40.14 * std::pow(t, 5) + 31.96 * std::pow(t, 4) -
                           6.868 * std::pow(t, 3) + 0.4298 * t * t + 0.1191 * t - 0.00232;
    const std::vector<unsigned char> agx = run(post::DisplayCurve::AgX);
    for (int c = 0; c < 3; ++c)
        EXPECT_NEAR(agx[std::size_t(c)], byteOf(std::pow(sigmoid, 2.2)), 1) << c;
}

TEST_F(DisplayTransformGl, Hdr10OutputMatchesTheCpuReference)
{
    post::TonemapApply apply;
    ts::TestImage image = ts::randomHdrImage(61, 37, -10.0f, 14.0f, 9);
    ts::addSpecialPixels(image, 17);
    gl::Texture texture = ts::uploadImage(image);
    const glm::ivec2 size{image.width, image.height};
    gl::Texture output("test.display", GL_RGBA8, size);
    gl::Texture hdrOutput("test.hdr10", GL_RGBA32F, size);
    gl::Buffer curveBuffer = post::createCurveBuffer("test.curve");
    gl::Buffer params = post::createHistogramParamsBuffer("test.params");
    post::writeHistogramParams(params, -8.0f, 12.0f, post::HistogramSpec{}, size);
    const post::DisplayCurve curves[] = {post::DisplayCurve::Clamp, post::DisplayCurve::Reinhard,
                                         post::DisplayCurve::AgX, post::DisplayCurve::AgXPunchy,
                                         post::DisplayCurve::PbrNeutral};
    for (float peak : {1000.0f, 4000.0f})
        for (post::DisplayCurve curve : curves)
            for (post::HdrScaling scaling : {post::HdrScaling{}, post::HdrScaling{false, 1.0f}}) {
                const std::vector<float> words = exposureCurve(curve, 1.5f);
                curveBuffer.update<float>(words);
                const post::ApplyDisplay display = post::applyDisplayFor(post::displayTransformCode(curve), scaling,
                                                                         {post::DisplayTarget::Hdr10, peak});
                post::PassContext ctx = context();
                apply.apply(ctx, {texture, size}, params, curveBuffer, output, nullptr, display, &hdrOutput);
                const std::vector<float> expected = ref::applyCurveHdr(image.rgba.data(), image.width, image.height,
                                                                       words.data(), nullptr, {}, 1.0f, display);
                const std::vector<float> actual = hdrOutput.readRgbaFloat();
                const std::string what = std::string(post::toString(curve)) + " peak " + std::to_string(peak) +
                                         (scaling.sceneReferred ? " scene-referred" : " display-referred");
                EXPECT_LE(worstPqCodeDifference(actual, expected), kHdrToleranceCodes) << what;
                EXPECT_LE(*std::max_element(actual.begin(), actual.end()), peak * 1.0001f) << what;
                EXPECT_LE(worstByteDifference(output.readRgba8(),
                                              ref::applyCurve(image.rgba.data(), image.width, image.height,
                                                              words.data(), nullptr, {}, 1.0f, display)),
                          1)
                    << what << " (SDR preview)";
            }
    post::PassContext ctx = context();  // HDR10 without its float output is refused
    EXPECT_THROW(apply.apply(ctx, {texture, size}, params, curveBuffer, output, nullptr,
                             post::applyDisplayFor(0, {}, {post::DisplayTarget::Hdr10, 1000.0f})),
                 std::invalid_argument);
}

// Scene-referred HDR10 keeps SDR's grey at 203 cd/m^2 x its display value and carries highlights to the
// peak: PBR Neutral at exposed grey 0.18 gives 203 x 0.14 cd/m^2; at 100, 1000 x PBR(100 x 203 / 1000).
TEST_F(DisplayTransformGl, Hdr10KeepsMidTonesAtReferenceWhiteAndExtendsHighlights)
{
    post::TonemapApply apply;
    ts::TestImage image;
    image.width = 2;
    image.height = 1;
    image.rgba = {0.18f, 0.18f, 0.18f, 1.0f, 100.0f, 100.0f, 100.0f, 1.0f};
    gl::Texture texture = ts::uploadImage(image);
    gl::Texture output("test.display", GL_RGBA8, {2, 1});
    gl::Texture hdrOutput("test.hdr10", GL_RGBA32F, {2, 1});
    gl::Buffer curveBuffer = post::createCurveBuffer("test.curve");
    gl::Buffer params = post::createHistogramParamsBuffer("test.params");
    post::writeHistogramParams(params, -8.0f, 12.0f, post::HistogramSpec{}, {2, 1});
    curveBuffer.update<float>(exposureCurve(post::DisplayCurve::PbrNeutral, 0.0f));
    const post::ApplyDisplay display = post::applyDisplayFor(post::displayTransformCode(post::DisplayCurve::PbrNeutral),
                                                             {}, {post::DisplayTarget::Hdr10, 1000.0f});
    post::PassContext ctx = context();
    apply.apply(ctx, {texture, {2, 1}}, params, curveBuffer, output, nullptr, display, &hdrOutput);
    const std::vector<float> nits = hdrOutput.readRgbaFloat();
    const double highlight = 1000.0 * (1.0 - 0.0576 / (100.0 * 0.203 - 0.04 + 0.24 - 0.76));
    for (int c = 0; c < 3; ++c) {  // grey stays grey through the BT.2020 matrix (its rows sum to 1)
        EXPECT_NEAR(nits[std::size_t(c)], 203.0 * 0.14, 1e-3 * 203.0 * 0.14);
        EXPECT_NEAR(nits[4 + std::size_t(c)], highlight, 1e-3 * highlight);
    }
}

// The whole pipeline with display.target=hdr10: every operator, and the RGB transforms, pass --verify
// (its HDR10 check: 2 PQ codes); a bad peak is refused with the key's range.
TEST_F(DisplayTransformGl, PipelineVerifiesEveryOperatorInHdr10)
{
    post::PostPipeline pipeline(ts::shaderLibrary(), ts::testProfiler(), ts::testGpuCaps());
    ts::TestImage image = ts::randomHdrImage(64, 48, -6.0f, 12.0f, 21);
    ts::addSpecialPixels(image, 29);
    gl::Texture texture = ts::uploadImage(image);
    post::PipelineParameters parameters(pipeline);
    const std::vector<std::vector<std::string>> runs = {
        {"tonemap.operator=percentile", "percentile.display_curve=agx-punchy"},
        {"tonemap.operator=exposure", "exposure.display_curve=pbr-neutral", "exposure.exposure_ev=2"},
        {"tonemap.operator=percentile", "percentile.display_curve=hable"},
        {"tonemap.operator=equalize"},
        {"tonemap.operator=ward"},
    };
    for (const std::vector<std::string>& run : runs) {
        std::vector<post::SettingAssignment> assignments = {post::parseAssignment("display.target=hdr10", "test"),
                                                            post::parseAssignment("display.peak=1500", "test"),
                                                            post::parseAssignment("histogram.range=auto", "test")};
        for (const std::string& text : run)
            assignments.push_back(post::parseAssignment(text, "test"));
        for (const std::string& warning : parameters.apply(assignments))
            ADD_FAILURE() << warning;
        for (int frame = 0; frame < 3; ++frame)
            pipeline.run({texture, {64, 48}}, 1.0 / 60.0, 60.0f);
        ASSERT_NE(pipeline.hdrOutputTexture(), nullptr) << run.front();
        EXPECT_FLOAT_EQ(pipeline.lastRun().display.peak, 1500.0f);
        const verify::VerifyReport report = verify::verifyPipeline(pipeline);
        EXPECT_TRUE(report.ok) << run.front() << "\n" << report.text;
        EXPECT_NE(report.text.find("HDR10 output"), std::string::npos) << report.text;
    }
    EXPECT_THROW(parameters.apply({post::parseAssignment("display.peak=50000", "test")}), std::exception);
    parameters.apply({post::parseAssignment("display.target=sdr", "test")});
    pipeline.run({texture, {64, 48}}, 1.0 / 60.0, 60.0f);
    EXPECT_EQ(pipeline.hdrOutputTexture(), nullptr);
}

}  // namespace
