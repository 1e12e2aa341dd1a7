// PanelLayoutTest.cpp: the window's split into the settings column, the measurement strip and the
// viewport (ui/PanelLayout), and the checks behind "no name cut short" and "combos visible without
// scrolling" (ui/PanelColumns), in a bare ImGui context (no window, no GL: ImGui's core needs only a
// font atlas built on the CPU). The geometry: the regions and the viewport tile the window without
// overlap at any size (1x1 and 4000x1 too); the picture gets at least 55 % of a 1280x720 window and
// 65 % of a 1920x1080 one at UI scale 1, with the default and with the measured lengths; collapsed
// and hidden panels give their room to the viewport; hidden panels keep the shown viewport's aspect
// (fitAspect); the strip's sections give way in order; with ImGui's mouse input, the bars between
// the strip's sections resize them and the column's and the strip's arrows collapse them. The layout's settings-file
// keys round-trip, and unknown, bad or absent keys keep the defaults. The widths: at 1280x720 (UI scale 1) and
// 2560x1440 (scale 2) the column fits every labelled name, and beginNameCombo shows every method,
// scan and operator name whole (wrapped; its list opens on a click, as wide as its longest name);
// the real Frame, View and Split view panels drawn there
// report no name cut short, and a column made too narrow does report them (the check can fail).
#include "post/SettingsFile.h"
#include "scene/ScenePresets.h"
#include "support/ImGuiTestContext.h"
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
#include <cfloat>
#include <map>

namespace {

using testing_support::ImGuiContextAtScale;

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
    const ui::LayoutRect all[] = {r.settings, r.settingsBar, r.stripBar, r.histogram, r.histogramBar,
                                  r.timings,  r.timingsBar,  r.exposure, r.viewport};
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
            EXPECT_FALSE(overlap(a, all[j])) << i << " and " << j << " at " << display.x << "x" << display.y;
    }
    EXPECT_FLOAT_EQ(covered, std::floor(display.x) * std::floor(display.y)) << display.x << "x" << display.y;
}

float pictureShare(const ui::PanelRects& r, glm::vec2 display)
{
    return area(r.viewport) / (display.x * display.y);
}

TEST(PanelLayoutTest, RegionsAndViewportTileTheWindow)
{
    const ui::PanelMetrics m = ui::PanelMetrics::atScale(1.0f);
    const ui::PanelRects r = ui::layOutPanels({1280, 720}, {}, m, true);
    expectTiling(r, {1280, 720});
    EXPECT_EQ(r.settings.width, std::round(1280.0f * m.settingsFraction));
    EXPECT_EQ(r.viewport.x, r.settingsBar.right());
    EXPECT_EQ(r.viewport.y, 0.0f);
    EXPECT_EQ(r.viewport.right(), 1280.0f) << "the picture reaches the window's right edge";
    EXPECT_EQ(r.strip.height, std::round(720.0f * m.stripFraction));
    EXPECT_EQ(r.viewport.bottom(), r.stripBar.y);
    EXPECT_EQ(r.settings.bottom(), r.stripBar.y) << "the column ends where the strip begins";
    EXPECT_EQ(r.strip.x, 0.0f) << "the strip is as wide as the window";
    EXPECT_EQ(r.strip.width, 1280.0f);
    // Side by side: Histogram, Timings, Exposure; the Histogram is the widest.
    EXPECT_EQ(r.histogram.x, 0.0f);
    EXPECT_LT(r.histogram.right(), r.timings.x);
    EXPECT_LT(r.timings.right(), r.exposure.x);
    EXPECT_EQ(r.exposure.right(), 1280.0f);
    EXPECT_EQ(r.timings.width, m.timingsWidth);
    EXPECT_GT(r.histogram.width, r.timings.width);
    EXPECT_GT(r.timings.width, r.exposure.width);
}

