// PanelLayoutTest.cpp: the window's split into panel regions and the viewport (ui/PanelLayout), and
// the width check behind "no name cut short" (ui/PanelColumns), in a bare ImGui context (no window,
// no GL: ImGui's core needs only a font atlas built on the CPU). The geometry: the regions and the
// viewport tile the window without overlap at any size (1x1 and 4000x1 too), collapsed and hidden
// panels give their room to the viewport, and the right column gives way first. The widths: at
// 1280x720 (UI scale 1) and 2560x1440 (scale 2) the left column fits every built-in method, scan,
// operator, preset, scene and mode name, measured here with ImGui's own text widths; the real Frame,
// View and Split view panels drawn there report no name cut short, and a column made too narrow
// does report them (the check can fail).
#include "scene/ScenePresets.h"
#include "support/TestPaths.h"
#include "ui/FramePanel.h"
#include "ui/ImGuiLayer.h"
#include "ui/PanelColumns.h"
#include "ui/PanelLayout.h"
#include "ui/PipelinePanel.h"
#include "ui/SplitPanel.h"
#include "ui/ViewPanel.h"

#include <imgui.h>

#include <gtest/gtest.h>

#include <algorithm>

namespace {

/// A bare ImGui context with the app's style and font at `scale`.
class ImGuiContextAtScale
{
public:
    explicit ImGuiContextAtScale(float scale)
    {
        mContext = ImGui::CreateContext();
        ImGuiIO& io = ImGui::GetIO();
        io.IniFilename = nullptr;
        io.DeltaTime = 1.0f / 60.0f;
        ui::applyUiScale(scale, 1.0f);
    }
    ~ImGuiContextAtScale() { ImGui::DestroyContext(mContext); }

