// Profiler.h: per-pass GPU and CPU timing that never stalls the frame.
//
// Every pass runs inside a Profiler::Scope named `stage/<method>` ("scene", "histogram/<id>",
// "scan/<id>", "tonemap/<id>", "ui"). A scope pushes a GL debug group and records GL_TIMESTAMP
// queries (or CUDA events, through a TimerBackend) into a ring kFrameDelay frames deep; results are
// read only once available, frames later. On GL implementations whose timer queries measure nothing
// (llvmpipe returns 0) GPU times fall back to the CPU-side time of the scope and are marked as such.
// Recording for captures keeps a bounded ring of the last frames (10 000 by default) and counts the
// frames it drops. Each pass also keeps where it sits in the pass tree (the scope that enclosed it, the
// order passes ran in) and the last frame it ran in, or was marked cached (markCached: a pass that
// reuses an earlier frame's result), so the table can show only the passes that still run, as a tree
// (profiling/TimingRows). Measurement only: the ImGui panel and the capture writers are separate
// (ui/TimingsPanel, profiling/Capture).
#pragma once

#include "util/Stats.h"

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace profiling {

/// Where a pass's GPU time came from.
enum class TimeSource { GlTimerQuery, CudaEvent, CpuFallback };
std::string_view toString(TimeSource source);

/// A non-GL GPU timer (CUDA events). Tokens identify one begin/end pair.
class TimerBackend
{
public:
    virtual ~TimerBackend() = default;
    virtual std::string_view name() const = 0;
    virtual int begin() = 0;
    virtual void end(int token) = 0;
    /// Elapsed milliseconds once the GPU has passed the end marker; never waits.
    virtual std::optional<double> tryElapsedMs(int token) = 0;
    virtual void release(int token) = 0;
};

/// One pass of one frame, as recorded for captures.
struct PassRecord
{
    std::string name;
    double cpuStartMs = 0.0;  ///< since the capture started
    double cpuMs = 0.0;
    std::optional<double> gpuStartMs;  ///< since the capture started (GL timestamps only)
    std::optional<double> gpuMs;
    TimeSource source = TimeSource::GlTimerQuery;
};

struct FrameRecord
{
    std::uint64_t frame = 0;
    double cpuStartMs = 0.0;
    double cpuFrameMs = 0.0;
    std::vector<PassRecord> passes;
};

struct PassStats
{
    std::string name;
    TimeSource source = TimeSource::GlTimerQuery;
    util::Summary gpu;
    util::Summary cpu;
    std::vector<float> gpuHistory;
    /// The scope open around this one when it last ran ("" at the top level): "scene" for
    /// "scene/shadowNear" whenever it starts, so a late pass still lands under its parent.
    std::string parent;
    std::uint64_t lastFrame = 0;      ///< the latest harvested frame in which it ran or was marked cached
    bool cached = false;              ///< in lastFrame it reused an earlier result (Profiler::markCached)
    std::optional<double> lastGpuMs;  ///< its latest measured time, warm-up frames included
};

class Profiler
{
public:
    static constexpr int kFrameDelay = 4;        ///< frames a timer result may take to arrive
    static constexpr int kWarmupFrames = 8;      ///< frames ignored after a reset
    static constexpr std::size_t kWindow = 256;  ///< frames in the rolling statistics
    /// A pass that has not run (nor been marked cached) in this many frames before the latest
    /// harvested one no longer runs: the timings table drops it. A few frames, so that a dropped
    /// timer result or a pass that skips a frame does not make its row blink.
    static constexpr int kStaleFrames = kFrameDelay + 4;

    /// `glTimersUseful` is false on software rasterisers (see gl::GlInfo::isSoftwareRenderer).
    explicit Profiler(bool glTimersUseful);
    ~Profiler();
    Profiler(const Profiler&) = delete;
    Profiler& operator=(const Profiler&) = delete;

    class Scope
    {
    public:
        Scope(Scope&& other) noexcept;
        Scope& operator=(Scope&&) = delete;
        Scope(const Scope&) = delete;
        ~Scope();

    private:
        friend class Profiler;
        Scope(Profiler* profiler, int index);
        Profiler* mProfiler = nullptr;
        int mIndex = -1;
    };

    /// While it lives, every scope opened gets `prefix` in front of its name ("B/" + "histogram/<id>"),
    /// so a second pipeline on the same frame (the split view) is timed apart from the first, nested
    /// scopes with fixed names included. Prefixes nest; the previous one comes back on destruction.
    class NamePrefix
    {
    public:
        NamePrefix(NamePrefix&& other) noexcept;
        NamePrefix& operator=(NamePrefix&&) = delete;
        NamePrefix(const NamePrefix&) = delete;
        ~NamePrefix();

    private:
        friend class Profiler;
        NamePrefix(Profiler* profiler, std::string previous);
        Profiler* mProfiler = nullptr;
        std::string mPrevious;
    };

    void beginFrame();
    void endFrame();
    /// Times a pass with GL timer queries (or `backend`'s timers, e.g. CUDA events).
    [[nodiscard]] Scope scope(std::string_view name, TimerBackend* backend = nullptr);
    /// Records that the pass `name` (prefixed like a scope) reused an earlier frame's result in this
    /// frame instead of running, e.g. a shadow map when nothing moved: its row says "cached" and stays
    /// in the table. Nothing is timed and captures do not list it.
    void markCached(std::string_view name);
    /// Prefixes the names of the scopes opened while the result lives (see NamePrefix).
    [[nodiscard]] NamePrefix prefixNames(std::string_view prefix);
    const std::string& namePrefix() const { return mNamePrefix; }

    /// Clears the statistics and the pass list and skips kWarmupFrames (call after any method or
    /// setting change). Frames begun before the call (still in flight) no longer add passes, so the
    /// previous method's passes do not come back.
    void resetStats();
    bool glTimersUseful() const { return mGlTimersUseful; }
    std::uint64_t frameIndex() const { return mFrameIndex; }

    /// Every pass seen since the last resetStats, in pass-tree order: the order of the latest harvested
    /// frame, with passes missing from it kept after the pass they followed before.
    std::vector<PassStats> passStats() const;
    /// The latest frame whose results arrived and counted for passStats (none yet after a reset).
    std::optional<std::uint64_t> latestFrame() const;
    util::Summary frameTimeMs() const;
    std::vector<float> frameTimeHistory() const;
    /// Most recent GPU time of a pass (ms) if any arrived.
    std::optional<double> lastGpuMs(std::string_view name) const;

    /// Recording for captures: frames whose results have all arrived are appended in order to a ring
    /// that keeps the last recordingCapacity() frames; older frames are dropped and counted, so memory
    /// stays bounded however long a window records.
    static constexpr std::size_t kDefaultRecordingCapacity = 10'000;
    static constexpr std::size_t kMaxRecordingCapacity = 1'000'000;  ///< about 1 KB a frame
    /// Starts a new recording (the previous one is cleared) with the frame in progress, or the next
    /// one: frames begun earlier but harvested later are not part of it. Any number of times.
    void startRecording();
    void stopRecording();
    bool recording() const { return mRecording; }
    /// Ring size in frames (at least 1); shrinking it drops the oldest recorded frames.
    void setRecordingCapacity(std::size_t frames);
    std::size_t recordingCapacity() const { return mRecordingCapacity; }
    const std::deque<FrameRecord>& recordedFrames() const { return mRecorded; }
    /// Frames of this recording dropped from the front of the ring.
    std::uint64_t droppedFrames() const { return mDroppedFrames; }
    /// Frames of this recording so far: kept plus dropped.
    std::uint64_t framesRecorded() const { return mRecorded.size() + mDroppedFrames; }
    void clearRecording();

private:
    struct Impl;
    void endScope(int index);
    std::unique_ptr<Impl> mImpl;
    bool mGlTimersUseful = true;
    std::string mNamePrefix;
    void appendRecord(FrameRecord&& record);
    bool mRecording = false;
    std::uint64_t mFrameIndex = 0;
    std::deque<FrameRecord> mRecorded;  ///< the ring: push at the back, drop at the front
    std::size_t mRecordingCapacity = kDefaultRecordingCapacity;
    std::uint64_t mRecordingFirstFrame = 0;
    std::uint64_t mDroppedFrames = 0;
};

}  // namespace profiling