TEST(PanelLayoutTest, ThePictureGetsMostOfTheWindow)
{
    // Default lengths at UI scale 1, and the column's minimum as wide as the measured one (the
    // labelled combos' widest name: ThePanelsReportNoNameCutShort measures it).
    for (const float settingsMin : {240.0f, 320.0f}) {
        ui::PanelMetrics m = ui::PanelMetrics::atScale(1.0f);
        m.settingsMinWidth = settingsMin;
        const ui::PanelRects small = ui::layOutPanels({1280, 720}, {}, m, true);
        const ui::PanelRects large = ui::layOutPanels({1920, 1080}, {}, m, true);
        EXPECT_GE(pictureShare(small, {1280, 720}), 0.55f) << "column minimum " << settingsMin;
        EXPECT_GE(pictureShare(large, {1920, 1080}), 0.65f) << "column minimum " << settingsMin;
        // A landscape picture, not the near-square of a picture between two columns.
        EXPECT_GT(small.viewport.width / small.viewport.height, 1.5f);
        EXPECT_GT(large.viewport.width / large.viewport.height, 1.5f);
    }
    // At scale 1.5 the panels grow, and the picture still keeps more than half of a 1920x1080 window.
    const ui::PanelMetrics m = ui::PanelMetrics::atScale(1.5f);
    EXPECT_GE(pictureShare(ui::layOutPanels({1920, 1080}, {}, m, true), {1920, 1080}), 0.5f);
}

TEST(PanelLayoutTest, HiddenPanelsLeaveTheWholeWindowAndTheFrameKeepsItsAspect)
{
    const ui::PanelMetrics m = ui::PanelMetrics::atScale(1.0f);
    const ui::PanelRects r = ui::layOutPanels({1280, 720}, {}, m, false);
    EXPECT_EQ(r.viewport.width, 1280.0f);
    EXPECT_EQ(r.viewport.height, 720.0f);
    EXPECT_TRUE(r.settings.empty() && r.strip.empty() && r.histogram.empty() && r.timings.empty() &&
                r.exposure.empty());
    EXPECT_TRUE(r.settingsBar.empty() && r.stripBar.empty() && r.histogramBar.empty() && r.timingsBar.empty());
    // The frame shown with hidden panels is the shown viewport's aspect, as large as fits the window:
    // the camera's vertical field of view then sees the same picture.
    for (const glm::vec2 window : {glm::vec2(1280, 720), glm::vec2(1920, 1080), glm::vec2(640, 360),
                                   glm::vec2(1000, 600), glm::vec2(800, 1200)}) {
        const ui::LayoutRect shown = ui::layOutPanels(window, {}, m, true).viewport;
        const glm::ivec2 frame = ui::fitAspect(glm::ivec2(window), glm::ivec2(shown.width, shown.height));
        EXPECT_TRUE(frame.x == int(window.x) || frame.y == int(window.y)) << "fills one side";
        EXPECT_LE(frame.x, int(window.x));
        EXPECT_LE(frame.y, int(window.y));
        const double aspect = double(shown.width) / shown.height;
        EXPECT_NEAR(double(frame.x) / frame.y, aspect, aspect / frame.y + 1e-9) << window.x << "x" << window.y;
        EXPECT_GE(frame.x, int(shown.width)) << "never smaller than with the panels shown";
    }
    EXPECT_EQ(ui::fitAspect({1280, 720}, {1280, 720}), glm::ivec2(1280, 720));
    EXPECT_EQ(ui::fitAspect({1280, 720}, {100, 100}), glm::ivec2(720, 720));
    EXPECT_EQ(ui::fitAspect({1280, 720}, {400, 100}), glm::ivec2(1280, 320));
    EXPECT_EQ(ui::fitAspect({1280, 720}, {0, 0}), glm::ivec2(1280, 720)) << "no aspect: the whole area";
    EXPECT_EQ(ui::fitAspect({0, 0}, {16, 9}), glm::ivec2(1, 1)) << "at least a pixel";
}

