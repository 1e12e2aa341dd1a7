#include "profiling/Profiler.h"

#include "gl/Debug.h"
#include "gl/Query.h"

#include <algorithm>
#include <chrono>
#include <optional>
#include <utility>

namespace profiling {

std::string_view toString(TimeSource source)
{
    switch (source) {
        case TimeSource::GlTimerQuery:
            return "gpu (GL timer query)";
        case TimeSource::CudaEvent:
            return "gpu (CUDA event)";
        case TimeSource::CpuFallback:
            return "cpu (no useful GPU timers)";
    }
    return "?";
}

namespace {

using Clock = std::chrono::steady_clock;

// Frames in flight: results of frame N are read while frames N+1..N+kFrameDelay are recorded.
constexpr int kSlotCount = Profiler::kFrameDelay + 1;

struct ScopeEntry
{
    std::string name;
    TimerBackend* backend = nullptr;
    int token = -1;
    int beginQuery = -1;  ///< index into the slot's query pool
    int endQuery = -1;
    Clock::time_point cpuBegin;
    Clock::time_point cpuEnd;
    bool ended = false;
    bool cached = false;  ///< markCached: nothing ran, nothing is timed
    int parent = -1;      ///< the scope open around this one (index into the slot's scopes), or -1
    std::unique_ptr<gl::DebugGroup> debugGroup;
};

struct FrameSlot
{
    std::uint64_t frame = 0;
    bool pending = false;
    Clock::time_point cpuBegin;
    double cpuFrameMs = 0.0;
    std::vector<ScopeEntry> scopes;
    std::vector<gl::Query> queries;
    int queriesUsed = 0;
};

struct PassData
{
    explicit PassData(std::string passName) : name(std::move(passName)) {}
    std::string name;
    TimeSource source = TimeSource::GlTimerQuery;
    util::RollingStats gpu{Profiler::kWindow};
    util::RollingStats cpu{Profiler::kWindow};
    std::optional<double> lastGpu;
    std::string parent;
    std::uint64_t lastFrame = 0;
    bool cached = false;
};

double msBetween(Clock::time_point a, Clock::time_point b)
{
    return std::chrono::duration<double, std::milli>(b - a).count();
}

/// The innermost scope still open in `slot` (scopes close in reverse order of opening), or -1.
int innermostOpenScope(const FrameSlot& slot)
{
    for (int i = int(slot.scopes.size()) - 1; i >= 0; --i)
        if (!slot.scopes[std::size_t(i)].ended)
            return i;
    return -1;
}

/// `ran` (one frame's passes in the order they ran) with each pass of `previous` that did not run
/// inserted right after the pass it followed in `previous`, so a pass that skips frames keeps its place.
std::vector<std::string> mergedOrder(const std::vector<std::string>& previous, const std::vector<std::string>& ran)
{
    std::vector<std::string> merged = ran;
    std::size_t insertAt = 0;
    for (const std::string& name : previous) {
        auto found = std::find(merged.begin(), merged.end(), name);
        if (found != merged.end()) {
            insertAt = std::size_t(found - merged.begin()) + 1;
            continue;
        }
        merged.insert(merged.begin() + std::ptrdiff_t(insertAt), name);
        ++insertAt;
    }
    return merged;
}

}  // namespace

struct Profiler::Impl
{
    std::vector<FrameSlot> slots = std::vector<FrameSlot>(kSlotCount);
    int current = -1;
    std::vector<PassData> passes;
    util::RollingStats frameTime{Profiler::kWindow};
    std::optional<Clock::time_point> lastFrameBegin;
    int warmupLeft = Profiler::kWarmupFrames;
    bool inFrame = false;                      ///< between beginFrame and endFrame
    std::uint64_t firstTableFrame = 0;         ///< frames before this one (begun before a reset) add no passes
    std::optional<std::uint64_t> latestFrame;  ///< the latest frame that added passes
    Clock::time_point recordingEpoch;
    // GL timestamp calibration: gpuNs <-> ms on the recording clock.
    std::int64_t gpuCalibrationNs = 0;
    double cpuCalibrationMs = 0.0;
    bool gpuTimestampsAllZero = true;
    int framesHarvested = 0;

    PassData& pass(const std::string& name)
    {
        for (PassData& p : passes)
            if (p.name == name)
                return p;
        return passes.emplace_back(name);
    }

