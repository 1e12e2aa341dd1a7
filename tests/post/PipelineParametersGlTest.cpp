// PipelineParametersGlTest.cpp: settings as data on a live pipeline: a key changes the same field the
// UI's widget does (and the other way round), the settings of an operator not in use are kept and
// applied when it is chosen, every key takes its default and another valid value, save -> load gives
// identical values for every key, the UI's Save/Load report errors instead of throwing, and a saved UI
// session reproduces its picture through --settings.
#include "app/AppOptions.h"
#include "app/AppSetup.h"
#include "image/ImageIo.h"
#include "post/PipelineParameters.h"
#include "post/PostPipeline.h"
#include "post/SettingsFile.h"
#include "post/tonemap/TonePercentile.h"
#include "post/tonemap/ToneWard.h"
#include "support/GlTestEnvironment.h"
#include "support/HistogramTestSupport.h"
#include "support/TestPaths.h"
#include "ui/SettingsFileWidget.h"

#include <fstream>

namespace ts = testing_support;

namespace {

class PipelineParametersGl : public ts::GlTest
{
protected:
    std::unique_ptr<post::PostPipeline> makePipeline()
    {
        return std::make_unique<post::PostPipeline>(ts::shaderLibrary(), ts::testProfiler(), ts::testGpuCaps());
    }
};

/// Other values worth trying for a key, nearest the default first.
std::vector<std::string> otherValues(const post::ParameterInfo& info)
{
    std::vector<std::string> out;
    switch (info.type) {
        case post::ParameterType::Bool:
            out.push_back(std::get<bool>(info.defaultValue) ? "false" : "true");
            break;
        case post::ParameterType::Int: {
            const double d = double(std::get<std::int64_t>(info.defaultValue));
            for (double v : {d * 2.0, d + 1.0, d - 1.0, info.min, info.max})
                if (v != d && v >= info.min && v <= info.max)
                    out.push_back(std::to_string(std::int64_t(v)));
            break;
        }
        case post::ParameterType::Float: {
            const double d = std::get<double>(info.defaultValue);
            for (double v : {d * 0.5, d + 0.5, d - 0.5, d * 2.0, (info.min + info.max) / 2.0, info.min, info.max})
                if (v != d && v >= info.min && v <= info.max)
                    out.push_back(post::formatParameterValue(info, v));
            break;
        }
        case post::ParameterType::Enum:
            for (const std::string& choice : info.choices)
                if (choice != std::get<std::string>(info.defaultValue))
                    out.push_back(choice);
            break;
        case post::ParameterType::Text: {  // a file path (percentile.mask_texture): a real 1x1 PNG
            image::Image8 mask;
            mask.width = mask.height = mask.channels = 1;
            mask.pixels = {128};
            const std::filesystem::path path = ts::scratchDir("parameters-text") / "mask.png";
            image::writePng(path, mask);
            out.push_back(path.string());
            break;
        }
        case post::ParameterType::Points:  // one point, then two (the canonical text each parses to)
            out.push_back("-4:1");
            out.push_back("-6:-1.5,2:0.5");
            break;
    }
    return out;
}

TEST_F(PipelineParametersGl, KeyAndUiChangeTheSameState)
{
    auto pipeline = makePipeline();
    post::PipelineParameters parameters(*pipeline);
    ASSERT_EQ(pipeline->toneOperator().id(), "ward");
    auto& ward = dynamic_cast<post::ToneWard&>(pipeline->toneOperator());

    // --set -> the field ToneWard::ui() edits.
    parameters.set("ward.display_max", "250");
    parameters.set("ward.human_contrast", "true");
    EXPECT_EQ(ward.settings().displayMax, 250.0f);
    EXPECT_TRUE(ward.settings().humanContrast);
    // The UI's change (it writes the same struct) -> the key.
    post::WardSettings s = ward.settings();
    s.sceneScale = 3.5f;
    ward.setSettings(s);
    EXPECT_EQ(parameters.get("ward.scene_scale"), "3.5");

    // Pipeline keys: the same PipelineSettings the panel's widgets change through applySettings.
    parameters.set("histogram.bins", "512");
    EXPECT_EQ(pipeline->settings().spec.binCount, 512u);
    post::PipelineSettings wanted = pipeline->settings();
    wanted.rangeMode = post::RangeMode::Auto;
    wanted.downsample = 4;
    pipeline->applySettings(wanted);
    EXPECT_EQ(parameters.get("histogram.range"), "auto");
    EXPECT_EQ(parameters.get("histogram.downsample"), "4");
}

TEST_F(PipelineParametersGl, SettingsOfAnOperatorNotInUseAreKept)
{
    auto pipeline = makePipeline();
    post::PipelineParameters parameters(*pipeline);
    parameters.set("percentile.key", "0.3");  // ward is in use: parked
    EXPECT_EQ(parameters.get("percentile.key"), "0.3");
    parameters.set("ward.bins", "64");
    parameters.set("tonemap.operator", "percentile");
    EXPECT_EQ(dynamic_cast<post::TonePercentile&>(pipeline->toneOperator()).settings().key, 0.3f);
    EXPECT_EQ(parameters.get("ward.bins"), "64");  // ward's now parked

    // The UI's combo switches through applySettings: the settings survive a round trip too.
    post::PipelineSettings wanted = pipeline->settings();
    wanted.toneOperator = "ward";
    pipeline->applySettings(wanted);
    EXPECT_EQ(dynamic_cast<post::ToneWard&>(pipeline->toneOperator()).settings().bins, 64u);
    wanted.toneOperator = "percentile";
    pipeline->applySettings(wanted);
    EXPECT_EQ(dynamic_cast<post::TonePercentile&>(pipeline->toneOperator()).settings().key, 0.3f);
}

TEST_F(PipelineParametersGl, EveryKeyTakesItsDefaultAndAnotherValue)
{
    auto pipeline = makePipeline();
    post::PipelineParameters parameters(*pipeline);
    int skipped = 0;
    for (const post::ParameterInfo& info : post::listParameters()) {
        const std::string def = post::formatParameterValue(info, info.defaultValue);
        ASSERT_NO_THROW(parameters.set(info.key, def)) << info.key;
        EXPECT_EQ(parameters.get(info.key), def) << info.key;

        bool took = false, onlyUnavailable = true;
        std::string errors;
        for (const std::string& value : otherValues(info)) {
            try {
                parameters.set(info.key, value);
            } catch (const std::runtime_error& error) {
                errors += std::string(error.what()) + "\n";
                EXPECT_EQ(std::string(error.what()).find("--set: " + info.key + ": "), 0u) << error.what();
                const std::string what = error.what();
                onlyUnavailable &=
                    what.find("unavailable") != std::string::npos || what.find("CUDA") != std::string::npos;
                continue;
            }
            if (parameters.get(info.key) == value) {
                took = true;
                break;
            }
        }
        if (!took && onlyUnavailable && !errors.empty()) {
            ++skipped;  // e.g. tonemap.view_local_mean needs CUDA here
            continue;
        }
        EXPECT_TRUE(took) << info.key << " took none of its other values: " << errors;
        parameters.set(info.key, def);
    }
    EXPECT_LE(skipped, 1) << "keys skipped because what they choose is unavailable here";
}

TEST_F(PipelineParametersGl, EnginePresetKeySetsTheOperatorAndTheHistogramAndReadsBackCustomAfterAnEdit)
{
    auto pipeline = makePipeline();
    post::PipelineParameters parameters(*pipeline);
    parameters.apply({{"tonemap.operator", "percentile", "--set"}, {"histogram.bins", "256", "--set"}});
    EXPECT_EQ(parameters.get("percentile.preset"), "custom");
    // After the batch's pipeline keys: the preset's histogram wins over histogram.bins in the batch.
    parameters.apply({{"histogram.bins", "512", "--set"}, {"percentile.preset", "unity-hdrp", "--set"}});
    EXPECT_EQ(parameters.get("percentile.preset"), "unity-hdrp");
    EXPECT_EQ(parameters.get("histogram.bins"), "128");
    EXPECT_EQ(parameters.get("histogram.range"), "manual");
    EXPECT_EQ(parameters.get("histogram.log_min"), "-4");
    EXPECT_EQ(parameters.get("histogram.log_max"), "11");
    EXPECT_EQ(parameters.get("percentile.adaptation_curve"), "exponential");
    EXPECT_EQ(parameters.get("percentile.band_low"), "40");
    // The histogram request was taken: the panel does not apply it a second time.
    EXPECT_FALSE(pipeline->toneOperator().takeHistogramRequest().has_value());
    // Keys after the preset refine it; the settings no longer equal any preset.
    parameters.set("percentile.key", "0.3");
    EXPECT_EQ(parameters.get("percentile.preset"), "custom");
    parameters.set("percentile.preset", "unreal");
    EXPECT_EQ(parameters.get("percentile.preset"), "unreal");
    EXPECT_EQ(parameters.get("histogram.bins"), "64");
    EXPECT_EQ(parameters.get("percentile.key"), "0.18");
}

TEST_F(PipelineParametersGl, SaveThenLoadGivesIdenticalValuesForEveryKey)
{
    auto first = makePipeline();
    post::PipelineParameters a(*first);
    a.apply({{"tonemap.operator", "percentile", "t"},
             {"percentile.metering", "band-average", "t"},
             {"percentile.band_low", "20", "t"},
             {"percentile.display_curve", "hable", "t"},
             {"ward.display_min", "0.5", "t"},
             {"ward.display_max", "300", "t"},
             {"exposure.exposure_ev", "-1.25", "t"},
             {"equalize.encoded_output", "true", "t"},
             {"histogram.method", "scatter-blend", "t"},
             {"scatter-blend.local_histograms", "4", "t"},
             {"green-occlusion.mode", "valve", "t"},
             {"histogram.bins", "128", "t"},
             {"histogram.log_min", "-12.5", "t"},
             {"histogram.log_max", "22", "t"},
             {"histogram.out_of_range", "separate", "t"},
             {"histogram.downsample", "2", "t"}});
    const std::filesystem::path file = ts::scratchDir("settings-roundtrip") / "s.json";
    post::writeSettingsFile(file, a);

    auto second = makePipeline();
    post::PipelineParameters b(*second);
    post::loadSettingsFile(file, b);
    const auto expected = a.values();
    const auto got = b.values();
    ASSERT_EQ(got.size(), expected.size());
    for (std::size_t i = 0; i < got.size(); ++i)
        EXPECT_EQ(got[i], expected[i]) << expected[i].first;
    EXPECT_EQ(second->histogramMethod().id(), "scatter-blend");
    EXPECT_EQ(dynamic_cast<post::TonePercentile&>(second->toneOperator()).settings().display.curve,
              post::DisplayCurve::Hable);
    std::filesystem::remove(file);
}

TEST_F(PipelineParametersGl, RefusedChoicesNameTheKeyAndChangeNothingWhenAValueIsBad)
{
    auto pipeline = makePipeline();
    post::PipelineParameters parameters(*pipeline);
    // A bad value anywhere in a batch: nothing of it is applied.
    try {
        parameters.apply({{"histogram.bins", "64", "f.json:2"}, {"ward.bins", "0", "f.json:3"}});
        FAIL() << "ward.bins=0 was accepted";
    } catch (const std::runtime_error& error) {
        EXPECT_EQ(std::string(error.what()).rfind("f.json:3: ward.bins: ", 0), 0u) << error.what();
    }
    EXPECT_EQ(parameters.get("histogram.bins"), "256");
    // A range whose min is not below its max is refused by the pipeline, naming the key.
    try {
        parameters.set("histogram.log_min", "30");
        FAIL() << "log_min above log_max was accepted";
    } catch (const std::runtime_error& error) {
        EXPECT_EQ(std::string(error.what()).rfind("--set: histogram.log_min: invalid range", 0), 0u) << error.what();
    }
    // Both ends in one batch may move past each other.
    parameters.apply({{"histogram.log_min", "30", "--set"}, {"histogram.log_max", "40", "--set"}});
    EXPECT_EQ(pipeline->settings().logMin, 30.0f);
    EXPECT_EQ(pipeline->settings().logMax, 40.0f);
}

TEST_F(PipelineParametersGl, UiSaveAndLoadReportErrorsInsteadOfThrowing)
{
    auto pipeline = makePipeline();
    const std::filesystem::path dir = ts::scratchDir("settings-ui");
    ui::SettingsFileWidget widget;
    EXPECT_EQ(widget.path(), ui::SettingsFileWidget::kDefaultPath);
    widget.setPath((dir / "ui.json").string());
    post::PipelineParameters(*pipeline).set("ward.display_max", "123");
    ASSERT_TRUE(widget.save(*pipeline)) << widget.status();
    EXPECT_NE(widget.status().find("ui.json"), std::string::npos) << widget.status();

    auto other = makePipeline();
    ASSERT_TRUE(widget.load(*other)) << widget.status();
    EXPECT_EQ(dynamic_cast<post::ToneWard&>(other->toneOperator()).settings().displayMax, 123.0f);

    std::ofstream(dir / "bad.json") << "{\"ward.display_max\": 1e9}";
    widget.setPath((dir / "bad.json").string());
    EXPECT_FALSE(widget.load(*other));
    EXPECT_NE(widget.status().find("bad.json:1: ward.display_max"), std::string::npos) << widget.status();
    widget.setPath((dir / "no-such-folder" / "x.json").string());
    EXPECT_FALSE(widget.save(*other));
    EXPECT_NE(widget.status().find("save failed"), std::string::npos) << widget.status();
    std::filesystem::remove_all(dir);
}

}  // namespace