TEST(PanelLayoutTest, CollapsedRegionsKeepTheirBarAndGiveTheirRoomToTheViewport)
{
    ui::PanelLayoutState state;
    state.settingsOpen = false;
    state.stripOpen = false;
    const ui::PanelRects r = ui::layOutPanels({1280, 720}, state, ui::PanelMetrics::atScale(1.0f), true);
    expectTiling(r, {1280, 720});
    EXPECT_TRUE(r.settings.empty());
    EXPECT_TRUE(r.strip.empty() && r.histogram.empty() && r.timings.empty() && r.exposure.empty());
    EXPECT_EQ(r.settingsBar.x, 0.0f);
    EXPECT_EQ(r.settingsBar.width, 8.0f);
    EXPECT_EQ(r.viewport.x, 8.0f);
    EXPECT_EQ(r.viewport.height, 720.0f - 8.0f);
    EXPECT_EQ(r.stripBar.bottom(), 720.0f);
}

TEST(PanelLayoutTest, ChosenLengthsScaleAndKeepTheMinimum)
{
    ui::PanelMetrics m = ui::PanelMetrics::atScale(1.0f);
    ui::PanelLayoutState state;
    state.settingsWidth = 500.0f;  // at scale 1
    state.stripHeight = 10.0f;     // below the minimum
    state.timingsWidth = 300.0f;
    state.exposureWidth = 250.0f;
    ui::PanelRects r = ui::layOutPanels({1920, 1080}, state, m, true);
    EXPECT_EQ(r.settings.width, 500.0f);
    EXPECT_EQ(r.strip.height, m.stripMinHeight);
    EXPECT_EQ(r.timings.width, 300.0f);
    EXPECT_EQ(r.exposure.width, 250.0f);
    m = ui::PanelMetrics::atScale(2.0f);
    r = ui::layOutPanels({3840, 2160}, state, m, true);
    EXPECT_EQ(r.settings.width, 1000.0f);
    EXPECT_EQ(r.timings.width, 600.0f);
    expectTiling(r, {3840, 2160});
}

