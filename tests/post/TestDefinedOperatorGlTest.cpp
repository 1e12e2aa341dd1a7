// The rule "a tone operator is its own file pair, its reference and one registry line", proved by an
// operator that exists only in this test program: a square-root curve with a gain, its CPU reference,
// and the two explicit run-time registrations (the operator's in post/tonemap/ToneRegistry.h, its
// reference's in reference/ToneReference.h). Nothing in src/ names it, yet the pipeline runs it
// ("tonemap.operator"), the settings mechanism sets its parameter ("test-sqrt.gain", also while it is
// parked), and --verify's check compares its curve with its reference, and fails when they disagree.
#include "post/PipelineParameters.h"
#include "post/PostPipeline.h"
#include "post/tonemap/ToneOperator.h"
#include "post/tonemap/ToneRegistry.h"
#include "reference/ToneReference.h"
#include "support/GlTestEnvironment.h"
#include "support/HistogramTestSupport.h"
#include "verify/PipelineVerify.h"

#include <algorithm>
#include <cmath>

namespace ts = testing_support;

namespace {

// ---- the operator's settings (what its reference reads too) ----------------------------------------
struct SqrtSettings
{
    float gain = 1.0f;
};

constexpr std::uint32_t kSamples = 64;
constexpr float kLogMin = -8.0f;  ///< the curve's log2 luminance range
constexpr float kLogMax = 10.0f;

// ---- the operator (its "file pair") ----------------------------------------------------------------
/// Display = min(gain * sqrt(t), 1) at LUT sample t = (i + 0.5) / kSamples over log2 L [-8, 10]. It
/// writes its LUT from the CPU (a test operator; the real ones compute theirs on the GPU).
class ToneTestSqrt final : public post::ToneOperator, public post::ToneVerification
{
public:
    static constexpr std::string_view kId = "test-sqrt";

    std::string_view id() const override { return kId; }
    std::string_view label() const override { return "Test: square root"; }
    std::string_view description() const override { return "defined only in TestDefinedOperatorGlTest"; }
    void computeCurve(post::PassContext&, const post::ToneInputs&, gl::Buffer& curve) override
    {
        std::vector<float> words(hd::kCurveBufferWords, 0.0f);
        words[hd::kCurveLogMin] = kLogMin;
        words[hd::kCurveLogMax] = kLogMax;
        words[hd::kCurveSampleCount] = float(kSamples);
        words[hd::kCurveChannels] = 1.0f;
        words[hd::kCurveMode] = hd::kCurveModeLut;
        for (std::uint32_t i = 0; i < kSamples; ++i)
            words[hd::kCurveHeaderWords + i] = std::min(mSettings.gain * std::sqrt((float(i) + 0.5f) / kSamples), 1.0f);
        curve.update<float>(words);
    }
    post::ParameterList parameters() override
    {
        post::ParameterList list;
        list.items.push_back(post::floatParameter("test-sqrt.gain", "Gain", mSettings.gain, 0.0f, 4.0f, 1.0f));
        return list;
    }
    const post::ToneVerification* verification() const override { return this; }
    bool describeForReference(const post::ToneVerifyFrame&, ref::ToneCheckInputs& check) const override
    {
        check.curve.settings = mSettings;
        return true;
    }

