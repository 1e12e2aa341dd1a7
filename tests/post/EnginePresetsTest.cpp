// Engine presets (EnginePresets.h) on the CPU: each preset sets the bins, range, percentiles, key,
// limits, speeds and curve engines.md (section b) documents; an unknown id is refused with the valid
// ids; the pipeline overload sets a manual clamped histogram; and hdrlab's CPU reference, run with
// each preset over the scripted luminance step, follows the engine's documented formula
// (EngineExposureModels.h) frame by frame, while the default exact curve does not.
#include "post/EnginePresetScenarios.h"
#include "post/PostPipeline.h"
#include "post/tonemap/EnginePresets.h"
#include "reference/Scan.h"
#include "reference/TonePercentileRef.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace {

using post::AdaptationCurve;
using post::PercentileMetering;

/// The reference's exposure after every frame of the scenario under `settings`.
std::vector<double> referenceTrajectory(const post::EnginePreset& preset,
                                        const post::PercentileSettings& settings,
                                        const std::vector<preset_scenario::ScenarioFrame>& frames)
{
    std::vector<double> out;
    ref::PercentileState state;
    for (const auto& frame : frames) {
        state = ref::stepPercentile(state, ref::inclusiveScan(frame.bins), preset.histogram.logMin,
                                    preset.histogram.logMax, frame.model.dtSeconds, settings);
        out.push_back(state.exposureEv);
    }
    return out;
}

struct Documented
{
    const char* id;
    std::uint32_t bins;
    float logMin, logMax;
    float bandLow, bandHigh;
    double key;
    double minEv, maxEv;
    AdaptationCurve curve;
    post::MeteringMaskType mask;
};

TEST(EnginePresets, EachPresetSetsWhatEnginesMdDocuments)
{
    // engines.md b: UE 64 bins, log2 L -8..4, 10/90 %, 18 % grey, average luminance 0.03..8;
    // HDRP 128 bins over -1..14 EV100 (log2 L = EV100 - 3), 40/90 %, K = 12.5 -> 1/(1.2 * 8);
    // Bevy 64 bins, -8..8, 10/90 %, target = -average log2 L (key 1), no clamp. Metering default:
    // HDRP centre-weighted, UE no mask, Bevy a white mask.
    const double hdrpKey = 1.0 / 9.6;
    const Documented documented[] = {
        {"unreal", 64, -8.0f, 4.0f, 10.0f, 90.0f, 0.18, std::log2(0.18 / 8.0), std::log2(0.18 / 0.03),
         AdaptationCurve::UnrealSteps, post::MeteringMaskType::Average},
        {"unity-hdrp", 128, -4.0f, 11.0f, 40.0f, 90.0f, hdrpKey, std::log2(hdrpKey) - 11.0, std::log2(hdrpKey) + 4.0,
         AdaptationCurve::Exponential, post::MeteringMaskType::CentreWeighted},
        {"bevy", 64, -8.0f, 8.0f, 10.0f, 90.0f, 1.0, -32.0, 32.0, AdaptationCurve::BevySteps,
         post::MeteringMaskType::Average},
    };
    ASSERT_EQ(post::enginePresets().size(), 3u);
    for (const Documented& d : documented) {
        SCOPED_TRACE(d.id);
        post::PercentileSettings s;
        const post::EnginePresetResult result = post::applyEnginePreset(d.id, s);
        ASSERT_TRUE(result.ok) << result.error;
        EXPECT_EQ(result.histogram.bins, d.bins);
        EXPECT_FLOAT_EQ(result.histogram.logMin, d.logMin);
        EXPECT_FLOAT_EQ(result.histogram.logMax, d.logMax);
        EXPECT_EQ(s.metering, PercentileMetering::BandAverage);
        EXPECT_FLOAT_EQ(s.bandLow, d.bandLow);
        EXPECT_FLOAT_EQ(s.bandHigh, d.bandHigh);
        EXPECT_NEAR(s.key, d.key, 1e-6);
        EXPECT_NEAR(s.minEv, d.minEv, 1e-5);
        EXPECT_NEAR(s.maxEv, d.maxEv, 1e-5);
        EXPECT_FLOAT_EQ(s.compensationEv, 0.0f);
        EXPECT_TRUE(s.adapt);
        EXPECT_FLOAT_EQ(s.speedUpEv, 3.0f);  // every engine: 3 EV/s toward a brighter scene, 1 back
        EXPECT_FLOAT_EQ(s.speedDownEv, 1.0f);
        EXPECT_FLOAT_EQ(s.transitionEv, 1.5f);
        EXPECT_EQ(s.adaptationCurve, d.curve);
        EXPECT_EQ(s.meteringMask.mask, d.mask);
        post::PercentileSettings masked;
        masked.meteringMask.mask = post::MeteringMaskType::Ellipse;
        ASSERT_TRUE(post::applyEnginePreset(d.id, masked).ok);
        EXPECT_EQ(masked.meteringMask.mask, d.mask) << "a preset sets the metering mask too";
        const post::EnginePreset* preset = post::findEnginePreset(d.id);
        ASSERT_NE(preset, nullptr);
        EXPECT_FALSE(preset->label.empty());
        EXPECT_NE(preset->description.find("Not reproduced"), std::string_view::npos);
    }
}