TEST(PanelLayoutTest, TheStripsSectionsGiveWayExposureFirst)
{
    const ui::PanelMetrics m = ui::PanelMetrics::atScale(1.0f);
    // 900 wide: 884 for the sections; the Histogram keeps its 240, Exposure shrinks to its 160 and
    // Timings gives the rest (884 - 240 - 160 = 484 > 470: Timings keeps its default 470).
    ui::PanelRects r = ui::layOutPanels({900, 600}, {}, m, true);
    expectTiling(r, {900, 600});
    EXPECT_EQ(r.timings.width, m.timingsWidth);
    EXPECT_GE(r.histogram.width, m.histogramMinWidth);
    // 800 wide: 784 = 240 + 470 + 74: Exposure would be below its minimum, so Timings gives way.
    r = ui::layOutPanels({800, 600}, {}, m, true);
    expectTiling(r, {800, 600});
    EXPECT_EQ(r.exposure.width, m.sectionMinWidth);
    EXPECT_EQ(r.histogram.width, m.histogramMinWidth);
    EXPECT_EQ(r.timings.width, 784.0f - m.histogramMinWidth - m.sectionMinWidth);
    // Narrower than the three minimums: they share the room, nothing overlaps.
    for (const glm::vec2 size :
         {glm::vec2(1, 1), glm::vec2(4000, 1), glm::vec2(1, 4000), glm::vec2(100, 100), glm::vec2(500, 90),
          glm::vec2(79, 900), glm::vec2(80, 72), glm::vec2(0, 0), glm::vec2(560, 400), glm::vec2(300, 300)}) {
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
    const ui::LayoutRect viewport{290.0f, 0.0f, 990.0f, 546.0f};
    EXPECT_EQ(ui::viewportPixels(viewport, {1280, 720}, {1280, 720}), glm::ivec4(290, 174, 990, 546));
    EXPECT_EQ(ui::viewportPixels(viewport, {1280, 720}, {2560, 1440}), glm::ivec4(580, 348, 1980, 1092));
    EXPECT_EQ(ui::viewportPixels({0, 0, 0, 0}, {10, 10}, {10, 10}), glm::ivec4(0, 9, 1, 1)) << "at least a pixel";
    EXPECT_EQ(ui::viewportPixels(viewport, {1280, 720}, {0, 0}), glm::ivec4(0));
}

std::map<std::string, std::string> asMap(const std::vector<std::pair<std::string, std::string>>& keys)
{
    return {keys.begin(), keys.end()};
}

TEST(PanelLayoutTest, TheLayoutRoundTripsThroughTheSettingsFile)
{
    ui::PanelLayoutState chosen;
    chosen.settingsWidth = 333.5f;
    chosen.stripHeight = 210.0f;
    chosen.timingsWidth = 400.0f;
    chosen.exposureWidth = 280.0f;
    chosen.stripOpen = false;
    chosen.sectionOpen[int(ui::SettingsSection::Frame)] = false;
    // The keys as the app's Save writes them after the pipeline's, read back as --settings and Load do.
    const std::string json = "{\n  \"histogram.bins\": 128,\n" + [&] {
        std::string text;
        for (const auto& [key, value] : ui::layoutKeys(chosen))
            text += "  \"" + key + "\": " + value + ",\n";
        return text;
    }() + "  \"tonemap.operator\": \"ward\"\n}\n";
    ui::PanelLayoutState loaded;
    EXPECT_TRUE(
        ui::applyLayoutKeys(post::parseSettingsSection(json, "test.json", post::kLayoutKeyPrefix), loaded).empty());
    EXPECT_EQ(loaded, chosen);
    // The pipeline's own reading skips the layout's keys (no unknown-key error).
    const std::vector<post::SettingAssignment> pipeline = post::parseSettingsJson(json, "test.json");
    ASSERT_EQ(pipeline.size(), 2u);
    for (const post::SettingAssignment& assignment : pipeline)
        EXPECT_NE(assignment.key.rfind("layout.", 0), 0u) << assignment.key;

    // Absent keys keep the defaults; unknown and bad ones are named and keep them too.
    ui::PanelLayoutState state;
    const std::vector<std::string> warnings = ui::applyLayoutKeys(asMap({{"layout.settings_width", "300"},
                                                                         {"layout.no_such_key", "1"},
                                                                         {"layout.strip_height", "tall"},
                                                                         {"layout.timings_width", "-5"},
                                                                         {"layout.view_open", "maybe"},
                                                                         {"histogram.bins", "64"}}),
                                                                  state);
    EXPECT_EQ(state.settingsWidth, 300.0f);
    EXPECT_EQ(state.stripHeight, 0.0f);
    EXPECT_EQ(state.timingsWidth, 0.0f);
    EXPECT_TRUE(state.sectionOpen[int(ui::SettingsSection::View)]);
    ASSERT_EQ(warnings.size(), 4u);
    for (const char* key : {"layout.no_such_key", "layout.strip_height", "layout.timings_width", "layout.view_open"})
        EXPECT_TRUE(std::any_of(warnings.begin(), warnings.end(), [&](const std::string& w) {
            return w.find(key) != std::string::npos;
        })) << key;
    EXPECT_EQ(ui::applyLayoutKeys({}, state).size(), 0u);
}

/// The width a combo needs for `name`, measured here as ImGui draws a combo: the text from the
/// frame's padding, clipped at the arrow button (a frame-high square).
float neededComboWidth(const std::string& name)
{
    return ImGui::CalcTextSize(name.c_str()).x + ImGui::GetStyle().FramePadding.x + ImGui::GetFrameHeight();
}

ui::PanelNames builtInNames()
{
    const ui::PipelinePanel pipelinePanel{post::GpuCaps{}};
    const std::vector<scene::ScenePreset> presets = scene::listScenePresets(testing_support::sourceDir() / "scenes");
    EXPECT_FALSE(presets.empty());
    return ui::collectPanelNames(pipelinePanel, presets);
}

void expectNamesFit(float scale, glm::vec2 display)
{
    ImGuiContextAtScale context(scale);
    context.newFrame(display);
    const ui::PanelNames names = builtInNames();
    ASSERT_GT(names.columnWide.size(), 20u) << "every histogram method, scan and operator";
    ASSERT_TRUE(std::count(names.columnWide.begin(), names.columnWide.end(), "Ward 1997 histogram adjustment"));
    ASSERT_TRUE(std::count(names.labelled.begin(), names.labelled.end(), "Unreal Engine 5"));

    const ui::PanelMetrics metrics = ui::measurePanels(names, scale);
    const ui::PanelRects rects = ui::layOutPanels(display, {}, metrics, true);
    const ImGuiStyle& style = ImGui::GetStyle();
    const float inner = rects.settings.width - 2.0f * style.WindowPadding.x - style.ScrollbarSize;
    const float labelRoom = std::min(metrics.fieldLabelRoom, std::round(0.4f * inner));
    for (const std::string& name : names.labelled)
        EXPECT_LE(neededComboWidth(name), inner - labelRoom) << "'" << name << "' is cut short at scale " << scale;
    // The method, scan and operator names are longer than the column: beginNameCombo wraps them, on at
    // most three lines.
    const float wrap = inner - ImGui::GetFrameHeight() - 2.0f * style.FramePadding.x;
    for (const std::string& name : names.columnWide)
        EXPECT_LE(ImGui::CalcTextSize(name.c_str(), nullptr, false, wrap).y, 3.0f * ImGui::GetTextLineHeight() + 0.5f)
            << "'" << name << "' at scale " << scale;
    EXPECT_GE(pictureShare(rects, display), 0.55f) << "scale " << scale;
    context.endFrame();
}

TEST(PanelLayoutTest, TheColumnFitsEveryBuiltInNameAt1280x720)
{
    expectNamesFit(1.0f, {1280, 720});
}

TEST(PanelLayoutTest, TheColumnFitsEveryBuiltInNameAtScaleTwo)
{
    expectNamesFit(2.0f, {2560, 1440});
}

/// Draws the Frame, View and Split view panels in the settings column of a `display` window, every
/// scene preset listed; returns the names the combos found cut short.
std::vector<std::string> drawSettingsPanels(glm::vec2 display)
{
    ImGuiContextAtScale context(1.0f);
    const std::vector<scene::ScenePreset> presets = scene::listScenePresets(testing_support::sourceDir() / "scenes");
    ui::PanelColumns columns(builtInNames());
    const gl::GlInfo gl;
    bool vsync = true;
    ui::takeNamesCutShort();
    for (int frame = 0; frame < 2; ++frame) {
        context.newFrame(display);
        columns.arrange(1.0f, true);
        if (columns.beginRegion(ui::PanelRegion::Settings)) {
            ui::FrameInfo info{gl, "default", {640, 480}, {1280, 720}, {}, true};
            info.presets = &presets;
            info.currentPreset = 0;
            info.lighting = scene::LightingPath::Deferred;
            info.frameFormat = scene::FrameFormat::Rgba16f;
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
    EXPECT_EQ(drawSettingsPanels({1280, 720}), std::vector<std::string>{});
    EXPECT_EQ(drawSettingsPanels({1920, 1080}), std::vector<std::string>{});
    // 300 wide: the column shrinks to 300 - 64 - 8 pixels.
    const std::vector<std::string> cut = drawSettingsPanels({300, 400});
    EXPECT_TRUE(std::count(cut.begin(), cut.end(), "rgba16f (pre-exposed)")) << "the check did not see a narrow combo";
}

TEST(PanelLayoutTest, ANameComboShowsALongNameWholeAndRecordsWhereItIs)
{
    ImGuiContextAtScale context(1.0f);
    const ui::PanelNames names = builtInNames();
    ui::PanelColumns columns(names);
    const std::string longest = "Compute: shared-memory atomics, linear index (first version)";
    ui::takeNamesCutShort();
    for (int frame = 0; frame < 2; ++frame) {
        context.newFrame({1280, 720});
        columns.arrange(1.0f, true);
        ASSERT_TRUE(columns.beginRegion(ui::PanelRegion::Settings));
        ImGui::SetNextItemWidth(-FLT_MIN);
        const float width = ImGui::CalcItemWidth();
        EXPECT_GT(ui::comboWidthFor(longest), width) << "the name is longer than the column";
        if (ui::beginNameCombo("##method", longest, names.columnWide))
            ImGui::EndCombo();
        EXPECT_GT(ImGui::GetItemRectSize().y, ImGui::GetFrameHeight()) << "the name wraps onto a second line";
        // Far below the column's visible part: in the record, not visible without scrolling.
        ImGui::Dummy(ImVec2(10.0f, 2000.0f));
        const std::vector<std::string> other = {"far down"};
        ui::checkNamesFit(other);
        ImGui::Dummy(ImVec2(10.0f, 10.0f));
        columns.endRegion();
        context.endFrame();
    }
    EXPECT_EQ(ui::takeNamesCutShort(), std::vector<std::string>{}) << "a name combo cuts no name short";
    const ui::ComboPlacement* method = ui::findComboShowing(longest);
    ASSERT_NE(method, nullptr);
    EXPECT_TRUE(method->visibleWithoutScrolling());
    EXPECT_GE(method->frame.x, method->visible.x);
    EXPECT_LE(method->frame.right(), method->visible.right());
    const ui::ComboPlacement* far = ui::findComboShowing("far down");
    ASSERT_NE(far, nullptr);
    EXPECT_FALSE(far->visibleWithoutScrolling());
    EXPECT_EQ(ui::findComboShowing("no such name"), nullptr);
    const std::string line =
        ui::describeCombosInSight({{"method", longest}, {"far", "far down"}, {"lost", "no such name"}, {"scan", ""}});
    EXPECT_EQ(
        line.rfind("combos visible without scrolling: method; combos not visible without scrolling: far (at y ", 0), 0u)
        << line;
    EXPECT_NE(line.find(", lost (not drawn)"), std::string::npos) << line;
    EXPECT_EQ(line.find("scan"), std::string::npos) << line;
}

TEST(PanelLayoutTest, ANameCombosListOpensOnAClickAsWideAsItsLongestName)
{
    ImGuiContextAtScale context(1.0f);
    const ui::PanelNames names = builtInNames();
    ui::PanelColumns columns(names);
    const std::string longest = "Compute: shared-memory atomics, linear index (first version)";
    ImVec2 comboCentre(0.0f, 0.0f);
    float comboWidth = 0.0f;
    float listWidth = 0.0f;
    int picked = -1;
    // Frame 0 draws the combo; frame 1 presses on it, frame 2 releases (the list opens); frames 3-4
    // draw the list (auto-sized on its second frame).
    for (int frame = 0; frame < 5; ++frame) {
        ImGuiIO& io = ImGui::GetIO();
        io.MousePos = frame == 0 ? ImVec2(-1.0f, -1.0f) : comboCentre;
        io.MouseDown[0] = frame == 1;
        context.newFrame({1280, 720});
        columns.arrange(1.0f, true);
        ASSERT_TRUE(columns.beginRegion(ui::PanelRegion::Settings));
        ImGui::SetNextItemWidth(-FLT_MIN);
        const bool open = ui::beginNameCombo("##method", longest, names.columnWide);
        if (open) {
            for (std::size_t i = 0; i < names.columnWide.size(); ++i)
                if (ImGui::Selectable(names.columnWide[i].c_str()))
                    picked = int(i);
            listWidth = ImGui::GetWindowWidth();
            ImGui::EndCombo();
        }
        comboCentre = ImVec2((ImGui::GetItemRectMin().x + ImGui::GetItemRectMax().x) * 0.5f,
                             (ImGui::GetItemRectMin().y + ImGui::GetItemRectMax().y) * 0.5f);
        if (!open)
            comboWidth = ImGui::GetItemRectSize().x;
        columns.endRegion();
        context.endFrame();
    }
    ASSERT_GT(listWidth, 0.0f) << "the list did not open";
    EXPECT_GE(listWidth, comboWidth);
    EXPECT_GE(listWidth, ImGui::CalcTextSize(longest.c_str()).x) << "the list shows the longest name whole";
    EXPECT_EQ(picked, -1) << "nothing picked without a click in the list";
}

/// Drives the splitter bars with ImGui's mouse input in a bare context: `steps` are mouse positions
/// and button states, one per frame; returns the layout's state afterwards.
struct MouseStep
{
    ImVec2 position;
    bool down = false;
};

ui::PanelLayoutState dragBars(ui::PanelColumns& columns, const std::vector<MouseStep>& steps)
{
    for (const MouseStep& step : steps) {
        ImGuiIO& io = ImGui::GetIO();
        io.MousePos = step.position;
        io.MouseDown[0] = step.down;
        ImGui::GetIO().DisplaySize = ImVec2(1280, 720);
        ImGui::NewFrame();
        columns.arrange(1.0f, true);
        columns.drawSplitters();
        ImGui::Render();
    }
    return columns.state();
}

ImVec2 centreOf(const ui::LayoutRect& r)
{
    return ImVec2(r.x + 0.5f * r.width, r.y + 0.5f * r.height);
}

TEST(PanelLayoutTest, TheStripsBarsResizeItsSectionsAndTheArrowsCollapse)
{
    ImGuiContextAtScale context(1.0f);
    ui::PanelColumns columns(builtInNames());
    context.newFrame({1280, 720});
    const ui::PanelRects before = columns.arrange(1.0f, true);
    context.endFrame();
    // Drag the bar between Histogram and Timings 100 units to the left: Timings grows by 100, Exposure
    // keeps its width.
    ImVec2 at = centreOf(before.histogramBar);
    ImVec2 to(at.x - 100.0f, at.y);
    ui::PanelLayoutState state =
        dragBars(columns, {{at}, {at}, {at, true}, {ImVec2(at.x - 50.0f, at.y), true}, {to, true}, {to}, {to}});
    EXPECT_EQ(state.timingsWidth, before.timings.width + 100.0f);
    EXPECT_EQ(state.exposureWidth, before.exposure.width);
    EXPECT_EQ(columns.rects().histogram.width, before.histogram.width - 100.0f);
    // The bar between Timings and Exposure 40 units to the right: Exposure gives 40 to Timings.
    const ui::PanelRects middle = columns.rects();
    at = centreOf(middle.timingsBar);
    to = ImVec2(at.x + 40.0f, at.y);
    state = dragBars(columns, {{at}, {at}, {at, true}, {ImVec2(at.x + 20.0f, at.y), true}, {to, true}, {to}, {to}});
    EXPECT_EQ(state.timingsWidth, middle.timings.width + 40.0f);
    EXPECT_EQ(state.exposureWidth, middle.exposure.width - 40.0f);
    EXPECT_EQ(columns.rects().histogram.width, middle.histogram.width);
    // A click on the strip's arrow (the bar's middle) collapses it, and the picture reaches the bar.
    at = centreOf(columns.rects().stripBar);
    state = dragBars(columns, {{at}, {at}, {at, true}, {at}, {at}});
    EXPECT_FALSE(state.stripOpen);
    EXPECT_EQ(columns.rects().viewport.bottom(), 720.0f - 8.0f);
    // And the column's arrow collapses the column.
    at = centreOf(columns.rects().settingsBar);
    state = dragBars(columns, {{at}, {at}, {at, true}, {at}, {at}});
    EXPECT_FALSE(state.settingsOpen);
    EXPECT_EQ(columns.rects().viewport.x, 8.0f);
}

}  // namespace
