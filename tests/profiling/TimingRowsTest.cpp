// TimingRowsTest.cpp: the timings table's rows (profiling/TimingRows) driven through a real Profiler,
// frame by frame as the app drives it: switching methods twice leaves exactly the running passes'
// rows, in tree order, each child directly under its parent, at every frame (with timer results that
// arrive frames late and without timers); a pass that starts late lands under the scope that encloses
// it and keeps its place when it skips frames; rows of passes that stopped leave after kStaleFrames;
// a cached pass says "cached"; each row reports its own time source; the number formats.
#include "profiling/Profiler.h"
#include "profiling/TimingRows.h"
#include "support/GlTestEnvironment.h"

#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace {

using profiling::Profiler;
using profiling::TimingRow;

/// A TimerBackend (as CUDA events) whose results arrive `latencyFrames` frames after they were issued.
class DelayedTimer final : public profiling::TimerBackend
{
public:
    explicit DelayedTimer(int latency) : mLatency(latency) {}
    std::string_view name() const override { return "delayed"; }
    int begin() override
    {
        mIssuedAt[mNext] = mFrame;
        return mNext++;
    }
    void end(int) override {}
    std::optional<double> tryElapsedMs(int token) override
    {
        auto it = mIssuedAt.find(token);
        if (it == mIssuedAt.end() || mFrame < it->second + mLatency)
            return std::nullopt;
        return 0.25;
    }
    void release(int token) override { mIssuedAt.erase(token); }
    void setFrame(int frame) { mFrame = frame; }

private:
    int mLatency = 0;
    int mNext = 0;
    int mFrame = 0;
    std::map<int, int> mIssuedAt;
};

/// A pass of a scripted frame: a scope around its children, or only a markCached call.
struct PassSpec
{
    std::string name;
    std::vector<PassSpec> children;
    bool cached = false;
};

void runPasses(Profiler& profiler, const std::vector<PassSpec>& passes, profiling::TimerBackend* timer)
{
    for (const PassSpec& pass : passes) {
        if (pass.cached) {
            profiler.markCached(pass.name);
            continue;
        }
        auto scope = profiler.scope(pass.name, timer);
        runPasses(profiler, pass.children, timer);
    }
}

/// Drives frames as the app does; a method change calls resetStats mid-frame, after the passes ran.
class FrameDriver
{
public:
    FrameDriver(Profiler& profiler, DelayedTimer* timer) : mProfiler(profiler), mTimer(timer) {}
    void frame(const std::vector<PassSpec>& passes, bool resetAfter = false)
    {
        if (mTimer)
            mTimer->setFrame(mFrame);
        mProfiler.beginFrame();
        runPasses(mProfiler, passes, mTimer);
        if (resetAfter)
            mProfiler.resetStats();
        mProfiler.endFrame();
        ++mFrame;
    }

private:
    Profiler& mProfiler;
    DelayedTimer* mTimer;
    int mFrame = 0;
};

/// The table as text: one line per row, two spaces of indent per depth, then the label.
std::vector<std::string> outline(const std::vector<TimingRow>& rows)
{
    std::vector<std::string> lines;
    for (const TimingRow& row : rows)
        lines.push_back(std::string(std::size_t(2 * row.depth), ' ') + row.label);
    return lines;
}

/// Every row below depth 0 sits directly under its parent: the nearest row above it one level up is
/// the pass whose name its own extends ("<parent>/<label>"); depths never jump by more than one.
void expectEachChildUnderItsParent(const std::vector<TimingRow>& rows, const std::string& when)
{
    for (std::size_t i = 0; i < rows.size(); ++i) {
        if (i == 0) {
            EXPECT_EQ(rows[i].depth, 0) << when;
            continue;
        }
        EXPECT_LE(rows[i].depth, rows[i - 1].depth + 1) << when << ": " << rows[i].name;
        if (rows[i].depth == 0)
            continue;
        std::size_t parent = i;
        while (parent > 0 && rows[parent - 1].depth != rows[i].depth - 1)
            --parent;
        ASSERT_GT(parent, 0u) << when << ": " << rows[i].name << " has no parent row";
        EXPECT_EQ(rows[i].name, rows[parent - 1].name + "/" + rows[i].label) << when;
    }
}

