// PanelLayoutGlTest.cpp: the Pipeline panel, drawn as the app draws it in the left column (a real
// pipeline on the test context; ImGui without a window or renderer), finds no method, scan or
// operator name cut short at 1280x720 (UI scale 1) and 2560x1440 (scale 2); in a column too narrow
// for them it does (the check can fail). The percentile operator is selected, so its engine preset
// combo is drawn too.
#include "post/PostPipeline.h"
#include "support/GlTestEnvironment.h"
#include "support/HistogramTestSupport.h"
#include "ui/ImGuiLayer.h"
#include "ui/PanelColumns.h"
#include "ui/PipelinePanel.h"

#include <imgui.h>

#include <gtest/gtest.h>

#include <algorithm>

namespace {

namespace ts = testing_support;

std::vector<std::string> drawPipelinePanel(float scale, glm::vec2 display)
{
    ImGuiContext* context = ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr;
    ImGui::GetIO().DeltaTime = 1.0f / 60.0f;
    ui::applyUiScale(scale, 1.0f);
    post::PostPipeline pipeline(ts::shaderLibrary(), ts::testProfiler(), ts::testGpuCaps());
    post::PipelineSettings settings = pipeline.settings();
    settings.toneOperator = "percentile";
    pipeline.applySettings(settings);
    ui::PipelinePanel panel(ts::testGpuCaps());
    ui::PanelColumns columns(ui::collectPanelNames(panel, {}));
    ui::takeNamesCutShort();
    for (int frame = 0; frame < 2; ++frame) {
        ImGui::GetIO().DisplaySize = ImVec2(display.x, display.y);
        ImGui::NewFrame();
        columns.arrange(scale, true);
        if (columns.beginRegion(ui::PanelRegion::Left)) {
            if (ui::beginPanel("Pipeline")) {
                panel.draw(pipeline, ts::testProfiler());
                ui::endPanel();
            }
            columns.endRegion();
        }
        ImGui::Render();
    }
    ImGui::DestroyContext(context);
    return ui::takeNamesCutShort();
}

class PanelLayoutGlTest : public ts::GlTest
{
};

TEST_F(PanelLayoutGlTest, ThePipelinePanelCutsNoNameShort)
{
    EXPECT_EQ(drawPipelinePanel(1.0f, {1280, 720}), std::vector<std::string>{});
    EXPECT_EQ(drawPipelinePanel(2.0f, {2560, 1440}), std::vector<std::string>{});
    const std::vector<std::string> cut = drawPipelinePanel(1.0f, {400, 400});
    EXPECT_TRUE(std::count(cut.begin(), cut.end(), "Compute: shared-memory atomics, linear index (first version)"))
        << "the check did not see a narrow column";
}

}  // namespace