    /// Puts `passes` in the order of `ran` (a frame's pass names, in the order they ran), keeping
    /// passes that did not run after the pass they followed.
    void reorderPasses(const std::vector<std::string>& ran)
    {
        std::vector<std::string> previous;
        for (const PassData& p : passes)
            previous.push_back(p.name);
        std::vector<std::string> order = mergedOrder(previous, ran);
        std::vector<PassData> reordered;
        reordered.reserve(passes.size());
        for (const std::string& name : order)
            for (PassData& p : passes)
                if (p.name == name) {
                    reordered.push_back(std::move(p));
                    break;
                }
        passes = std::move(reordered);
    }

    int acquireQuery(FrameSlot& slot)
    {
        if (slot.queriesUsed == int(slot.queries.size()))
            slot.queries.emplace_back("profiler.timestamp", GL_TIMESTAMP);
        return slot.queriesUsed++;
    }

    /// A new entry of this frame, named with the prefix, under the innermost scope still open.
    ScopeEntry& addEntry(FrameSlot& slot, const std::string& prefix, std::string_view name)
    {
        const int parent = innermostOpenScope(slot);
        ScopeEntry& entry = slot.scopes.emplace_back();
        entry.name = prefix + std::string(name);
        entry.parent = parent;
        return entry;
    }
};

Profiler::Profiler(bool glTimersUseful) : mImpl(std::make_unique<Impl>()), mGlTimersUseful(glTimersUseful)
{
    mImpl->recordingEpoch = Clock::now();
}

Profiler::~Profiler() = default;

Profiler::Scope::Scope(Profiler* profiler, int index) : mProfiler(profiler), mIndex(index)
{
}

Profiler::Scope::Scope(Scope&& other) noexcept
    : mProfiler(std::exchange(other.mProfiler, nullptr)), mIndex(std::exchange(other.mIndex, -1))
{
}

Profiler::Scope::~Scope()
{
    if (mProfiler)
        mProfiler->endScope(mIndex);
}

Profiler::NamePrefix::NamePrefix(Profiler* profiler, std::string previous)
    : mProfiler(profiler), mPrevious(std::move(previous))
{
}

Profiler::NamePrefix::NamePrefix(NamePrefix&& other) noexcept
    : mProfiler(std::exchange(other.mProfiler, nullptr)), mPrevious(std::move(other.mPrevious))
{
}

Profiler::NamePrefix::~NamePrefix()
{
    if (mProfiler)
        mProfiler->mNamePrefix = std::move(mPrevious);
}

Profiler::NamePrefix Profiler::prefixNames(std::string_view prefix)
{
    std::string previous = mNamePrefix;
    mNamePrefix += prefix;
    return NamePrefix(this, std::move(previous));
}

void Profiler::beginFrame()
{
    Impl& d = *mImpl;
    Clock::time_point now = Clock::now();
    if (d.lastFrameBegin && d.current >= 0)
        d.slots[std::size_t(d.current)].cpuFrameMs = msBetween(*d.lastFrameBegin, now);
    d.lastFrameBegin = now;

    // Harvest finished frames oldest first; a frame whose results have not arrived by the time its
    // slot comes round again is dropped rather than waited for.
    std::vector<int> order;
    for (int i = 1; i <= kSlotCount; ++i)
        order.push_back((d.current + i + kSlotCount) % kSlotCount);
    int next = (d.current + 1) % kSlotCount;
    for (int index : order) {
        FrameSlot& slot = d.slots[std::size_t(index)];
        if (!slot.pending)
            continue;
        bool ready = true;
        for (const ScopeEntry& scope : slot.scopes) {
            if (scope.backend) {
                if (!scope.backend->tryElapsedMs(scope.token))
                    ready = false;
            } else if (scope.endQuery >= 0 && !slot.queries[std::size_t(scope.endQuery)].tryResult()) {
                ready = false;
            }
            if (!ready)
                break;
        }
        if (!ready) {
            if (index != next)
                break;  // keep frame order: later frames wait for this one
            for (ScopeEntry& scope : slot.scopes)
                if (scope.backend)
                    scope.backend->release(scope.token);
            slot.pending = false;
            continue;
        }

        FrameRecord record;
        record.frame = slot.frame;
        record.cpuStartMs = msBetween(d.recordingEpoch, slot.cpuBegin);
        record.cpuFrameMs = slot.cpuFrameMs;
        // A frame begun before the last resetStats ran the previous method: it adds no pass.
        const bool addsPasses = slot.frame >= d.firstTableFrame;
        const bool countStats = d.warmupLeft <= 0 && addsPasses;
        std::vector<std::string> ran;
        auto notePass = [&](const ScopeEntry& scope) -> PassData& {
            PassData& data = d.pass(scope.name);
            data.parent = scope.parent >= 0 ? slot.scopes[std::size_t(scope.parent)].name : std::string();
            data.lastFrame = slot.frame;
            data.cached = scope.cached;
            if (std::find(ran.begin(), ran.end(), scope.name) == ran.end())
                ran.push_back(scope.name);
            return data;
        };
        for (ScopeEntry& scope : slot.scopes) {
            if (scope.cached) {
                if (addsPasses)
                    notePass(scope);
                continue;  // nothing ran: not in captures
            }
            PassRecord pass;
            pass.name = scope.name;
            pass.cpuStartMs = msBetween(d.recordingEpoch, scope.cpuBegin);
            pass.cpuMs = msBetween(scope.cpuBegin, scope.cpuEnd);
            if (scope.backend) {
                pass.gpuMs = scope.backend->tryElapsedMs(scope.token);
                pass.source = TimeSource::CudaEvent;
                scope.backend->release(scope.token);
            } else if (scope.beginQuery >= 0) {
                std::uint64_t begin = *slot.queries[std::size_t(scope.beginQuery)].tryResult();
                std::uint64_t end = *slot.queries[std::size_t(scope.endQuery)].tryResult();
                if (begin != 0 || end != 0)
                    d.gpuTimestampsAllZero = false;
                pass.gpuMs = end >= begin ? double(end - begin) * 1e-6 : 0.0;
                pass.gpuStartMs = d.cpuCalibrationMs + double(std::int64_t(begin) - d.gpuCalibrationNs) * 1e-6;
                pass.source = TimeSource::GlTimerQuery;
            }
            if (!pass.gpuMs || pass.source == TimeSource::CpuFallback) {
                pass.gpuMs = pass.cpuMs;
                pass.gpuStartMs.reset();
                pass.source = TimeSource::CpuFallback;
            }
            if (addsPasses) {
                PassData& data = notePass(scope);
                data.source = pass.source;
                data.lastGpu = pass.gpuMs;
                if (countStats) {
                    data.gpu.add(*pass.gpuMs);
                    data.cpu.add(pass.cpuMs);
                }
            }
            record.passes.push_back(std::move(pass));
        }
        if (addsPasses) {
            d.reorderPasses(ran);
            d.latestFrame = slot.frame;
        }
        if (countStats && record.cpuFrameMs > 0.0)
            d.frameTime.add(record.cpuFrameMs);
        if (d.warmupLeft > 0)
            --d.warmupLeft;
        ++d.framesHarvested;
        // Timer queries that only ever return 0 (llvmpipe) measure nothing: use CPU time instead.
        if (mGlTimersUseful && d.gpuTimestampsAllZero && d.framesHarvested >= 3) {
            mGlTimersUseful = false;
            resetStats();
        }
        if (mRecording)
            appendRecord(std::move(record));
        slot.pending = false;
    }

    d.current = next;
    d.inFrame = true;
    FrameSlot& slot = d.slots[std::size_t(d.current)];
    slot.frame = mFrameIndex;
    slot.pending = true;
    slot.cpuBegin = now;
    slot.cpuFrameMs = 0.0;
    slot.scopes.clear();
    slot.queriesUsed = 0;
}

void Profiler::endFrame()
{
    mImpl->inFrame = false;
    ++mFrameIndex;
}

Profiler::Scope Profiler::scope(std::string_view name, TimerBackend* backend)
{
    Impl& d = *mImpl;
    if (d.current < 0)
        beginFrame();
    FrameSlot& slot = d.slots[std::size_t(d.current)];
    ScopeEntry& entry = d.addEntry(slot, mNamePrefix, name);
    entry.debugGroup = std::make_unique<gl::DebugGroup>(entry.name);
    entry.cpuBegin = Clock::now();
    entry.backend = backend;
    if (backend) {
        entry.token = backend->begin();
    } else if (mGlTimersUseful) {
        entry.beginQuery = d.acquireQuery(slot);
        slot.queries[std::size_t(entry.beginQuery)].timestamp();
    }
    return Scope(this, int(slot.scopes.size()) - 1);
}

void Profiler::markCached(std::string_view name)
{
    Impl& d = *mImpl;
    if (d.current < 0)
        beginFrame();
    ScopeEntry& entry = d.addEntry(d.slots[std::size_t(d.current)], mNamePrefix, name);
    entry.cached = true;
    entry.ended = true;
}

void Profiler::endScope(int index)
{
    Impl& d = *mImpl;
    FrameSlot& slot = d.slots[std::size_t(d.current)];
    if (index < 0 || index >= int(slot.scopes.size()))
        return;
    ScopeEntry& entry = slot.scopes[std::size_t(index)];
    if (entry.ended)
        return;
    if (entry.backend) {
        entry.backend->end(entry.token);
    } else if (entry.beginQuery >= 0) {
        entry.endQuery = d.acquireQuery(slot);
        slot.queries[std::size_t(entry.endQuery)].timestamp();
    }
    entry.cpuEnd = Clock::now();
    entry.debugGroup.reset();
    entry.ended = true;
}

void Profiler::resetStats()
{
    Impl& d = *mImpl;
    for (PassData& pass : d.passes) {
        pass.gpu.clear();
        pass.cpu.clear();
    }
    d.passes.clear();
    d.latestFrame.reset();
    // The frame in progress may have run the previous method's passes already.
    d.firstTableFrame = d.inFrame ? mFrameIndex + 1 : mFrameIndex;
    d.frameTime.clear();
    d.warmupLeft = kWarmupFrames;
}

std::vector<PassStats> Profiler::passStats() const
{
    std::vector<PassStats> out;
    for (const PassData& pass : mImpl->passes) {
        PassStats stats;
        stats.name = pass.name;
        stats.source = pass.source;
        stats.gpu = pass.gpu.summary();
        stats.cpu = pass.cpu.summary();
        stats.gpuHistory = pass.gpu.history();
        stats.parent = pass.parent;
        stats.lastFrame = pass.lastFrame;
        stats.cached = pass.cached;
        stats.lastGpuMs = pass.lastGpu;
        out.push_back(std::move(stats));
    }
    return out;
}

std::optional<std::uint64_t> Profiler::latestFrame() const
{
    return mImpl->latestFrame;
}

util::Summary Profiler::frameTimeMs() const
{
    return mImpl->frameTime.summary();
}

std::vector<float> Profiler::frameTimeHistory() const
{
    return mImpl->frameTime.history();
}

std::optional<double> Profiler::lastGpuMs(std::string_view name) const
{
    for (const PassData& pass : mImpl->passes)
        if (pass.name == name)
            return pass.lastGpu;
    return std::nullopt;
}

void Profiler::startRecording()
{
    Impl& d = *mImpl;
    clearRecording();
    mRecording = true;
    mRecordingFirstFrame = mFrameIndex;
    d.cpuCalibrationMs = msBetween(d.recordingEpoch, Clock::now());
    GLint64 gpuNow = 0;
    if (mGlTimersUseful)
        glGetInteger64v(GL_TIMESTAMP, &gpuNow);
    d.gpuCalibrationNs = gpuNow;
}

void Profiler::stopRecording()
{
    mRecording = false;
}

void Profiler::setRecordingCapacity(std::size_t frames)
{
    mRecordingCapacity = std::max<std::size_t>(frames, 1);
    while (mRecorded.size() > mRecordingCapacity) {
        mRecorded.pop_front();
        ++mDroppedFrames;
    }
}

void Profiler::clearRecording()
{
    mRecorded.clear();
    mDroppedFrames = 0;
}

void Profiler::appendRecord(FrameRecord&& record)
{
    if (record.frame < mRecordingFirstFrame)
        return;  // begun before this recording started
    if (mRecorded.size() >= mRecordingCapacity) {
        mRecorded.pop_front();
        ++mDroppedFrames;
    }
    mRecorded.push_back(std::move(record));
}

}  // namespace profiling