const std::vector<PassSpec> kMethodA = {
    {"scene", {{"scene/opaque"}, {"scene/sky"}}},
    {"histogram/a", {{"histogram/a/count"}}},
    {"tonemap/ward", {{"tonemap/ward/curve", {{"tonemap/ward/curve/fit"}}}, {"tonemap/ward/apply"}}},
    {"ui"},
};
const std::vector<std::string> kOutlineA = {
    "scene", "  opaque", "  sky", "histogram/a", "  count", "tonemap/ward", "  curve", "    fit", "  apply", "ui",
};
const std::vector<PassSpec> kMethodB = {
    {"scene", {{"scene/opaque"}, {"scene/sky"}}},
    {"histogram/b", {{"histogram/b/scatter"}, {"histogram/b/resolve"}}},
    {"tonemap/equalize", {{"tonemap/equalize/curve"}, {"tonemap/equalize/apply"}}},
    {"ui"},
};
const std::vector<std::string> kOutlineB = {
    "scene",     "  opaque",         "  sky",   "histogram/b", "  scatter",
    "  resolve", "tonemap/equalize", "  curve", "  apply",     "ui",
};

std::set<std::string> namesOf(const std::vector<PassSpec>& passes)
{
    std::set<std::string> names;
    for (const PassSpec& pass : passes) {
        names.insert(pass.name);
        for (const std::string& child : namesOf(pass.children))
            names.insert(child);
    }
    return names;
}

class TimingRowsTest : public testing_support::GlTest
{
};

TEST_F(TimingRowsTest, SwitchingMethodsTwiceLeavesExactlyTheRunningPassesInTreeOrder)
{
    // Without timers (the CPU fallback: results one frame late) and with timer results 3 frames late,
    // so frames of the previous method are still in flight when the method changes.
    for (int latency : {0, 3}) {
        SCOPED_TRACE("timer latency " + std::to_string(latency));
        Profiler profiler(false);
        DelayedTimer timer(latency);
        FrameDriver driver(profiler, latency > 0 ? &timer : nullptr);
        const int framesPerMethod = Profiler::kWarmupFrames + Profiler::kStaleFrames + 4;
        struct Phase
        {
            const std::vector<PassSpec>* passes;
            const std::vector<std::string>* outline;
        };
        for (Phase phase : {Phase{&kMethodA, &kOutlineA}, Phase{&kMethodB, &kOutlineB}, Phase{&kMethodA, &kOutlineA}}) {
            const std::set<std::string> running = namesOf(*phase.passes);
            for (int f = 0; f < framesPerMethod; ++f) {
                driver.frame(*phase.passes, f == framesPerMethod - 1);  // the method changes after the last
                if (f == framesPerMethod - 1)
                    continue;
                const std::vector<TimingRow> rows = profiling::timingRows(profiler);
                const std::string when = "frame " + std::to_string(f) + " of a method";
                // At no frame does a row of the previous method show, not even while its frames arrive.
                for (const TimingRow& row : rows)
                    EXPECT_TRUE(running.count(row.name)) << when << ": " << row.name << " does not run";
                expectEachChildUnderItsParent(rows, when);
                if (!rows.empty()) {
                    EXPECT_EQ(outline(rows), *phase.outline) << when;
                }
                if (f == framesPerMethod - 2) {  // before the change: every running pass, measured
                    EXPECT_EQ(outline(rows), *phase.outline);
                    for (const TimingRow& row : rows)
                        EXPECT_GT(row.gpu.count, 0u) << row.name << ": statistics after the warm-up";
                }
            }
        }
    }
}

TEST_F(TimingRowsTest, ALateChildLandsUnderItsParentAndKeepsItsPlace)
{
    Profiler profiler(false);
    FrameDriver driver(profiler, nullptr);
    const std::vector<PassSpec> steady = {
        {"scene", {{"scene/opaque"}}},
        {"tonemap/equalize", {{"tonemap/equalize/curve"}, {"tonemap/equalize/apply"}}},
    };
    for (int f = 0; f < 6; ++f)
        driver.frame(steady);
    // The near shadow cascade starts later, as the camera moves, and is drawn only every third frame.
    std::vector<PassSpec> moving = steady;
    moving[0].children.insert(moving[0].children.begin(), PassSpec{"scene/shadowNear"});
    const std::vector<std::string> expected = {"scene",   "  shadowNear", "  opaque", "tonemap/equalize",
                                               "  curve", "  apply"};
    for (int f = 0; f < 3 * Profiler::kStaleFrames; ++f) {
        driver.frame(f % 3 == 0 ? moving : steady);
        const std::vector<TimingRow> rows = profiling::timingRows(profiler);
        if (f == 0)
            continue;  // the first moving frame has not arrived yet
        EXPECT_EQ(outline(rows), expected) << "frame " << f;
        expectEachChildUnderItsParent(rows, "frame " + std::to_string(f));
    }
}