    const SqrtSettings& settings() const { return mSettings; }

private:
    SqrtSettings mSettings;
};

// ---- its CPU reference -----------------------------------------------------------------------------
/// The same curve in double, from the settings the operator handed over; `bias` breaks it on purpose.
std::vector<float> sqrtReference(const ref::CurveInputs& inputs, double bias)
{
    const SqrtSettings s = ref::settingsOr<SqrtSettings>(inputs);
    std::vector<float> words = ref::makeCurveWords(kLogMin, kLogMax, kSamples, 1);
    for (std::uint32_t i = 0; i < kSamples; ++i)
        words[hd::kCurveHeaderWords + i] = float(std::min(s.gain * std::sqrt((i + 0.5) / kSamples) + bias, 1.0));
    return words;
}

// ---- the registrations (explicit, at run time; the test's TearDown takes them out again) ----------
void registerTestSqrt(double referenceBias = 0.0)
{
    post::registerToneOperator(post::toneEntry<ToneTestSqrt>());
    ref::registerToneReference(
        {ToneTestSqrt::kId,
         [referenceBias](const ref::CurveInputs& in) { return sqrtReference(in, referenceBias); },
         {}});
}

class TestDefinedOperator : public ts::GlTest
{
protected:
    void SetUp() override
    {
        pipeline = std::make_unique<post::PostPipeline>(ts::shaderLibrary(), ts::testProfiler(), ts::testGpuCaps());
        image = ts::randomHdrImage(61, 37, -6.0f, 9.0f, 27);
        texture = ts::uploadImage(image);
    }
    void TearDown() override
    {
        // Leave the registries as the program had them (other tests list the operators).
        EXPECT_TRUE(post::unregisterToneOperator(ToneTestSqrt::kId));
        EXPECT_TRUE(ref::unregisterToneReference(ToneTestSqrt::kId));
        EXPECT_EQ(post::findParameter("test-sqrt.gain"), nullptr);
    }

    std::unique_ptr<post::PostPipeline> pipeline;
    ts::TestImage image;
    gl::Texture texture;
};

TEST_F(TestDefinedOperator, RunsThroughThePipelineSettingsAndVerify)
{
    registerTestSqrt();
    ASSERT_NE(post::createToneOperator("test-sqrt"), nullptr);
    const post::ParameterInfo* gain = post::findParameter("test-sqrt.gain");
    ASSERT_NE(gain, nullptr) << "the settings keys come from the registry, including run-time entries";
    const post::ParameterInfo* choice = post::findParameter("tonemap.operator");
    ASSERT_NE(choice, nullptr);
    EXPECT_NE(std::find(choice->choices.begin(), choice->choices.end(), "test-sqrt"), choice->choices.end());

    post::PipelineParameters parameters(*pipeline);
    parameters.set("test-sqrt.gain", "0.5");  // parked: the operator is not in use yet
    parameters.set("tonemap.operator", "test-sqrt");
    ASSERT_EQ(pipeline->toneOperator().id(), "test-sqrt");
    EXPECT_EQ(parameters.get("test-sqrt.gain"), "0.5");
    const auto* op = static_cast<const ToneTestSqrt*>(&pipeline->toneOperator());  // this test made it
    EXPECT_FLOAT_EQ(op->settings().gain, 0.5f) << "the parked value came with the operator";
    parameters.set("test-sqrt.gain", "0.75");  // in use: the live object
    EXPECT_FLOAT_EQ(op->settings().gain, 0.75f);

    pipeline->run({texture, {61, 37}}, 1.0 / 60.0, 60.0f);
    const auto curve = pipeline->curveBuffer().readAll<float>(hd::kCurveBufferWords);
    EXPECT_FLOAT_EQ(curve[hd::kCurveHeaderWords + 16], std::min(0.75f * std::sqrt(16.5f / kSamples), 1.0f));

    const verify::VerifyReport report = verify::verifyPipeline(*pipeline);
    EXPECT_TRUE(report.ok) << report.text;
    EXPECT_NE(report.text.find("tone curve of 'test-sqrt' vs its CPU reference"), std::string::npos) << report.text;
    EXPECT_LT(report.curveMaxDifference, 1e-6) << report.text;
}

TEST_F(TestDefinedOperator, VerifyFailsWhenItsReferenceDisagrees)
{
    registerTestSqrt(0.01);  // a reference one hundredth of the display range above the operator
    post::PipelineParameters parameters(*pipeline);
    parameters.set("tonemap.operator", "test-sqrt");
    pipeline->run({texture, {61, 37}}, 1.0 / 60.0, 60.0f);
    const verify::VerifyReport report = verify::verifyPipeline(*pipeline);
    EXPECT_FALSE(report.ok) << report.text;
    EXPECT_NE(report.text.find("(ABOVE"), std::string::npos) << report.text;
    EXPECT_NEAR(report.curveMaxDifference, 0.01, 1e-4) << report.text;
}

}  // namespace
