// Engine presets on the GPU (llvmpipe): the percentile operator with each preset applied runs the
// scripted luminance step (60 frames at about 1 cd/m^2, 180 at about 64, 420 back) with fixed 1/60 s,
// variable and partly zero frame times; the exposure read back from the operator's GPU state after
// every frame must follow the CPU model of that engine's documented formula (EngineExposureModels.h)
// within 1e-3 EV (float32 on the GPU against double; observed errors are about 1e-5). Zero-dt
// frames must leave the exposure bit for bit. Also: the preset queues its histogram once, and the
// pipeline takes it (as the pipeline panel does) without replacing the operator or its settings.
#include "post/EnginePresetScenarios.h"
#include "post/PostPipeline.h"
#include "post/ToneGlTestSupport.h"
#include "post/histogram/HistogramRegistry.h"
#include "post/tonemap/TonePercentile.h"
#include "post/tonemap/ToneShaders.h"

#include <cmath>
#include <string>

namespace ts = testing_support;

namespace {

constexpr double kToleranceEv = 1e-3;

class EnginePresetsGl : public ts::GlTest
{
protected:
    void SetUp() override
    {
        rig.setImage(ts::binCentreImage(8, 4, -4.0f, 4.0f, 8, 1));
        method = post::createHistogramMethod("compute-shared-atomic");
        ASSERT_TRUE(method);
    }
    tone_test::ToneRig rig;
    std::unique_ptr<post::HistogramMethod> method;
};

TEST_F(EnginePresetsGl, ExposureFollowsEachEnginesFormulaFrameByFrame)
{
    using preset_scenario::Timing;
    for (const post::EnginePreset& preset : post::enginePresets()) {
        for (Timing timing : {Timing::Fixed60, Timing::Variable, Timing::WithZeroDt}) {
            SCOPED_TRACE(std::string(preset.id) + " timing " + std::to_string(int(timing)));
            const auto frames = preset_scenario::luminanceStep(preset, timing);
            const auto expected =
                engine_model::trajectory(preset_scenario::engineOf(preset), preset_scenario::modelFrames(frames));
            post::TonePercentile op;
            ASSERT_TRUE(op.applyPreset(preset.id).ok);
            // The scripted step is a histogram, while a metering mask weighs the image's pixels: the
            // formulas are checked on the histogram (HDRP's centre weighting in MeteringMaskGl).
            post::PercentileSettings unmasked = op.settings();
            unmasked.meteringMask.mask = post::MeteringMaskType::Average;
            op.setSettings(unmasked);
            double worst = 0.0;
            float previous = 0.0f;
            for (std::size_t i = 0; i < frames.size(); ++i) {
                rig.setHistogram(frames[i].bins, preset.histogram.logMin, preset.histogram.logMax);
                rig.run(op, *method, frames[i].model.dtSeconds);
                const auto state = op.stateBuffer().readAll<float>(post::percentile_state::kWords);
                const float exposure = state[post::percentile_state::kExposure];
                ASSERT_NEAR(exposure, expected[i], kToleranceEv) << "frame " << i;
                worst = std::max(worst, std::abs(exposure - expected[i]));
                if (i > 0 && frames[i].model.dtSeconds == 0.0)
                    ASSERT_EQ(exposure, previous) << "frame " << i << " has dt = 0";
                previous = exposure;
            }
            EXPECT_GT(std::abs(expected[preset_scenario::kStepDown - 1] - expected[59]),
                      2.0);  // the step really moves the exposure
            RecordProperty(std::string(preset.id) + "_" + std::to_string(int(timing)) + "_worst_ev",
                           std::to_string(worst));
        }
    }
}

TEST_F(EnginePresetsGl, PresetQueuesItsHistogramOnceAndRefusesUnknownIds)
{
    post::TonePercentile op;
    EXPECT_FALSE(op.takeHistogramRequest());
    const post::EnginePresetResult bad = op.applyPreset("frostbite");
    EXPECT_FALSE(bad.ok);
    EXPECT_NE(bad.error.find("unreal, unity-hdrp, bevy"), std::string::npos);
    EXPECT_FALSE(op.takeHistogramRequest());

    ASSERT_TRUE(op.applyPreset("unity-hdrp").ok);
    const std::optional<post::HistogramRequest> request = op.takeHistogramRequest();
    ASSERT_TRUE(request);
    EXPECT_EQ(request->bins, 128u);
    EXPECT_FLOAT_EQ(request->logMin, -4.0f);
    EXPECT_FLOAT_EQ(request->logMax, 11.0f);
    EXPECT_FALSE(op.takeHistogramRequest());
    EXPECT_EQ(op.settings().adaptationCurve, post::AdaptationCurve::Exponential);
}

TEST_F(EnginePresetsGl, PipelineTakesThePresetsHistogramAndKeepsTheOperator)
{
    post::PostPipeline pipeline(ts::shaderLibrary(), ts::testProfiler(), ts::testGpuCaps());
    post::PipelineSettings wanted = pipeline.settings();
    wanted.toneOperator = "percentile";
    wanted.rangeMode = post::RangeMode::Auto;
    ASSERT_TRUE(pipeline.applySettings(wanted));
    auto* op = dynamic_cast<post::TonePercentile*>(&pipeline.toneOperator());
    ASSERT_NE(op, nullptr);
    ASSERT_TRUE(op->applyPreset("unreal").ok);

    // What the pipeline panel does after the operator's ui().
    const std::optional<post::HistogramRequest> request = op->takeHistogramRequest();
    ASSERT_TRUE(request);
    wanted = pipeline.settings();
    post::applyHistogramRequest(*request, wanted);
    ASSERT_TRUE(pipeline.applySettings(wanted));

    EXPECT_EQ(pipeline.settings().spec.binCount, 64u);
    EXPECT_EQ(pipeline.settings().rangeMode, post::RangeMode::Manual);
    EXPECT_EQ(pipeline.settings().spec.outOfRange, post::OutOfRange::Clamp);
    EXPECT_FLOAT_EQ(pipeline.settings().logMin, -8.0f);
    EXPECT_FLOAT_EQ(pipeline.settings().logMax, 4.0f);
    EXPECT_EQ(&pipeline.toneOperator(), op);  // the same operator, so the preset's settings stay
    EXPECT_EQ(op->settings().adaptationCurve, post::AdaptationCurve::UnrealSteps);
    EXPECT_FLOAT_EQ(op->settings().bandLow, 10.0f);
}

}  // namespace