TEST_F(TimingRowsTest, APassEnclosedByAnotherIsItsChildWhateverItsName)
{
    // The tree is the scopes' nesting; the label drops the parent's name only where it is a prefix.
    Profiler profiler(false);
    FrameDriver driver(profiler, nullptr);
    const std::vector<PassSpec> passes = {{"view/split", {{"B/histogram/x", {{"B/histogram/x/count"}}}}}, {"ui"}};
    for (int f = 0; f < 3; ++f)
        driver.frame(passes);
    const std::vector<TimingRow> rows = profiling::timingRows(profiler);
    EXPECT_EQ(outline(rows), (std::vector<std::string>{"view/split", "  B/histogram/x", "    count", "ui"}));
}

TEST_F(TimingRowsTest, RowsOfPassesThatStoppedLeaveAfterTheStaleFrames)
{
    Profiler profiler(false);
    FrameDriver driver(profiler, nullptr);
    const std::vector<PassSpec> withProbe = {{"scene"}, {"view/probe"}, {"ui"}};
    const std::vector<PassSpec> withoutProbe = {{"scene"}, {"ui"}};
    for (int f = 0; f < 4; ++f)
        driver.frame(withProbe);
    // No resetStats: the probe was switched off by a setting that keeps the statistics.
    std::vector<bool> shown;
    for (int f = 0; f < Profiler::kStaleFrames + 3; ++f) {
        driver.frame(withoutProbe);
        bool probe = false;
        for (const TimingRow& row : profiling::timingRows(profiler))
            probe = probe || row.name == "view/probe";
        shown.push_back(probe);
    }
    // The CPU fallback harvests a frame one frame later: the last probe frame (3) is harvested at frame
    // 4, frames without it from frame 5 on; the row stays for kStaleFrames frames, then leaves for good.
    for (std::size_t i = 0; i < shown.size(); ++i)
        EXPECT_EQ(shown[i], int(i) < Profiler::kStaleFrames) << "frame " << i << " after the probe stopped";
}

TEST_F(TimingRowsTest, ACachedPassSaysCached)
{
    Profiler profiler(false);
    FrameDriver driver(profiler, nullptr);
    // The shadow map is drawn once, then reused while nothing moves.
    driver.frame({{"scene", {{"scene/shadow"}, {"scene/opaque"}}}});
    const std::vector<PassSpec> reused = {{"scene", {{"scene/shadow", {}, true}, {"scene/opaque"}}}};
    for (int f = 0; f < Profiler::kWarmupFrames + Profiler::kStaleFrames + 2; ++f)
        driver.frame(reused);
    profiler.resetStats();  // after a change too: reused, never run since
    for (int f = 0; f < Profiler::kWarmupFrames + 2; ++f)
        driver.frame(reused);
    const std::vector<TimingRow> rows = profiling::timingRows(profiler);
    ASSERT_EQ(outline(rows), (std::vector<std::string>{"scene", "  shadow", "  opaque"}));
    EXPECT_TRUE(rows[1].cached);
    EXPECT_FALSE(rows[2].cached);
    const profiling::TimingCells shadow = profiling::timingCells(rows[1], profiling::TimeUnit::Milliseconds);
    EXPECT_EQ(shadow.mean, "cached");
    EXPECT_EQ(shadow.min, "");
    EXPECT_EQ(shadow.source, "") << "nothing was timed";
    const profiling::TimingCells opaque = profiling::timingCells(rows[2], profiling::TimeUnit::Milliseconds);
    EXPECT_NE(opaque.mean, "cached");
    EXPECT_NE(opaque.mean, "-");
    EXPECT_EQ(opaque.source, "cpu");

    // Captures list only what ran.
    profiler.startRecording();
    for (int f = 0; f < 3; ++f)
        driver.frame(reused);
    ASSERT_FALSE(profiler.recordedFrames().empty());
    for (const profiling::PassRecord& pass : profiler.recordedFrames().back().passes)
        EXPECT_NE(pass.name, "scene/shadow");
}

