// PanelLayoutGlTest.cpp: the Pipeline panel, drawn as the app draws it at the top of the settings
// column (a real pipeline on the test context; ImGui without a window or renderer). At 1280x720 (UI
// scale 1) and 1920x1080 its method, scan and operator combos lie inside the column's visible part
// with the column scrolled to its top, for the default settings and with the percentile operator (its
// engine preset combo drawn too); with a column pushed down by a tall panel above it they do not (the
// check can fail). No name is cut short: labelled names fit beside their label, and the Pipeline
// panel's method, scan and operator combos (as wide as the column) wrap a long name (beginNameCombo).
// The settings file's Save and Load (ui::SettingsFileWidget) keep the layout with the
// pipeline's keys.
#include "post/PostPipeline.h"
#include "post/SettingsFile.h"
#include "support/GlTestEnvironment.h"
#include "support/HistogramTestSupport.h"
#include "support/ImGuiTestContext.h"
#include "support/TestPaths.h"
#include "ui/ImGuiLayer.h"
#include "ui/PanelColumns.h"
#include "ui/PipelinePanel.h"
#include "ui/SettingsFileWidget.h"

#include <imgui.h>

#include <gtest/gtest.h>

#include <algorithm>

namespace {

namespace ts = testing_support;

struct PipelinePanelDrawn
{
    std::vector<std::string> cutShort;
    std::vector<std::string> notVisible;  ///< of the method, scan and operator combos
    std::vector<std::string> columnWide;
};

/// Draws the Pipeline panel at the top of the settings column, after `spaceAbove` units of other
/// panels, with `toneOperator`.
PipelinePanelDrawn drawPipelinePanel(float scale, glm::vec2 display, const std::string& toneOperator, float spaceAbove)
{
    ts::ImGuiContextAtScale context(scale);
    post::PostPipeline pipeline(ts::shaderLibrary(), ts::testProfiler(), ts::testGpuCaps());
    post::PipelineSettings settings = pipeline.settings();
    settings.toneOperator = toneOperator;
    pipeline.applySettings(settings);
    ui::PipelinePanel panel(ts::testGpuCaps());
    ui::PanelColumns columns(ui::collectPanelNames(panel, {}));
    PipelinePanelDrawn drawn;
    drawn.columnWide = panel.comboNames();
    ui::takeNamesCutShort();
    for (int frame = 0; frame < 2; ++frame) {
        context.newFrame(display);
        columns.arrange(scale, true);
        if (columns.beginRegion(ui::PanelRegion::Settings)) {
            if (spaceAbove > 0.0f)
                ImGui::Dummy(ImVec2(1.0f, spaceAbove));
            if (columns.beginSection(ui::SettingsSection::Pipeline, "Pipeline")) {
                panel.draw(pipeline, ts::testProfiler());
                ui::endPanel();
            }
            columns.endRegion();
        }
        ImGui::Render();
    }
    const post::ScanMethod* scan = pipeline.scanMethod();
    for (const std::string& name :
         {std::string(pipeline.histogramMethod().label()), scan ? std::string(scan->label()) : std::string(),
          std::string(pipeline.toneOperator().label())}) {
        if (name.empty())
            continue;
        const ui::ComboPlacement* placement = ui::findComboShowing(name);
        if (!placement || !placement->visibleWithoutScrolling())
            drawn.notVisible.push_back(name);
    }
    drawn.cutShort = ui::takeNamesCutShort();
    return drawn;
}

class PanelLayoutGlTest : public ts::GlTest
{
};

TEST_F(PanelLayoutGlTest, TheMethodScanAndOperatorCombosAreInSightWithoutScrolling)
{
    for (const glm::vec2 display : {glm::vec2(1280, 720), glm::vec2(1920, 1080)})
        for (const char* op : {"ward", "percentile"}) {
            const PipelinePanelDrawn drawn = drawPipelinePanel(1.0f, display, op, 0.0f);
            EXPECT_EQ(drawn.notVisible, std::vector<std::string>{}) << op << " at " << display.x << "x" << display.y;
            // Every name fits: labelled names (the percentile's engine presets, the policies) beside
            // their label, method, scan and operator names wrapped by beginNameCombo.
            EXPECT_EQ(drawn.cutShort, std::vector<std::string>{}) << op << " at " << display.x << "x" << display.y;
        }
    // Pushed below the fold by a tall panel above it: the check sees it.
    const PipelinePanelDrawn pushed = drawPipelinePanel(1.0f, {1280, 720}, "ward", 600.0f);
    EXPECT_FALSE(pushed.notVisible.empty()) << "the check did not see a combo below the fold";
}

TEST_F(PanelLayoutGlTest, SaveAndLoadKeepTheLayoutWithThePipelinesKeys)
{
    post::PostPipeline pipeline(ts::shaderLibrary(), ts::testProfiler(), ts::testGpuCaps());
    const std::filesystem::path file = ts::scratchDir("panel-layout-settings") / "s.json";
    ui::PanelLayoutState layout;
    layout.settingsWidth = 300.0f;
    layout.stripOpen = false;
    layout.sectionOpen[int(ui::SettingsSection::View)] = false;
    ui::SettingsFileWidget widget;
    widget.setPath(file.string());
    widget.setLayout(&layout);
    ASSERT_TRUE(widget.save(pipeline)) << widget.status();

    ui::PanelLayoutState loaded;
    ui::SettingsFileWidget reader;
    reader.setPath(file.string());
    reader.setLayout(&loaded);
    ASSERT_TRUE(reader.load(pipeline)) << reader.status();
    EXPECT_EQ(loaded, layout);
    // The pipeline's own reading (--settings, tonemap, bench) takes the file with its layout keys.
    EXPECT_NO_THROW(post::readSettingsFile(file));
}

}  // namespace
