// TextFitGlTest.cpp: no text item of the panels is cut short (ui/TextFit.h). Each panel is drawn as
// the app draws it, in the pane the layout gives it (ui::layOutPanels with the measured metrics: the
// settings column, the strip's Histogram and Exposure sections) in windows of 1280x720 and 1920x1080
// at UI scale 1 and 1.5, in a fixed window with the item width PanelColumns pushes (a real pipeline
// on the test context for the Pipeline panel, every tone operator and histogram method that runs
// here selected in turn; ImGui without a window or renderer), with realistic contents: long GL
// strings and scene descriptions, frame times of seconds, close histogram markers, negative axis
// values. The check can fail: a label too long for its column, a number past a plot's edge and a
// pane too narrow are reported.
#include "post/PostPipeline.h"
#include "scene/ScenePresets.h"
#include "support/GlTestEnvironment.h"
#include "support/HistogramTestSupport.h"
#include "support/ImGuiTestContext.h"
#include "support/TestPaths.h"
#include "ui/ExposurePanel.h"
#include "ui/FramePanel.h"
#include "ui/HistogramView.h"
#include "ui/ImGuiLayer.h"
#include "ui/PanelColumns.h"
#include "ui/PanelLayout.h"
#include "ui/PipelinePanel.h"
#include "ui/SplitPanel.h"
#include "ui/TextFit.h"
#include "ui/ViewPanel.h"

#include <imgui.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>

namespace {

namespace ts = testing_support;

/// The windows the layout makes at 1280x720 and 1920x1080 (ImGui units = pixels: no HiDPI) at UI
/// scales 1 and 1.5.
constexpr glm::vec2 kDisplays[] = {{1280.0f, 720.0f}, {1920.0f, 1080.0f}};
constexpr float kScales[] = {1.0f, 1.5f};

enum class Pane { Settings, Histogram, Exposure };

/// A bare ImGui context with the app's style and font at `scale`, and the panes the layout gives the
/// panels in a window of `display` (ui::layOutPanels with the measured metrics, as PanelColumns does).
class ImGuiAtScale
{
public:
    ImGuiAtScale(float scale, glm::vec2 display, const ui::PanelNames& names)
        : mContext(scale), mScale(scale), mDisplay(display)
    {
        mContext.newFrame(display);
        mMetrics = ui::measurePanels(names, scale);
        mContext.endFrame();
        mRects = ui::layOutPanels(display, {}, mMetrics, true);
    }

    const ui::LayoutRect& pane(Pane pane) const
    {
        return pane == Pane::Settings ? mRects.settings : pane == Pane::Histogram ? mRects.histogram : mRects.exposure;
    }
    std::string where(const char* panel, Pane which) const
    {
        return std::string(panel) + " in a " + std::to_string(int(mDisplay.x)) + "x" + std::to_string(int(mDisplay.y)) +
               " window at scale " + std::to_string(mScale) + ", " + std::to_string(int(pane(which).width)) + " wide";
    }

