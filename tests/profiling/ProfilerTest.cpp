// ProfilerTest.cpp: the profiler's contract: results arrive within kFrameDelay frames and a missing
// result is dropped rather than waited for; nested scope names; the CPU fallback on software GL;
// resetStats and the warm-up; recording of every scope.
#include "gl/Texture.h"
#include "profiling/Profiler.h"
#include "support/GlTestEnvironment.h"

#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace {

using profiling::Profiler;

/// A TimerBackend whose results arrive when the test says so (frame-accurate, no real GPU).
class ScriptedTimer final : public profiling::TimerBackend
{
public:
    std::string_view name() const override { return "scripted"; }
    int begin() override
    {
        int token = mNext++;
        mIssuedAt[token] = mFrame;
        return token;
    }
    void end(int) override {}
    std::optional<double> tryElapsedMs(int token) override
    {
        auto it = mIssuedAt.find(token);
        if (it == mIssuedAt.end() || neverReady.count(token) || mFrame < it->second + latencyFrames)
            return std::nullopt;
        return 1.0 + token;
    }
    void release(int token) override { mIssuedAt.erase(token); }

    void setFrame(int frame) { mFrame = frame; }
    int latencyFrames = 2;
    std::map<int, bool> neverReady;
    std::size_t outstanding() const { return mIssuedAt.size(); }

private:
    int mNext = 0;
    int mFrame = 0;
    std::map<int, int> mIssuedAt;
};

