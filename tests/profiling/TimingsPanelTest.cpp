// TimingsPanelTest.cpp: the Timings panel drawn in a bare ImGui context (the app's style and font,
// built on the CPU) over a profiler fed the default pipeline's pass tree: at UI scale 1 the table
// (pass, mean, min, max, source), its legend and the capture controls fit a 420 px pane without
// sideways scrolling, and minimumWidth() says so; names too long for that make minimumWidth() grow
// (the measure can fail), and it follows the UI scale. Also the headers: each time column names its
// unit, none says "GPU".
#include "profiling/Profiler.h"
#include "profiling/TimingRows.h"
#include "support/GlTestEnvironment.h"
#include "support/ImGuiTestContext.h"
#include "ui/ImGuiLayer.h"
#include "ui/PanelLayout.h"
#include "ui/TimingsPanel.h"

#include <imgui.h>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

using profiling::Profiler;

using testing_support::ImGuiContextAtScale;

/// Frames of the default pipeline's passes (the scene's shadow map reused), until statistics show.
void runDefaultPipeline(Profiler& profiler, const std::string& histogramId)
{
    for (int frame = 0; frame < Profiler::kWarmupFrames + 4; ++frame) {
        profiler.beginFrame();
        {
            auto scene = profiler.scope("scene");
            profiler.markCached("scene/shadow");
            {
                auto shadowNear = profiler.scope("scene/shadowNear");
            }
            auto lighting = profiler.scope("scene/lighting");
        }
        {
            auto downsample = profiler.scope("downsample");
        }
        {
            auto histogram = profiler.scope("histogram/" + histogramId);
            auto count = profiler.scope("histogram/" + histogramId + "/count");
        }
        {
            auto scan = profiler.scope("scan/compute-brent-kung");
        }
        {
            auto tonemap = profiler.scope("tonemap/percentile");
            {
                auto curve = profiler.scope("tonemap/percentile/curve");
                auto metering = profiler.scope("tonemap/percentile/metering");
                auto weights = profiler.scope("tonemap/percentile/metering/weights");
            }
            auto apply = profiler.scope("tonemap/percentile/apply");
        }
        for (const char* view : {"view/readback", "view/probe", "view/false-colour"})
            auto scope = profiler.scope(view);
        {
            auto ui = profiler.scope("ui");
        }
        profiler.endFrame();
    }
}

struct Drawn
{
    float minimumWidth = 0.0f;
    float scrollMaxX = 0.0f;
    std::size_t rows = 0;
};

/// Draws the panel twice (ImGui sizes content from the previous frame) in a pane `width` px wide.
Drawn drawPanel(const Profiler& profiler, float scale, float width)
{
    ImGuiContextAtScale context(scale);
    ui::TimingsPanel panel;
    Drawn drawn;
    for (int frame = 0; frame < 3; ++frame) {
        context.newFrame({1280.0f * scale, 720.0f * scale});
        ImGui::SetNextWindowPos(ImVec2(0.0f, 0.0f));
        ImGui::SetNextWindowSize(ImVec2(width, 600.0f * scale));
        ImGui::Begin("Timings", nullptr, ImGuiWindowFlags_HorizontalScrollbar);
        panel.draw(profiler, "wrote hdrlab-capture.json", ui::CaptureMode::Idle);
        drawn.scrollMaxX = ImGui::GetScrollMaxX();
        ImGui::End();
        ImGui::Render();
    }
    drawn.minimumWidth = panel.minimumWidth();
    drawn.rows = profiling::timingRows(profiler).size();
    return drawn;
}

class TimingsPanelTest : public testing_support::GlTest
{
};

TEST_F(TimingsPanelTest, TheDefaultPipelinesTableFitsTheTimingsSectionAtScaleOne)
{
    Profiler profiler(false);
    runDefaultPipeline(profiler, "compute-global-atomic");
    const float width = ui::PanelMetrics{}.timingsWidth;  // the section's default width at UI scale 1
    const Drawn drawn = drawPanel(profiler, 1.0f, width);
    EXPECT_EQ(drawn.rows, 17u);
    EXPECT_LE(drawn.minimumWidth, width);
    EXPECT_GT(drawn.minimumWidth, 200.0f) << "the width is measured, not a constant";
    EXPECT_EQ(drawn.scrollMaxX, 0.0f) << "the panel scrolls sideways at " << width << " px";

    // At UI scale 1.5 the same table needs about 1.5 times the width.
    const Drawn larger = drawPanel(profiler, 1.5f, 1.5f * width);
    EXPECT_NEAR(larger.minimumWidth, 1.5f * drawn.minimumWidth, 0.1f * drawn.minimumWidth);
    EXPECT_EQ(larger.scrollMaxX, 0.0f);
}

TEST_F(TimingsPanelTest, LongerNamesNeedMoreWidth)
{
    Profiler shortNames(false);
    runDefaultPipeline(shortNames, "compute-global-atomic");
    Profiler longNames(false);
    runDefaultPipeline(longNames, "compute-shared-atomic-linear-and-then-some-more");
    const float narrow = drawPanel(shortNames, 1.0f, 420.0f).minimumWidth;
    const float wide = drawPanel(longNames, 1.0f, 420.0f).minimumWidth;
    EXPECT_GT(wide, 420.0f);
    EXPECT_GT(wide, narrow + 100.0f);
}

TEST(TimingsHeaders, EveryTimeColumnNamesItsUnit)
{
    for (profiling::TimeUnit unit : {profiling::TimeUnit::Milliseconds, profiling::TimeUnit::Microseconds}) {
        const std::string suffix = " " + std::string(profiling::unitName(unit));
        const std::vector<std::string> headers = profiling::timingHeaders(unit, true);
        ASSERT_EQ(headers.size(), 7u);
        EXPECT_EQ(headers.front(), "pass");
        EXPECT_EQ(headers.back(), "src");
        for (std::size_t i = 1; i + 1 < headers.size(); ++i) {
            EXPECT_EQ(headers[i].substr(headers[i].size() - suffix.size()), suffix) << headers[i];
            EXPECT_EQ(headers[i].find("GPU"), std::string::npos) << headers[i];
        }
        EXPECT_EQ(profiling::timingHeaders(unit, false).size(), 5u);
        EXPECT_EQ(profiling::timingHeaders(unit, false, '\n')[1], "mean\n" + std::string(profiling::unitName(unit)));
    }
}

}  // namespace