    /// Two frames (ImGui sizes some items from the frame before) of `draw` in a fixed window over the
    /// pane, with the item width PanelColumns::beginRegion pushes; returns what was cut short.
    std::vector<std::string> drawIn(Pane which, const std::function<void()>& draw)
    {
        const ui::LayoutRect& rect = pane(which);
        return drawPane(rect.width, rect.height, which == Pane::Settings, draw);
    }
    std::vector<std::string> drawPane(float width, float height, bool column, const std::function<void()>& draw)
    {
        ui::takeTextCutShort();
        for (int frame = 0; frame < 2; ++frame) {
            mContext.newFrame(mDisplay);
            ImGui::SetNextWindowPos(ImVec2(0.0f, 0.0f));
            ImGui::SetNextWindowSize(ImVec2(width, height));
            const ImGuiWindowFlags flags = ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoResize |
                                           ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                                           (column ? ImGuiWindowFlags_AlwaysVerticalScrollbar : 0);
            if (ImGui::Begin("##pane", nullptr, flags)) {
                const float inner = ImGui::GetContentRegionAvail().x;
                ImGui::PushItemWidth(-std::min(mMetrics.fieldLabelRoom, std::round(0.4f * inner)));
                draw();
                ImGui::PopItemWidth();
            }
            ImGui::End();
            ImGui::Render();
        }
        return ui::takeTextCutShort();
    }

private:
    testing_support::ImGuiContextAtScale mContext;
    float mScale;
    glm::vec2 mDisplay;
    ui::PanelMetrics mMetrics;
    ui::PanelRects mRects;
};

/// The names the layout sizes the settings column for (as the app collects them).
ui::PanelNames panelNames(const std::vector<scene::ScenePreset>& presets)
{
    return ui::collectPanelNames(ui::PipelinePanel(ts::testGpuCaps()), presets);
}

gl::GlInfo softwareGl()
{
    gl::GlInfo gl;
    gl.vendor = "Mesa";
    gl.renderer = "llvmpipe (LLVM 15.0.6, 256 bits)";
    gl.version = "4.5 (Core Profile) Mesa 22.3.6";
    gl.glslVersion = "4.50";
    gl.platform = "EGL surfaceless (Mesa)";
    return gl;
}

post::HistogramSnapshot histogramSnapshot()
{
    post::HistogramSnapshot s;
    s.frame = 1234;
    s.binCount = 128;
    s.logMin = -12.0f;
    s.logMax = 8.0f;
    for (std::uint32_t i = 0; i < s.binCount; ++i)
        s.bins.push_back(std::uint32_t(1000.0 * std::exp(-0.01 * (double(i) - 60.0) * (double(i) - 60.0))));
    s.curveLogMin = s.logMin;
    s.curveLogMax = s.logMax;
    for (int i = 0; i < 64; ++i)
        s.curve.push_back(float(i) / 63.0f);
    s.displayBins.assign(64, 10u);
    // Percentile's markers within a few pixels of each other, a probe among them, Ward's at the ends.
    s.markers = {{"p50", -3.4f},         {"p99", -3.2f},        {"key (target)", -3.1f},     {"key (now)", -3.0f},
                 {"probe mouse", -2.9f}, {"ward min", -11.95f}, {"ward log-average", -5.0f}, {"ward max", 7.95f}};
    return s;
}

class TextFitGlTest : public ts::GlTest
{
};

TEST_F(TextFitGlTest, NoTextOfTheSettingsColumnIsCutShort)
{
    const std::vector<scene::ScenePreset> presets = scene::listScenePresets(ts::sourceDir() / "scenes");
    ASSERT_FALSE(presets.empty());
    const gl::GlInfo gl = softwareGl();
    std::optional<post::HistogramSnapshot> histogram = histogramSnapshot();
    post::ProbeSample sample;
    sample.inside = sample.logValid = true;
    sample.frameSize = {1004, 748};
    sample.texel = {1003, 747};
    sample.rgb = {12345.678f, 0.000123f, 1.5f};
    sample.luminance = 8765.4321f;
    sample.log2Luminance = -13.0625f;
    sample.bin = 37;
    sample.binCount = 128;
    sample.displayLuminance = 0.123456f;
    sample.shown = {255, 128, 0, 255};
    std::optional<post::ProbeSnapshot> probe = post::ProbeSnapshot{123456, {sample}};
    std::optional<post::HistogramDifference> difference =
        post::HistogramDifference{true, "", 123456, std::vector<std::int64_t>(128, -12345), 12345, 1580160};

    const ui::PanelNames names = panelNames(presets);
    for (glm::vec2 display : kDisplays)
        for (float scale : kScales) {
            ImGuiAtScale imgui(scale, display, names);
            for (std::size_t preset = 0; preset < presets.size(); ++preset) {
                bool vsync = true;
                ui::FrameInfo info{gl, presets[preset].name, {1004, 748}, {1280, 720}, {}, true};
                info.frameTimeMs = util::Summary{300, 851.25, 851.25, 840.125, 1227.5, 12.5, 850.0};
                info.cameraHint = "WASD + right mouse: fly; camera path t = 12.34 s";
                info.presets = &presets;
                info.currentPreset = int(preset);
                info.description = presets[preset].description;
                info.lighting = scene::LightingPath::Deferred;
                info.frameFormat = scene::FrameFormat::Auto;
                info.frameStore =
                    "rgba16f, pre-exposed by 2^-3; clipped: 12345 pixels in 3 of 300 frames read back "
                    "(at most 6789 in one; the last: 0)";
                EXPECT_EQ(imgui.drawIn(Pane::Settings, [&] { ui::drawFramePanel(info, vsync); }),
                          std::vector<std::string>{})
                    << imgui.where("Frame", Pane::Settings) << ", scene " << presets[preset].name;
            }
            const post::LuminanceUnits units;
            for (post::ViewMode mode : {post::ViewMode::ToneMapped, post::ViewMode::FalseColour}) {
                const ui::ViewPanelInput input{mode, &histogram, &probe, {"mouse"}, units.describe()};
                EXPECT_EQ(imgui.drawIn(Pane::Settings, [&] { ui::drawViewPanel(input); }), std::vector<std::string>{})
                    << imgui.where("View", Pane::Settings);
            }
            for (post::SplitMode mode : {post::SplitMode::SideBySide, post::SplitMode::Difference}) {
                const ui::SplitPanelInput input{mode, 0.5f, 16.0f, &difference, "A: percentile", "B: ward"};
                EXPECT_EQ(imgui.drawIn(Pane::Settings, [&] { ui::drawSplitPanel(input); }), std::vector<std::string>{})
                    << imgui.where("Split view", Pane::Settings);
            }
        }
}

TEST_F(TextFitGlTest, NoTextOfThePipelinePanelIsCutShortUnderAnyOperatorOrMethod)
{
    post::PostPipeline pipeline(ts::shaderLibrary(), ts::testProfiler(), ts::testGpuCaps());
    ui::PipelinePanel panel(ts::testGpuCaps());
    const ui::PanelNames names = panelNames(scene::listScenePresets(ts::sourceDir() / "scenes"));
    std::vector<post::PipelineSettings> cases;
    for (const char* tone : {"ward", "percentile", "equalize", "exposure"}) {
        post::PipelineSettings settings = pipeline.settings();
        settings.toneOperator = tone;
        cases.push_back(settings);
    }
    post::PipelineSettings autoRange = pipeline.settings();
    autoRange.rangeMode = post::RangeMode::Auto;
    cases.push_back(autoRange);
    for (const post::HistogramMethodEntry& entry : post::histogramMethodRegistry()) {
        auto method = entry.create();
        if (!method || !method->availability(ts::testGpuCaps()).available || method->needsFusedProducer())
            continue;
        post::PipelineSettings settings = pipeline.settings();
        settings.histogramMethod = std::string(method->id());
        cases.push_back(settings);
    }
    ASSERT_GE(cases.size(), 8u) << "four operators, the auto range and at least three histogram methods";
    for (const post::PipelineSettings& settings : cases) {
        std::string refused;
        pipeline.applySettings(settings, &refused);
        ASSERT_EQ(pipeline.settings().histogramMethod, settings.histogramMethod) << refused;
        ASSERT_EQ(pipeline.settings().toneOperator, settings.toneOperator) << refused;
        for (glm::vec2 display : kDisplays)
            for (float scale : kScales) {
                ImGuiAtScale imgui(scale, display, names);
                EXPECT_EQ(imgui.drawIn(Pane::Settings, [&] { panel.draw(pipeline, ts::testProfiler()); }),
                          std::vector<std::string>{})
                    << imgui.where("Pipeline", Pane::Settings) << ", " << pipeline.settings().histogramMethod << " + "
                    << pipeline.settings().toneOperator;
            }
    }
}

TEST_F(TextFitGlTest, NoTextOfTheHistogramOrExposurePanesIsCutShort)
{
    const std::optional<post::HistogramSnapshot> snapshot = histogramSnapshot();
    post::ExposureHistory history(10.0);
    for (int i = 0; i < 600; ++i) {
        history.addFrame(std::uint64_t(i), i / 60.0, i % 7 ? 851.25 : 1227.5);
        history.setKeyValue(std::uint64_t(i), -13.5f + 0.01f * float(i % 50));
    }
    const ui::PanelNames names = panelNames(scene::listScenePresets(ts::sourceDir() / "scenes"));
    for (glm::vec2 display : kDisplays)
        for (float scale : kScales) {
            ImGuiAtScale imgui(scale, display, names);
            ui::HistogramView view;
            EXPECT_EQ(imgui.drawIn(Pane::Histogram, [&] { view.draw(snapshot, 1240); }), std::vector<std::string>{})
                << imgui.where("Histogram", Pane::Histogram);
            for (const char* name : {"key value", ""}) {
                ui::ExposurePanel panel;
                EXPECT_EQ(imgui.drawIn(Pane::Exposure, [&] { panel.draw(history, "percentile", name); }),
                          std::vector<std::string>{})
                    << imgui.where("Exposure", Pane::Exposure);
            }
        }
}

TEST_F(TextFitGlTest, TheTextCheckSeesALabelTooLongANumberPastAPlotAndANarrowPane)
{
    ImGuiAtScale imgui(1.0f, {1280.0f, 720.0f}, {});
    bool flag = false;
    // A label much wider than a settings column, drawn without a wrapper: the panel scope is the net.
    const std::vector<std::string> net = imgui.drawPane(280.0f, 300.0f, true, [&] {
        const ui::TextFitPanel scope("Test");
        ImGui::Checkbox("a label far too long for a settings column of this width", &flag);
    });
    ASSERT_EQ(net.size(), 1u);
    EXPECT_NE(net[0].find("in panel Test"), std::string::npos) << net[0];
    // The same through a wrapper names the item.
    const std::vector<std::string> named = imgui.drawPane(280.0f, 300.0f, true, [&] {
        const ui::TextFitPanel scope("Test");
        ui::text("%s", "a text far too long for a settings column of this width");
    });
    EXPECT_EQ(named,
              std::vector<std::string>{"'a text far too long for a settings column of this width' in panel Test"});
    // "-10" left of a plot's edge reads "10": reported.
    const std::vector<std::string> axis = imgui.drawPane(280.0f, 300.0f, true, [&] {
        const ImVec2 at = ImGui::GetCursorScreenPos();
        ui::drawTextIn(ImGui::GetWindowDrawList(), ImVec2(at.x - 8.0f, at.y), IM_COL32_WHITE, "-10", at,
                       ImVec2(at.x + 100.0f, at.y + 20.0f));
    });
    EXPECT_EQ(axis, std::vector<std::string>{"'-10'"});
    // Wrapped text never breaks inside "0.000": its lines fit, so nothing is reported.
    EXPECT_EQ(imgui.drawPane(120.0f, 300.0f, true, [] { ui::textWrapped("flicker 0.000 EV/s"); }),
              std::vector<std::string>{});
    // A pane far narrower than any layout gives: the Histogram reports what it cannot fit.
    const std::optional<post::HistogramSnapshot> snapshot = histogramSnapshot();
    ui::HistogramView view;
    EXPECT_FALSE(imgui.drawPane(90.0f, 180.0f, false, [&] { view.draw(snapshot, 1240); }).empty());
}

}  // namespace
