// InViewTest.cpp: the check behind "measurements in view" (ui/InView.h), in a bare ImGui context: a
// window with every expected item drawn inside reports them in view; an item below the window's bottom
// (a vertical cut, which the text check of ui/TextFit.h does not see), one right of its edge, or an
// expected item not drawn at all is named with where it is; folded rows are counted, not faulted; the
// window's scroll does not hide a cut (the check is "without scrolling").
#include "support/ImGuiTestContext.h"
#include "ui/InView.h"

#include <imgui.h>

#include <gtest/gtest.h>

#include <string>

namespace {

using testing_support::ImGuiContextAtScale;

/// Draws a window of `height` units with the expected items, each a line high, one under another
/// (`rows` Timings rows); `extraWidth` widens the histogram plot past the window's right edge.
std::string drawAndDescribe(float height, int rows, float extraWidth = 0.0f, bool drawExposure = true)
{
    ImGuiContextAtScale context(1.0f);
    std::string description;
    for (int frame = 0; frame < 2; ++frame) {
        context.newFrame({800.0f, 600.0f});
        ui::clearInView();
        ImGui::SetNextWindowPos(ImVec2(0.0f, 0.0f));
        ImGui::SetNextWindowSize(ImVec2(300.0f, height));
        ImGui::Begin("strip", nullptr, ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoSavedSettings);
        auto line = [](const std::string& name, float width = 100.0f) {
            ImGui::Dummy(ImVec2(width, ImGui::GetTextLineHeight()));
            ui::recordInView(name);
        };
        line("Timings header");
        for (int r = 0; r < rows; ++r)
            line("Timings row 'pass " + std::to_string(r) + "'");
        ui::recordFoldedRows("Timings", 5);
        line("Histogram plot", 100.0f + extraWidth);
        line("Histogram counters");
        if (drawExposure) {
            line("Exposure key value plot");
            line("Exposure frame-time plot");
        }
        ImGui::End();
        context.endFrame();
        description = ui::describeMeasurementsInView();
    }
    return description;
}

TEST(InViewTest, EveryItemInsideTheWindowIsInView)
{
    const std::string text = drawAndDescribe(400.0f, 8);
    EXPECT_EQ(text.rfind("measurements in view (Timings: header, 8 rows, 5 folded;", 0), 0u) << text;
}

TEST(InViewTest, ARowBelowTheWindowsBottomIsNamed)
{
    // 12 rows of 17 units and the rest: more than 200 units; the last items fall below the bottom.
    const std::string text = drawAndDescribe(200.0f, 12);
    EXPECT_EQ(text.rfind("measurements not in view: ", 0), 0u) << text;
    EXPECT_NE(text.find("Exposure frame-time plot (at x"), std::string::npos) << text;
    EXPECT_EQ(text.find("Timings header (at"), std::string::npos) << "the header is in view\n" << text;
    EXPECT_EQ(text.find("'pass 0' (at"), std::string::npos) << text;
}

TEST(InViewTest, AnItemPastTheRightEdgeIsNamed)
{
    const std::string text = drawAndDescribe(400.0f, 4, 400.0f);
    EXPECT_NE(text.find("Histogram plot (at x"), std::string::npos) << text;
    EXPECT_EQ(text.find("Histogram counters (at"), std::string::npos) << text;
}

TEST(InViewTest, AnExpectedItemNotDrawnIsNamed)
{
    const std::string text = drawAndDescribe(400.0f, 4, 0.0f, false);
    EXPECT_NE(text.find("Exposure key value plot (not drawn)"), std::string::npos) << text;
    EXPECT_NE(text.find("Exposure frame-time plot (not drawn)"), std::string::npos) << text;
}

TEST(InViewTest, AnItemIsCheckedWithTheWindowAtItsTop)
{
    // Scrolled down, the last items would show; the check says where they are without scrolling.
    ImGuiContextAtScale context(1.0f);
    std::string text;
    for (int frame = 0; frame < 3; ++frame) {
        context.newFrame({800.0f, 600.0f});
        ui::clearInView();
        ImGui::SetNextWindowPos(ImVec2(0.0f, 0.0f));
        ImGui::SetNextWindowSize(ImVec2(300.0f, 100.0f));
        ImGui::Begin("scrolled", nullptr, ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoSavedSettings);
        ImGui::Dummy(ImVec2(100.0f, 300.0f));
        ImGui::Dummy(ImVec2(100.0f, 13.0f));
        ui::recordInView("Timings header");
        ImGui::SetScrollY(ImGui::GetScrollMaxY());
        ImGui::End();
        context.endFrame();
        text = ui::describeMeasurementsInView();
    }
    EXPECT_NE(text.find("Timings header (at"), std::string::npos) << text;
}

}  // namespace