TEST(EnginePresets, UnknownIdIsRefusedWithTheValidIdsAndChangesNothing)
{
    post::PercentileSettings s;
    s.key = 0.5f;
    const post::EnginePresetResult result = post::applyEnginePreset("unity", s);
    EXPECT_FALSE(result.ok);
    EXPECT_EQ(result.error, "unknown engine preset 'unity' (valid: unreal, unity-hdrp, bevy)");
    EXPECT_FLOAT_EQ(s.key, 0.5f);
    EXPECT_EQ(post::findEnginePreset(""), nullptr);
}

TEST(EnginePresets, SetsTheEngineDisplayCurveAndThePipelineHistogram)
{
    post::PercentileSettings s;
    s.display.curve = post::DisplayCurve::Hable;
    s.localBlend = 0.25f;
    post::PipelineSettings pipeline;
    pipeline.rangeMode = post::RangeMode::Auto;
    pipeline.spec.outOfRange = post::OutOfRange::Separate;
    const post::EnginePresetResult result = post::applyEnginePreset("unity-hdrp", s, pipeline);
    ASSERT_TRUE(result.ok);
    EXPECT_EQ(s.display.curve, post::DisplayCurve::AcesFit);  // HDRP's ACES mode
    EXPECT_FLOAT_EQ(s.localBlend, 0.25f);
    ASSERT_TRUE(post::applyEnginePreset("bevy", s).ok);
    EXPECT_EQ(s.display.curve, post::DisplayCurve::Reinhard);  // the stand-in for TonyMcMapface
    EXPECT_EQ(s.display.reinhardWhite, 0.0f);                  // no white point: no hard clip
    ASSERT_TRUE(post::applyEnginePreset("unreal", s).ok);
    EXPECT_EQ(s.display.curve, post::DisplayCurve::AcesFit);
    EXPECT_EQ(pipeline.spec.binCount, 128u);
    EXPECT_EQ(pipeline.rangeMode, post::RangeMode::Manual);
    EXPECT_EQ(pipeline.spec.outOfRange, post::OutOfRange::Clamp);
    EXPECT_FLOAT_EQ(pipeline.logMin, -4.0f);
    EXPECT_FLOAT_EQ(pipeline.logMax, 11.0f);

    post::PipelineSettings untouched;
    EXPECT_FALSE(post::applyEnginePreset("godot", s, untouched).ok);
    EXPECT_EQ(untouched.spec.binCount, post::PipelineSettings{}.spec.binCount);
}

TEST(EnginePresets, ReferenceFollowsEachEnginesDocumentedFormula)
{
    using preset_scenario::Timing;
    for (const post::EnginePreset& preset : post::enginePresets()) {
        for (Timing timing : {Timing::Fixed60, Timing::Variable, Timing::WithZeroDt}) {
            SCOPED_TRACE(std::string(preset.id) + " timing " + std::to_string(int(timing)));
            const auto frames = preset_scenario::luminanceStep(preset, timing);
            const auto expected =
                engine_model::trajectory(preset_scenario::engineOf(preset), preset_scenario::modelFrames(frames));
            const auto got = referenceTrajectory(preset, preset.settings, frames);
            ASSERT_EQ(got.size(), expected.size());
            // 1e-6: the settings hold the key, limits and range as float (log2(0.18f) is 6e-8 off).
            for (std::size_t i = 0; i < got.size(); ++i)
                ASSERT_NEAR(got[i], expected[i], 1e-6) << "frame " << i;
            // The step moves the exposure by EVs, so the comparison is not between two flat lines.
            EXPECT_GT(std::abs(expected[preset_scenario::kStepDown - 1] - expected[59]), 2.0);

            // The default (exact) curve leaves the engine's trajectory by several times the GL
            // test's tolerance (1e-3 EV): the curve matters and the comparison can fail.
            post::PercentileSettings exact = preset.settings;
            exact.adaptationCurve = AdaptationCurve::LinearThenExponential;
            const auto other = referenceTrajectory(preset, exact, frames);
            double worst = 0.0;
            for (std::size_t i = 0; i < other.size(); ++i)
                worst = std::max(worst, std::abs(other[i] - expected[i]));
            EXPECT_GT(worst, 5e-3);
        }
    }
}

}  // namespace