TEST_F(TimingRowsTest, EachRowReportsItsOwnTimeSource)
{
    Profiler profiler(false);
    DelayedTimer cuda(1);
    int frame = 0;
    for (; frame < Profiler::kWarmupFrames + 4; ++frame) {
        cuda.setFrame(frame);
        profiler.beginFrame();
        {
            auto histogram = profiler.scope("histogram/cuda-x", &cuda);  // a CUDA method's kernels
        }
        {
            auto tonemap = profiler.scope("tonemap/ward");  // no useful GL timers here: CPU time
        }
        profiler.endFrame();
    }
    const std::vector<TimingRow> rows = profiling::timingRows(profiler);
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0].source, profiling::TimeSource::CudaEvent);
    EXPECT_EQ(rows[1].source, profiling::TimeSource::CpuFallback);
    EXPECT_EQ(profiling::timingCells(rows[0], profiling::TimeUnit::Milliseconds).source, "C");
    EXPECT_EQ(profiling::timingCells(rows[1], profiling::TimeUnit::Milliseconds).source, "cpu");

    // A GL timer query row (from statistics as a GPU with useful timers gives them).
    profiling::PassStats gl;
    gl.name = "scene";
    gl.source = profiling::TimeSource::GlTimerQuery;
    gl.gpu.count = 1;
    gl.lastFrame = 7;
    const std::vector<TimingRow> glRows = profiling::timingRows({gl}, 7);
    ASSERT_EQ(glRows.size(), 1u);
    EXPECT_EQ(profiling::timingCells(glRows[0], profiling::TimeUnit::Milliseconds).source, "G");
    for (std::string_view tag : {"G", "C", "cpu"})
        EXPECT_NE(profiling::sourceLegend().find(tag), std::string_view::npos) << tag;
}

TEST(TimingRowsFormat, ThreeSignificantDigitsInFourCharactersInTheTablesUnit)
{
    using profiling::formatTime;
    using profiling::TimeUnit;
    EXPECT_EQ(formatTime(627.4, TimeUnit::Milliseconds), "627");
    EXPECT_EQ(formatTime(1227.4, TimeUnit::Milliseconds), "1227");
    EXPECT_EQ(formatTime(62.74, TimeUnit::Milliseconds), "62.7");
    EXPECT_EQ(formatTime(6.274, TimeUnit::Milliseconds), "6.27");
    EXPECT_EQ(formatTime(9.996, TimeUnit::Milliseconds), "10.0");
    EXPECT_EQ(formatTime(0.2404, TimeUnit::Milliseconds), "0.24");
    EXPECT_EQ(formatTime(0.9996, TimeUnit::Milliseconds), "1.00");
    EXPECT_EQ(formatTime(0.2404, TimeUnit::Microseconds), "240");
    EXPECT_EQ(formatTime(0.00241, TimeUnit::Microseconds), "2.41");
    EXPECT_EQ(formatTime(0.0, TimeUnit::Microseconds), "0.00");
    for (double ms : {0.0012, 0.012, 0.12, 1.2, 12.0, 120.0, 999.4, 0.9996, 9.996, 99.96})
        for (TimeUnit unit : {TimeUnit::Milliseconds, TimeUnit::Microseconds})
            if ((unit == TimeUnit::Microseconds ? ms * 1000.0 : ms) < 9999.5) {
                EXPECT_LE(formatTime(ms, unit).size(), 4u) << ms;
            }

    TimingRow fast;
    fast.gpu.count = 10;
    fast.gpu.mean = 0.24;
    EXPECT_EQ(profiling::tableUnit({fast}), TimeUnit::Microseconds);
    TimingRow slow = fast;
    slow.gpu.mean = 627.0;
    EXPECT_EQ(profiling::tableUnit({fast, slow}), TimeUnit::Milliseconds);
    EXPECT_EQ(profiling::unitName(TimeUnit::Milliseconds), "ms");
    const profiling::TimingCells cells = profiling::timingCells(fast, TimeUnit::Microseconds);
    EXPECT_EQ(cells.mean, "240");

    TimingRow warming;
    EXPECT_EQ(profiling::timingCells(warming, TimeUnit::Milliseconds).mean, "-");
}

}  // namespace