namespace {

/// Runs `frames` frames (1/60 s each) of the same HDR image and returns the last display image.
std::vector<std::uint8_t> lastPicture(post::PostPipeline& pipeline, const gl::Texture& hdr, glm::ivec2 size, int frames)
{
    for (int i = 0; i < frames; ++i)
        pipeline.run({hdr, size}, 1.0 / 60.0, 60.0f);
    return pipeline.outputTexture().readRgba8();
}

}  // namespace

// "A headless run with --settings reproduces a UI session's picture": a session changes methods and
// operator settings the way the panels do (applySettings, the operator's settings struct, an engine
// preset), the Settings file row saves them, and the function the headless app applies --settings
// with (app::applyRequestedSettings) turns a fresh pipeline into one that draws the same bytes.
TEST_F(PipelineParametersGl, AUiSessionSavedToAFileGivesTheSamePictureThroughTheSettingsFlag)
{
    const glm::ivec2 size{83, 47};
    const ts::TestImage image = ts::randomHdrImage(size.x, size.y, -6.0f, 9.0f, 77);
    const gl::Texture hdr = ts::uploadImage(image);
    constexpr int kFrames = 12;  // adaptation in flight: the state must match too

    auto session = makePipeline();
    post::PipelineSettings wanted = session->settings();
    wanted.toneOperator = "percentile";
    wanted.scanMethod = "compute-blelloch";
    session->applySettings(wanted);
    auto& percentile = dynamic_cast<post::TonePercentile&>(session->toneOperator());
    ASSERT_TRUE(percentile.applyPreset("unity-hdrp").ok);
    const std::optional<post::HistogramRequest> request = percentile.takeHistogramRequest();  // as the panel does
    ASSERT_TRUE(request);
    wanted = session->settings();
    post::applyHistogramRequest(*request, wanted);
    wanted.downsample = 2;
    session->applySettings(wanted);
    post::PercentileSettings edited = percentile.settings();
    edited.compensationEv = 1.25f;
    percentile.setSettings(edited);
    const std::filesystem::path dir = ts::scratchDir("settings-session");
    ui::SettingsFileWidget widget;
    widget.setPath((dir / "session.json").string());
    ASSERT_TRUE(widget.save(*session)) << widget.status();
    const std::vector<std::uint8_t> sessionPicture = lastPicture(*session, hdr, size, kFrames);

    app::AppOptions options;
    options.settingsFile = dir / "session.json";
    auto headless = makePipeline();
    const std::vector<std::uint8_t> defaultPicture = lastPicture(*makePipeline(), hdr, size, kFrames);
    app::applyRequestedSettings(*headless, options);
    EXPECT_EQ(post::PipelineParameters(*headless).get("percentile.compensation_ev"), "1.25");
    const std::vector<std::uint8_t> headlessPicture = lastPicture(*headless, hdr, size, kFrames);
    EXPECT_EQ(headlessPicture, sessionPicture);
    EXPECT_NE(defaultPicture, sessionPicture)
        << "the session's settings must change the picture, or this proves nothing";
    std::filesystem::remove_all(dir);
}
