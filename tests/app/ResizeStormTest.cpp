// ResizeStormTest.cpp: the resize-storm plan (extreme sizes, iconify/restore, every method switched
// to, a final step home), the rule that minimised or empty windows skip rendering, and the
// --resource-report line format that scripts/soak_check.py parses. The storm itself runs in a real
// window in tests/cli/ResizeStormWindowTest.cpp.
#include "app/AppSetup.h"
#include "app/ResizeStorm.h"
#include "app/ResourceReport.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

namespace {

const app::StormMethods kMethods{{"h-a", "h-b", "h-c"}, {"s-a", "s-b"}, {"t-a", "t-b", "t-c", "t-d"}};

bool hasSize(const std::vector<app::StormStep>& plan, glm::ivec2 size)
{
    return std::any_of(plan.begin(), plan.end(), [size](const app::StormStep& s) { return s.windowSize == size; });
}

TEST(ResizeStormPlan, CoversExtremeSizesIconifyAndEveryMethod)
{
    post::PipelineSettings home;
    auto plan = app::planResizeStorm(300, {320, 180}, kMethods, home);
    ASSERT_EQ(plan.size(), 301u) << "every step, then one step home";
    EXPECT_TRUE(hasSize(plan, {1, 1}));
    EXPECT_TRUE(hasSize(plan, {4000, 1}));
    EXPECT_TRUE(hasSize(plan, {1, 4000}));
    std::set<std::pair<int, int>> sizes;
    std::set<std::string> histogram, scan, tone;
    std::set<unsigned> bins;
    std::set<int> downsample;
    int iconify = 0, restore = 0;
    for (const app::StormStep& step : plan) {
        ASSERT_GE(step.windowSize.x, 1);
        ASSERT_GE(step.windowSize.y, 1);
        ASSERT_LE(std::max(step.windowSize.x, step.windowSize.y), 4000);
        sizes.insert({step.windowSize.x, step.windowSize.y});
        iconify += step.window == app::StormStep::Window::Iconify;
        restore += step.window == app::StormStep::Window::Restore;
        if (step.histogramMethod)
            histogram.insert(*step.histogramMethod);
        if (step.scanMethod)
            scan.insert(*step.scanMethod);
        if (step.toneOperator)
            tone.insert(*step.toneOperator);
        if (step.bins)
            bins.insert(*step.bins);
        if (step.downsample)
            downsample.insert(*step.downsample);
    }
    EXPECT_GT(sizes.size(), 200u) << "hundreds of distinct sizes";
    EXPECT_GE(iconify, 10);
    EXPECT_GE(restore, iconify) << "every iconify is followed by a restore";
    EXPECT_EQ(histogram, (std::set<std::string>{"h-a", "h-b", "h-c", home.histogramMethod}));
    EXPECT_EQ(scan, (std::set<std::string>{"s-a", "s-b", home.scanMethod}));
    EXPECT_EQ(tone, (std::set<std::string>{"t-a", "t-b", "t-c", "t-d", home.toneOperator}));
    EXPECT_TRUE(bins.count(1) && bins.count(4096)) << "the bin-count limits";
    EXPECT_EQ(downsample, (std::set<int>{1, 2, 4, 8}));
}

TEST(ResizeStormPlan, EndsHomeWithTheStartSettings)
{
    post::PipelineSettings home;
    home.histogramMethod = "h-b";
    home.spec.binCount = 77;
    home.downsample = 2;
    home.rangeMode = post::RangeMode::Auto;
    auto plan = app::planResizeStorm(50, {640, 360}, kMethods, home);
    const app::StormStep& last = plan.back();
    EXPECT_EQ(last.windowSize, glm::ivec2(640, 360));
    EXPECT_EQ(last.window, app::StormStep::Window::Restore);
    EXPECT_EQ(last.histogramMethod, "h-b");
    EXPECT_EQ(last.scanMethod, home.scanMethod);
    EXPECT_EQ(last.toneOperator, home.toneOperator);
    EXPECT_EQ(last.bins, 77u);
    EXPECT_EQ(last.downsample, 2);
    EXPECT_EQ(last.autoRange, true);
}

TEST(ResizeStormPlan, IsDeterministic)
{
    post::PipelineSettings home;
    auto a = app::planResizeStorm(120, {320, 180}, kMethods, home);
    auto b = app::planResizeStorm(120, {320, 180}, kMethods, home);
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        EXPECT_EQ(a[i].windowSize, b[i].windowSize) << "step " << i;
        EXPECT_EQ(a[i].histogramMethod, b[i].histogramMethod) << "step " << i;
    }
}

TEST(ResizeStormPlan, WithoutAlternativesSwitchesNothing)
{
    post::PipelineSettings home;
    auto plan = app::planResizeStorm(40, {320, 180}, app::StormMethods{}, home);
    for (std::size_t i = 0; i + 1 < plan.size(); ++i) {
        EXPECT_FALSE(plan[i].histogramMethod) << "step " << i;
        EXPECT_FALSE(plan[i].scanMethod) << "step " << i;
        EXPECT_FALSE(plan[i].toneOperator) << "step " << i;
    }
}

TEST(WindowCanRender, OnlyANonEmptyFramebufferOfAVisibleWindow)
{
    EXPECT_TRUE(app::windowCanRender({1, 1}, false));
    EXPECT_TRUE(app::windowCanRender({4000, 1}, false));
    EXPECT_FALSE(app::windowCanRender({0, 0}, false));
    EXPECT_FALSE(app::windowCanRender({0, 720}, false));
    EXPECT_FALSE(app::windowCanRender({1280, 0}, false));
    EXPECT_FALSE(app::windowCanRender({1280, 720}, true)) << "X11 keeps an iconified window's size";
}

TEST(ResourceReport, LineHasEveryKeyTheSoakCheckReads)
{
    app::ResourceSample sample;
    sample.frame = 2000;
    sample.rssKb = 181236;
    sample.glObjects[std::size_t(gl::ObjectKind::Buffer)] = 63;
    sample.glObjects[std::size_t(gl::ObjectKind::VertexArray)] = 2;
    sample.glTotal = 65;
    const std::string noCuda = app::formatResourceLine(sample);
    EXPECT_EQ(noCuda.rfind("resources: frame=2000 rss_kb=181236 gl_total=65 gl_buffer=63 ", 0), 0u) << noCuda;
    EXPECT_NE(noCuda.find(" gl_vertex_array=2 "), std::string::npos) << noCuda;
    EXPECT_NE(noCuda.find(" gl_sampler=0 "), std::string::npos) << noCuda;
    EXPECT_EQ(noCuda.substr(noCuda.size() - 16), " cuda_allocs=n/a") << noCuda;
    sample.cudaAllocations = 5;
    const std::string withCuda = app::formatResourceLine(sample);
    EXPECT_EQ(withCuda.substr(withCuda.size() - 14), " cuda_allocs=5") << withCuda;
}

TEST(ResourceReport, ResidentSetIsMeasuredAndSeesAllocations)
{
    const long long before = app::residentSetKb();
    ASSERT_GT(before, 0) << "/proc/self/statm is readable on Linux";
    std::vector<char> touched(64 << 20, 1);  // 64 MiB, every page written
    const long long after = app::residentSetKb();
    EXPECT_GT(after, before + 32 * 1024) << "64 MiB written: resident memory must grow";
    EXPECT_EQ(touched[12345], 1);
}

}  // namespace