/// A little real GL work for a scope.
void clearTexture(const gl::Texture& texture)
{
    const float zero[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    glClearTexImage(texture.id(), 0, GL_RGBA, GL_FLOAT, zero);
}

class ProfilerTest : public testing_support::GlTest
{
};

TEST_F(ProfilerTest, ResultsArriveAfterTheirLatencyWithinFrameDelay)
{
    static_assert(Profiler::kFrameDelay >= 3, "the test below uses a latency of 2 frames");
    Profiler profiler(false);
    ScriptedTimer timer;
    timer.latencyFrames = 2;
    profiler.startRecording();
    for (int frame = 0; frame < 4; ++frame) {
        timer.setFrame(frame);
        profiler.beginFrame();
        // Frame f's result becomes available at frame f + 2, so it is harvested at that frame's beginFrame.
        if (frame < 2)
            EXPECT_FALSE(profiler.lastGpuMs("pass")) << "frame " << frame;
        else
            EXPECT_EQ(profiler.recordedFrames().size(), std::size_t(frame - 1)) << "frame " << frame;
        {
            auto scope = profiler.scope("pass", &timer);
        }
        profiler.endFrame();
    }
    ASSERT_TRUE(profiler.lastGpuMs("pass"));
    ASSERT_FALSE(profiler.recordedFrames().empty());
    EXPECT_EQ(profiler.recordedFrames().front().frame, 0u);
    EXPECT_EQ(profiler.recordedFrames().front().passes.at(0).source, profiling::TimeSource::CudaEvent);
    EXPECT_DOUBLE_EQ(*profiler.recordedFrames().front().passes.at(0).gpuMs, 1.0);  // token 0
}

TEST_F(ProfilerTest, AResultThatNeverArrivesIsDroppedNotWaitedFor)
{
    Profiler profiler(false);
    ScriptedTimer timer;
    timer.latencyFrames = 0;
    timer.neverReady[0] = true;  // frame 0's timer never completes
    profiler.startRecording();
    const int frames = Profiler::kFrameDelay + 4;
    for (int frame = 0; frame < frames; ++frame) {
        timer.setFrame(frame);
        profiler.beginFrame();  // returns even though frame 0 is still outstanding: nothing ever blocks
        {
            auto scope = profiler.scope("pass", &timer);
        }
        profiler.endFrame();
    }
    const auto& recorded = profiler.recordedFrames();
    ASSERT_FALSE(recorded.empty());
    EXPECT_EQ(recorded.front().frame, 1u) << "frame 0 must be dropped when its ring slot is reused";
    for (std::size_t i = 1; i < recorded.size(); ++i)
        EXPECT_EQ(recorded[i].frame, recorded[i - 1].frame + 1) << "frames stay in order";
    // Later frames waited for frame 0 only until its slot came round again (kFrameDelay frames).
    EXPECT_GE(recorded.size(), std::size_t(frames - 1 - Profiler::kFrameDelay));
    EXPECT_LE(timer.outstanding(), std::size_t(1)) << "dropped and harvested tokens are released";
}

TEST_F(ProfilerTest, GlTimerResultsArriveWithinFrameDelay)
{
    Profiler profiler(true);
    gl::Texture texture("test.profiler-target", GL_RGBA8, {64, 64});
    for (int frame = 0; frame <= Profiler::kFrameDelay; ++frame) {
        profiler.beginFrame();
        {
            auto scope = profiler.scope("clear");
            clearTexture(texture);
        }
        glFlush();
        // Frames are milliseconds apart in the app; back-to-back iterations would outrun any GPU.
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
        profiler.endFrame();
    }
    profiler.beginFrame();
    EXPECT_TRUE(profiler.lastGpuMs("clear")) << "no timer result within kFrameDelay frames";
    profiler.endFrame();
}

TEST_F(ProfilerTest, SoftwareRendererUsesCpuTime)
{
    const gl::GlInfo& info = testing_support::glContext().info();
    if (!info.isSoftwareRenderer())
        GTEST_SKIP() << "needs a software renderer (llvmpipe), this is " << info.renderer;
    // As the app does: GL timers on a software rasteriser measure submission, not GPU work.
    Profiler profiler(!info.isSoftwareRenderer());
    gl::Texture texture("test.profiler-target", GL_RGBA8, {32, 32});
    profiler.startRecording();
    for (int frame = 0; frame < Profiler::kWarmupFrames + 4; ++frame) {
        profiler.beginFrame();
        {
            auto scope = profiler.scope("clear");
            clearTexture(texture);
        }
        profiler.endFrame();
    }
    profiler.beginFrame();
    EXPECT_FALSE(profiler.glTimersUseful());
    auto stats = profiler.passStats();
    ASSERT_EQ(stats.size(), 1u);
    EXPECT_EQ(stats[0].source, profiling::TimeSource::CpuFallback);
    EXPECT_GT(stats[0].gpu.count, 0u);
    ASSERT_FALSE(profiler.recordedFrames().empty());
    const profiling::PassRecord& pass = profiler.recordedFrames().back().passes.at(0);
    EXPECT_EQ(pass.source, profiling::TimeSource::CpuFallback);
    ASSERT_TRUE(pass.gpuMs);
    EXPECT_DOUBLE_EQ(*pass.gpuMs, pass.cpuMs);
    EXPECT_FALSE(pass.gpuStartMs) << "no GPU timestamp to place the event with";
}

TEST_F(ProfilerTest, NestedScopesKeepTheirFullNamesInOrder)
{
    Profiler profiler(false);
    profiler.startRecording();
    for (int frame = 0; frame < 3; ++frame) {
        profiler.beginFrame();
        {
            auto outer = profiler.scope("scene");
            {
                auto inner = profiler.scope("scene/opaque");
            }
            auto sky = profiler.scope("scene/sky");
        }
        profiler.endFrame();
    }
    profiler.beginFrame();
    ASSERT_FALSE(profiler.recordedFrames().empty());
    const auto& passes = profiler.recordedFrames().back().passes;
    ASSERT_EQ(passes.size(), 3u);
    EXPECT_EQ(passes[0].name, "scene");
    EXPECT_EQ(passes[1].name, "scene/opaque");
    EXPECT_EQ(passes[2].name, "scene/sky");
    // The outer scope encloses the inner ones on the CPU clock.
    EXPECT_LE(passes[0].cpuStartMs, passes[1].cpuStartMs);
    EXPECT_GE(passes[0].cpuStartMs + passes[0].cpuMs, passes[2].cpuStartMs + passes[2].cpuMs - 1e-9);
    std::vector<std::string> names;
    for (const auto& stats : profiler.passStats())
        names.push_back(stats.name);
    EXPECT_EQ(names, (std::vector<std::string>{"scene", "scene/opaque", "scene/sky"}));
}

TEST_F(ProfilerTest, NamePrefixSeparatesASecondPipelinesScopes)
{
    Profiler profiler(false);
    profiler.startRecording();
    for (int frame = 0; frame < 3; ++frame) {
        profiler.beginFrame();
        {
            auto a = profiler.scope("histogram/x");
        }
        {
            auto prefix = profiler.prefixNames("B/");
            EXPECT_EQ(profiler.namePrefix(), "B/");
            auto b = profiler.scope("histogram/x");
            {
                auto nested = profiler.prefixNames("inner/");
                auto c = profiler.scope("count");
            }
            EXPECT_EQ(profiler.namePrefix(), "B/");  // the inner prefix ended with its scope
        }
        EXPECT_EQ(profiler.namePrefix(), "");
        auto after = profiler.scope("ui");
        profiler.endFrame();
    }
    profiler.beginFrame();
    ASSERT_FALSE(profiler.recordedFrames().empty());
    std::vector<std::string> recorded;
    for (const auto& pass : profiler.recordedFrames().back().passes)
        recorded.push_back(pass.name);
    EXPECT_EQ(recorded, (std::vector<std::string>{"histogram/x", "B/histogram/x", "B/inner/count", "ui"}));
    std::vector<std::string> names;
    for (const auto& stats : profiler.passStats())
        names.push_back(stats.name);
    EXPECT_EQ(names, recorded);  // separate statistics per side
}

TEST_F(ProfilerTest, ResetStatsClearsAndSkipsTheWarmup)
{
    Profiler profiler(false);  // CPU fallback: frame f is harvested at frame f + 1's beginFrame
    auto runFrames = [&](int count) {
        for (int i = 0; i < count; ++i) {
            profiler.beginFrame();
            {
                auto scope = profiler.scope("pass");
            }
            profiler.endFrame();
        }
    };
    auto count = [&]() -> std::size_t {
        auto stats = profiler.passStats();
        return stats.empty() ? 0 : stats[0].gpu.count;
    };
    runFrames(Profiler::kWarmupFrames + 6);  // harvested: kWarmupFrames + 5, of which the warm-up is skipped
    EXPECT_EQ(count(), 5u);
    EXPECT_GT(profiler.frameTimeMs().count, 0u);

    profiler.resetStats();
    EXPECT_TRUE(profiler.passStats().empty());
    EXPECT_EQ(profiler.frameTimeMs().count, 0u);
    runFrames(Profiler::kWarmupFrames);  // harvests exactly kWarmupFrames frames: all warm-up
    EXPECT_EQ(count(), 0u);
    runFrames(3);
    EXPECT_EQ(count(), 3u);
}

TEST_F(ProfilerTest, RecordingHoldsEveryScopeOfEveryFrame)
{
    const std::vector<std::string> names = {"scene", "histogram/test", "scan/test", "tonemap/test", "ui"};
    Profiler profiler(false);
    gl::Texture texture("test.profiler-target", GL_RGBA8, {16, 16});
    for (int frame = 0; frame < 2; ++frame) {  // frames before the recording are not in it
        profiler.beginFrame();
        profiler.endFrame();
    }
    profiler.startRecording();
    const int recordedFrames = 6;
    for (int frame = 0; frame < recordedFrames; ++frame) {
        profiler.beginFrame();
        for (const std::string& name : names) {
            auto scope = profiler.scope(name);
            clearTexture(texture);
        }
        profiler.endFrame();
    }
    glFinish();
    profiler.beginFrame();  // harvests the last frame
    profiler.stopRecording();
    profiler.endFrame();

    const auto& recorded = profiler.recordedFrames();
    std::size_t withPasses = 0;
    for (const auto& frame : recorded) {
        if (frame.passes.empty())
            continue;  // the frame in flight when recording started
        ++withPasses;
        ASSERT_EQ(frame.passes.size(), names.size()) << "frame " << frame.frame;
        for (std::size_t i = 0; i < names.size(); ++i) {
            EXPECT_EQ(frame.passes[i].name, names[i]);
            EXPECT_GE(frame.passes[i].cpuMs, 0.0);
            ASSERT_TRUE(frame.passes[i].gpuMs);
            EXPECT_GE(*frame.passes[i].gpuMs, 0.0);
        }
    }
    EXPECT_EQ(withPasses, std::size_t(recordedFrames));
}

/// Frames `first`..: one "scene" scope each; then the GPU is drained and the last frame harvested.
void runRecordedFrames(Profiler& profiler, const gl::Texture& texture, int frames)
{
    for (int frame = 0; frame < frames; ++frame) {
        profiler.beginFrame();
        {
            auto scope = profiler.scope("scene");
            clearTexture(texture);
        }
        profiler.endFrame();
    }
    glFinish();
}

TEST_F(ProfilerTest, RecordingKeepsABoundedRingAndCountsWhatItDrops)
{
    Profiler profiler(false);
    gl::Texture texture("test.profiler-ring", GL_RGBA8, {8, 8});
    EXPECT_EQ(profiler.recordingCapacity(), Profiler::kDefaultRecordingCapacity);
    profiler.setRecordingCapacity(5);
    profiler.startRecording();
    runRecordedFrames(profiler, texture, 40);
    profiler.beginFrame();  // harvests the last frame
    profiler.stopRecording();
    profiler.endFrame();

    const auto& recorded = profiler.recordedFrames();
    ASSERT_EQ(recorded.size(), 5u);
    EXPECT_GE(profiler.droppedFrames(), 34u);  // 40 frames and the one in flight, less kFrameDelay at most
    EXPECT_EQ(profiler.framesRecorded(), recorded.size() + profiler.droppedFrames());
    for (std::size_t i = 1; i < recorded.size(); ++i)
        EXPECT_EQ(recorded[i].frame, recorded[i - 1].frame + 1) << "the ring keeps the last frames, in order";
    EXPECT_GE(recorded.back().frame, 39u);

    profiler.setRecordingCapacity(2);  // shrinking drops the oldest frames at once
    ASSERT_EQ(recorded.size(), 2u);
    EXPECT_GE(recorded.back().frame, 39u);
    profiler.setRecordingCapacity(0);  // at least one frame
    EXPECT_EQ(profiler.recordingCapacity(), 1u);
}

TEST_F(ProfilerTest, RecordingStartsAndStopsAnyNumberOfTimes)
{
    Profiler profiler(false);
    gl::Texture texture("test.profiler-restart", GL_RGBA8, {8, 8});
    profiler.setRecordingCapacity(4);
    for (int round = 0; round < 25; ++round) {
        runRecordedFrames(profiler, texture, 3);  // frames between recordings are not in the next one
        const std::uint64_t startFrame = profiler.frameIndex();
        profiler.startRecording();
        EXPECT_TRUE(profiler.recording());
        EXPECT_EQ(profiler.recordedFrames().size(), 0u) << "round " << round;
        EXPECT_EQ(profiler.droppedFrames(), 0u) << "round " << round;
        const int frames = 2 + round % 5;  // some rounds fit the ring, some overflow it
        runRecordedFrames(profiler, texture, frames);
        profiler.beginFrame();
        profiler.stopRecording();
        profiler.endFrame();
        EXPECT_FALSE(profiler.recording());
        const auto& recorded = profiler.recordedFrames();
        ASSERT_FALSE(recorded.empty()) << "round " << round;
        EXPECT_LE(recorded.size(), 4u);
        EXPECT_GE(recorded.front().frame, startFrame) << "a frame from before the start leaked in, round " << round;
        EXPECT_EQ(profiler.framesRecorded(), recorded.size() + profiler.droppedFrames());
        EXPECT_LE(profiler.framesRecorded(), std::uint64_t(frames) + 1) << "round " << round;
        EXPECT_EQ(profiler.droppedFrames() > 0, profiler.framesRecorded() > 4) << "round " << round;
        const std::size_t kept = recorded.size();
        const std::uint64_t lastFrame = recorded.back().frame;
        runRecordedFrames(profiler, texture, 2);  // stopped: nothing more is appended
        profiler.beginFrame();
        profiler.endFrame();
        EXPECT_EQ(profiler.recordedFrames().size(), kept);
        EXPECT_EQ(profiler.recordedFrames().back().frame, lastFrame);
    }
}

}  // namespace
