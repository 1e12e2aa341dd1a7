// PanelSetGlTest.cpp: the live app's panels through ui::Panel (ui/PanelSet.h). createPanels lists
// every panel once, Pipeline first, each settings-column section once and every region used; a panel defined only
// here, added to a PanelSet, is drawn in its region's window through the interface alone (the rule
// "adding a panel is its file pair and one registration line"), a panel not shown is not drawn, and
// the app's panels draw with a real pipeline and an image source and ask the host (ui::PanelHost)
// for what only the app does.
#include "frames/StillImageSource.h"
#include "image/ImageIo.h"
#include "post/ExposureHistory.h"
#include "post/PostPipeline.h"
#include "profiling/Profiler.h"
#include "support/GlTestEnvironment.h"
#include "support/HistogramTestSupport.h"
#include "support/ImGuiTestContext.h"
#include "support/TestPaths.h"
#include "ui/PanelSet.h"
#include "ui/PipelinePanel.h"

#include <imgui.h>
#include <imgui_internal.h>  // the current window's name

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

namespace {

namespace ts = testing_support;

/// Records what the panels asked of the app.
class RecordingHost final : public ui::PanelHost
{
public:
    post::PostPipeline* pipelineB() override { return nullptr; }
    void applySplit(const ui::SplitPanelActions&) override { ++splitCalls; }
    void applyCapture(const ui::TimingsPanelActions&) override { ++captureCalls; }
    void requestScenePreset(int index) override { presets.push_back(index); }

    int splitCalls = 0;
    int captureCalls = 0;
    std::vector<int> presets;
};

/// A panel the app does not have: it notes where and with what it was drawn.
class ProbePanel final : public ui::Panel
{
public:
    ProbePanel(const char* title, ui::PanelRegion region, bool shown) : mTitle(title), mRegion(region), mShown(shown) {}
    const char* title() const override { return mTitle; }
    ui::PanelPlace place() const override { return {mRegion, ui::PanelFrame::Fixed}; }
    bool shown(const ui::PanelContext&) const override { return mShown; }
    void draw(const ui::PanelContext& context) override
    {
        ++draws;
        windowName = ImGui::GetCurrentWindowRead()->Name;
        toneOperator = std::string(context.pipeline.toneOperator().id());
        ImGui::TextUnformatted("probe");
    }

    int draws = 0;
    std::string windowName;
    std::string toneOperator;

private:
    const char* mTitle;
    ui::PanelRegion mRegion;
    bool mShown;
};

class PanelSetGl : public ts::GlTest
{
};

TEST_F(PanelSetGl, ListsEveryPanelOnceWithItsPlace)
{
    ui::CompareSweep sweep;
    const auto panels =
        ui::createPanels({ts::testGpuCaps(), std::make_unique<ui::PipelinePanel>(ts::testGpuCaps()), sweep});
    ASSERT_FALSE(panels.empty());
    // Pipeline first: its method, scan and operator combos in sight at the column's top.
    EXPECT_STREQ(panels.front()->title(), "Pipeline");
    std::set<std::string> titles;
    std::set<ui::SettingsSection> sections;
    std::set<ui::PanelRegion> regions;
    for (const auto& panel : panels) {
        EXPECT_TRUE(titles.insert(panel->title()).second) << panel->title() << ": two panels of one title";
        const ui::PanelPlace place = panel->place();
        regions.insert(place.region);
        // Sections (open state kept by the layout) are the settings column's, and only there.
        EXPECT_EQ(place.frame == ui::PanelFrame::Section, place.region == ui::PanelRegion::Settings) << panel->title();
        if (place.frame == ui::PanelFrame::Section) {
            EXPECT_NE(place.section, ui::SettingsSection::Count) << panel->title();
            EXPECT_TRUE(sections.insert(place.section).second) << panel->title() << ": a section drawn twice";
        }
    }
    EXPECT_EQ(sections.size(), std::size_t(ui::SettingsSection::Count)) << "a section no panel draws";
    EXPECT_EQ(regions.size(), 4u) << "a region with no panel";
    EXPECT_TRUE(titles.count("Pipeline B") && titles.count("Histogram") && titles.count("Timings") &&
                titles.count("Exposure") && titles.count("Compare all"));
}

TEST_F(PanelSetGl, DrawsATestPanelInItsRegionThroughTheInterface)
{
    const std::filesystem::path file = ts::scratchDir("panel-set") / "grey.exr";
    image::ImageF pixels(16, 8);
    for (int y = 0; y < 8; ++y)
        for (int x = 0; x < 16; ++x)
            for (int c = 0; c < 4; ++c)
                pixels.at(x, y)[c] = c == 3 ? 1.0f : 0.18f * float(1 + x);
    image::writeExr(file, pixels, image::ExrPixelType::Float);
    app::StillImageSource source(file, "", ts::testGpuCaps().maxTextureSize);
    profiling::Profiler profiler(false);
    post::PostPipeline pipeline(ts::shaderLibrary(), profiler, ts::testGpuCaps());
    pipeline.run({source.hdr(), source.size(), 0}, 1.0 / 60.0, 60.0f);

    ts::ImGuiContextAtScale imgui(1.0f);
    ui::PanelSet set(ts::testGpuCaps(), {});
    auto probe = std::make_unique<ProbePanel>("Probe", ui::PanelRegion::Exposure, true);
    auto hidden = std::make_unique<ProbePanel>("Hidden", ui::PanelRegion::Histogram, false);
    ProbePanel& probeRef = *probe;
    ProbePanel& hiddenRef = *hidden;
    set.add(std::move(probe));
    set.add(std::move(hidden));

    RecordingHost host;
    bool vsync = true;
    std::optional<post::HistogramSnapshot> snapshot;
    const std::optional<post::ProbeSnapshot> probeSnapshot;
    const std::vector<std::string> probeNames;
    const std::vector<scene::ScenePreset> presets;
    post::ExposureHistory exposure(10.0);
    const std::string captureStatus;
    const ui::PanelContext context{.host = host,
                                   .pipeline = pipeline,
                                   .profiler = profiler,
                                   .glContext = ts::glContext(),
                                   .shaders = ts::shaderLibrary(),
                                   .caps = ts::testGpuCaps(),
                                   .isWindow = false,
                                   .source = source,
                                   .still = &source,
                                   .frame = {source.hdr(), source.size(), 0},
                                   .presets = presets,
                                   .canvas = {1280, 720},
                                   .vsync = vsync,
                                   .snapshot = snapshot,
                                   .probe = probeSnapshot,
                                   .probeNames = probeNames,
                                   .exposurePlot = exposure,
                                   .captureStatus = captureStatus};
    for (int frame = 0; frame < 2; ++frame) {
        imgui.newFrame({1280.0f, 720.0f});
        set.columns().arrange(1.0f, true);
        set.draw(context);
        imgui.endFrame();
    }
    EXPECT_EQ(probeRef.draws, 2);
    EXPECT_EQ(hiddenRef.draws, 0);
    EXPECT_NE(probeRef.windowName.find("exposure"), std::string::npos) << probeRef.windowName;
    EXPECT_EQ(probeRef.toneOperator, std::string(pipeline.toneOperator().id()));
    // The Split view and Timings panels hand their (empty) actions to the host every frame.
    EXPECT_EQ(host.splitCalls, 2);
    EXPECT_EQ(host.captureCalls, 2);
    EXPECT_TRUE(host.presets.empty());
}

}  // namespace