    void newFrame(glm::vec2 display)
    {
        ImGui::GetIO().DisplaySize = ImVec2(display.x, display.y);
        ImGui::NewFrame();
    }
    void endFrame() { ImGui::Render(); }

private:
    ImGuiContext* mContext = nullptr;
};

ui::PanelMetrics exampleMetrics()
{
    ui::PanelMetrics m;
    m.leftMinWidth = 480.0f;
    m.rightMinWidth = 260.0f;
    m.bottomMinHeight = 200.0f;
    m.splitter = 8.0f;
    m.viewportMin = 64.0f;
    return m;
}

bool overlap(const ui::LayoutRect& a, const ui::LayoutRect& b)
{
    if (a.empty() || b.empty())
        return false;
    return a.x < b.right() && b.x < a.right() && a.y < b.bottom() && b.y < a.bottom();
}

float area(const ui::LayoutRect& r)
{
    return r.empty() ? 0.0f : r.width * r.height;
}

/// Every rectangle inside the window, none overlapping another, together covering it.
void expectTiling(const ui::PanelRects& r, glm::vec2 display)
{
    const ui::LayoutRect all[] = {r.left,          r.right,          r.bottom,  r.leftSplitter,
                                  r.rightSplitter, r.bottomSplitter, r.viewport};
    float covered = 0.0f;
    for (std::size_t i = 0; i < std::size(all); ++i) {
        const ui::LayoutRect& a = all[i];
        EXPECT_GE(a.width, 0.0f) << i;
        EXPECT_GE(a.height, 0.0f) << i;
        if (a.empty())
            continue;
        EXPECT_GE(a.x, 0.0f) << i;
        EXPECT_GE(a.y, 0.0f) << i;
        EXPECT_LE(a.right(), display.x) << i;
        EXPECT_LE(a.bottom(), display.y) << i;
        covered += area(a);
        for (std::size_t j = i + 1; j < std::size(all); ++j)
            EXPECT_FALSE(overlap(a, all[j])) << i << " and " << j;
    }
    EXPECT_FLOAT_EQ(covered, std::floor(display.x) * std::floor(display.y));
}

TEST(PanelLayoutTest, RegionsAndViewportTileTheWindow)
{
    const ui::PanelMetrics m = exampleMetrics();
    const ui::PanelRects r = ui::layOutPanels({1280, 720}, {}, m, true);
    expectTiling(r, {1280, 720});
    EXPECT_EQ(r.left.width, 480.0f);
    EXPECT_EQ(r.right.width, std::round(1280.0f * m.rightFraction));
    EXPECT_EQ(r.viewport.x, 488.0f);
    EXPECT_EQ(r.viewport.y, 0.0f);
    EXPECT_EQ(r.viewport.right(), r.rightSplitter.x);
    EXPECT_EQ(r.bottom.height, std::round(720.0f * m.bottomFraction));
    EXPECT_EQ(r.viewport.bottom(), r.bottomSplitter.y);
    EXPECT_EQ(r.bottom.x, r.viewport.x) << "the strip is under the viewport, between the columns";
    EXPECT_EQ(r.bottom.width, r.viewport.width);
}

TEST(PanelLayoutTest, HiddenPanelsLeaveTheWholeWindow)
{
    const ui::PanelRects r = ui::layOutPanels({1280, 720}, {}, exampleMetrics(), false);
    EXPECT_EQ(r.viewport.width, 1280.0f);
    EXPECT_EQ(r.viewport.height, 720.0f);
    EXPECT_TRUE(r.left.empty() && r.right.empty() && r.bottom.empty());
    EXPECT_TRUE(r.leftSplitter.empty() && r.rightSplitter.empty() && r.bottomSplitter.empty());
}

TEST(PanelLayoutTest, CollapsedRegionsKeepTheirBarAndGiveTheirRoomToTheViewport)
{
    ui::PanelLayoutState state;
    state.leftOpen = false;
    state.bottomOpen = false;
    const ui::PanelRects r = ui::layOutPanels({1280, 720}, state, exampleMetrics(), true);
    expectTiling(r, {1280, 720});
    EXPECT_TRUE(r.left.empty());
    EXPECT_TRUE(r.bottom.empty());
    EXPECT_EQ(r.leftSplitter.x, 0.0f);
    EXPECT_EQ(r.leftSplitter.width, 8.0f);
    EXPECT_EQ(r.viewport.x, 8.0f);
    EXPECT_EQ(r.viewport.height, 720.0f - 8.0f);
    EXPECT_FALSE(r.right.empty());
}

TEST(PanelLayoutTest, ChosenWidthsScaleAndKeepTheMinimum)
{
    ui::PanelMetrics m = exampleMetrics();
    ui::PanelLayoutState state;
    state.leftWidth = 600.0f;  // at scale 1
    state.rightWidth = 10.0f;  // below the minimum
    m.scale = 1.0f;
    EXPECT_EQ(ui::layOutPanels({1920, 1080}, state, m, true).left.width, 600.0f);
    EXPECT_EQ(ui::layOutPanels({1920, 1080}, state, m, true).right.width, 260.0f);
    m.scale = 2.0f;
    m.leftMinWidth *= 2.0f;
    EXPECT_EQ(ui::layOutPanels({3840, 2160}, state, m, true).left.width, 1200.0f);
}

TEST(PanelLayoutTest, SmallWindowsShrinkTheRightColumnFirstAndNeverLoseTheViewport)
{
    const ui::PanelMetrics m = exampleMetrics();
    // 820 wide: room for 820 - 64 - 16 = 740 of columns: the left keeps 480, the right its 260.
    ui::PanelRects r = ui::layOutPanels({820, 600}, {}, m, true);
    expectTiling(r, {820, 600});
    EXPECT_EQ(r.left.width, 480.0f);
    EXPECT_EQ(r.right.width, 260.0f);
    EXPECT_EQ(r.viewport.width, 64.0f);
    // 800 wide: 240 would be left for the right column, less than its 260: only its bar stays.
    r = ui::layOutPanels({800, 600}, {}, m, true);
    expectTiling(r, {800, 600});
    EXPECT_EQ(r.left.width, 480.0f);
    EXPECT_TRUE(r.right.empty());
    EXPECT_EQ(r.rightSplitter.right(), 800.0f);
    EXPECT_EQ(r.viewport.width, 800.0f - 480.0f - 16.0f);
    for (const glm::vec2 size : {glm::vec2(1, 1), glm::vec2(4000, 1), glm::vec2(1, 4000), glm::vec2(100, 100),
                                 glm::vec2(500, 90), glm::vec2(79, 900), glm::vec2(80, 72), glm::vec2(0, 0)}) {
        r = ui::layOutPanels(size, {}, m, true);
        expectTiling(r, size);
        if (size.x > 0 && size.y > 0) {
            EXPECT_GE(r.viewport.width, std::min(size.x, m.viewportMin)) << size.x << "x" << size.y;
            EXPECT_GE(r.viewport.height, std::min(size.y, m.viewportMin)) << size.x << "x" << size.y;
        }
    }
}

TEST(PanelLayoutTest, ViewportPixelsAreBottomUpAndFollowTheFramebufferScale)
{
    const ui::LayoutRect viewport{488.0f, 0.0f, 500.0f, 496.0f};
    EXPECT_EQ(ui::viewportPixels(viewport, {1280, 720}, {1280, 720}), glm::ivec4(488, 224, 500, 496));
    EXPECT_EQ(ui::viewportPixels(viewport, {1280, 720}, {2560, 1440}), glm::ivec4(976, 448, 1000, 992));
    EXPECT_EQ(ui::viewportPixels({0, 0, 0, 0}, {10, 10}, {10, 10}), glm::ivec4(0, 9, 1, 1)) << "at least a pixel";
    EXPECT_EQ(ui::viewportPixels(viewport, {1280, 720}, {0, 0}), glm::ivec4(0));
}

/// The width a combo needs for `name`, measured here as ImGui draws a combo: the text from the
/// frame's padding, clipped at the arrow button (a frame-high square).
float neededComboWidth(const std::string& name)
{
    return ImGui::CalcTextSize(name.c_str()).x + ImGui::GetStyle().FramePadding.x + ImGui::GetFrameHeight();
}

void expectNamesFit(float scale, glm::vec2 display)
{
    ImGuiContextAtScale context(scale);
    context.newFrame(display);
    const ui::PipelinePanel pipelinePanel{post::GpuCaps{}};
    const std::vector<scene::ScenePreset> presets = scene::listScenePresets(testing_support::sourceDir() / "scenes");
    ASSERT_FALSE(presets.empty());
    const ui::PanelNames names = ui::collectPanelNames(pipelinePanel, presets);
    ASSERT_GT(names.columnWide.size(), 20u) << "every histogram method, scan and operator";
    ASSERT_TRUE(std::count(names.columnWide.begin(), names.columnWide.end(), "Ward 1997 histogram adjustment"));
    ASSERT_TRUE(std::count(names.labelled.begin(), names.labelled.end(), "Unreal Engine 5"));

    const ui::PanelMetrics metrics = ui::measurePanels(names, scale);
    const ui::PanelRects rects = ui::layOutPanels(display, {}, metrics, true);
    const ImGuiStyle& style = ImGui::GetStyle();
    const float inner = rects.left.width - 2.0f * style.WindowPadding.x - style.ScrollbarSize;
    for (const std::string& name : names.columnWide)
        EXPECT_LE(neededComboWidth(name), inner) << "'" << name << "' is cut short at scale " << scale;
    for (const std::string& name : names.labelled)
        EXPECT_LE(neededComboWidth(name), inner - metrics.fieldLabelRoom)
            << "'" << name << "' is cut short at scale " << scale;
    // The picture keeps a useful part of the window with every panel open.
    EXPECT_GE(rects.viewport.width, 0.34f * display.x) << "scale " << scale;
    EXPECT_GE(rects.viewport.height, 0.6f * display.y) << "scale " << scale;
    context.endFrame();
}

TEST(PanelLayoutTest, TheLeftColumnFitsEveryBuiltInNameAt1280x720)
{
    expectNamesFit(1.0f, {1280, 720});
}

TEST(PanelLayoutTest, TheLeftColumnFitsEveryBuiltInNameAtScaleTwo)
{
    expectNamesFit(2.0f, {2560, 1440});
}

/// Draws the Frame, View and Split view panels in the left column of a `display` window, every scene
/// preset listed; returns the names the combos found cut short.
std::vector<std::string> drawLeftPanels(glm::vec2 display)
{
    ImGuiContextAtScale context(1.0f);
    const ui::PipelinePanel pipelinePanel{post::GpuCaps{}};
    const std::vector<scene::ScenePreset> presets = scene::listScenePresets(testing_support::sourceDir() / "scenes");
    ui::PanelColumns columns(ui::collectPanelNames(pipelinePanel, presets));
    const platform::GlInfo gl;
    bool vsync = true;
    ui::takeNamesCutShort();
    for (int frame = 0; frame < 2; ++frame) {
        context.newFrame(display);
        columns.arrange(1.0f, true);
        if (columns.beginRegion(ui::PanelRegion::Left)) {
            ui::FrameInfo info{gl, "default", {640, 480}, {1280, 720}, {}, true};
            info.presets = &presets;
            info.currentPreset = 0;
            info.lighting = scene::LightingPath::Deferred;
            ui::drawFramePanel(info, vsync);
            ui::drawViewPanel({});
            ui::drawSplitPanel({});
            columns.endRegion();
        }
        columns.drawSplitters();
        context.endFrame();
    }
    return ui::takeNamesCutShort();
}

TEST(PanelLayoutTest, ThePanelsReportNoNameCutShortAndTheCheckCanFail)
{
    EXPECT_EQ(drawLeftPanels({1280, 720}), std::vector<std::string>{});
    // 360 wide: the right column gives way, then the left one shrinks to 360 - 64 - 16 pixels.
    const std::vector<std::string> cut = drawLeftPanels({360, 400});
    EXPECT_TRUE(std::count(cut.begin(), cut.end(), "false colour (EV)")) << "the check did not see a narrow combo";
}

}  // namespace
