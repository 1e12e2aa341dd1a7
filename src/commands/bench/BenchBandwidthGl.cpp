// BenchBandwidthGl.cpp: the GL compute half of commands/bench/BenchBandwidth.h: shaders/bench/StreamRead.comp and
// StreamWrite.comp in every configuration of the sweep (workgroup size x accesses in flight x
// workgroup count), StreamCopy.comp as the reference copy; GL_TIME_ELAPSED queries, or the CPU clock
// around glFinish where the timers read 0 (llvmpipe).
#include "commands/bench/BenchBandwidth.h"
#include "gl/Buffer.h"
#include "gl/Program.h"
#include "gl/Query.h"
#include "util/Log.h"
#include "util/Stats.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <string>
#include <vector>

namespace app {

namespace {

/// A non-zero sentinel: StreamRead.comp's fold of a buffer of one repeated word is 0.
constexpr unsigned kSentinel = 1u;
/// The least GL_MAX_COMPUTE_WORK_GROUP_COUNT[0] every GL 4.3+ implementation offers.
constexpr std::uint64_t kMaxGroups = 65535;

struct Timing
{
    double medianMs = 0.0;
    bool gpuTimed = true;
};

/// One untimed run of `dispatch`, then `queries.size()` (or `runs` on the CPU clock) timed ones.
Timing timeRuns(const std::function<void()>& dispatch, std::vector<gl::Query>& queries, int runs)
{
    dispatch();
    std::vector<double> ms;
    if (!queries.empty()) {
        for (const gl::Query& query : queries) {
            query.begin();
            dispatch();
            query.end();
        }
        for (const gl::Query& query : queries)  // a tool's one wait, after every run is queued
            ms.push_back(double(query.waitResult()) * 1e-6);
        if (util::median(ms) > 0.0)
            return {util::median(ms), true};
        ms.clear();
    }
    for (int run = 0; run < runs; ++run) {  // no GPU timer (llvmpipe): the CPU clock
        glFinish();
        const auto start = std::chrono::steady_clock::now();
        dispatch();
        glFinish();
        ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    }
    return {util::median(ms), false};
}

struct KernelShape
{
    int groupSize = 256;
    int items = 4;
};

/// Workgroup counts to try: whole waves of the SMs where their count is known (else fixed counts),
/// and one pass over the buffer (no grid-stride loop), never more groups than that.
std::vector<unsigned> groupCounts(std::uint64_t elements, KernelShape shape, const BandwidthPlan& plan)
{
    const std::uint64_t perGroup = std::uint64_t(shape.groupSize) * std::uint64_t(shape.items);
    const std::uint64_t onePass = std::clamp<std::uint64_t>((elements + perGroup - 1) / perGroup, 1, kMaxGroups);
    std::vector<unsigned> counts;
    if (plan.sweep) {
        std::vector<std::uint64_t> candidates;
        if (plan.multiprocessors && *plan.multiprocessors > 0)
            for (int waves : {2, 4, 8, 16})
                candidates.push_back(std::uint64_t(*plan.multiprocessors) * std::uint64_t(waves));
        else
            candidates = {256, 1024, 4096};
        for (std::uint64_t count : candidates)
            if (count < onePass)
                counts.push_back(unsigned(count));
    }
    counts.push_back(unsigned(onePass));
    return counts;
}

std::string describe(KernelShape shape, unsigned groups)
{
    return util::format("{} x {} uvec4, {} groups", shape.groupSize, shape.items, groups);
}

}  // namespace

GlStreamKernels::GlStreamKernels(const gl::ShaderLibrary& shaders, int groupSize, int items)
    : mGroupSize(groupSize), mItems(items)
{
    const gl::ShaderDefines defines{{"GROUP_SIZE", std::to_string(groupSize)}, {"ITEMS", std::to_string(items)}};
    mRead = shaders.buildCompute("bench.stream-read", "bench/StreamRead.comp", defines);
    mWrite = shaders.buildCompute("bench.stream-write", "bench/StreamWrite.comp", defines);
}

void GlStreamKernels::read(const gl::Buffer& source,
                           std::uint32_t elements,
                           const gl::Buffer& sink,
                           unsigned sentinel,
                           unsigned groups) const
{
    source.bindBase(GL_SHADER_STORAGE_BUFFER, 0);
    sink.bindBase(GL_SHADER_STORAGE_BUFFER, 1);
    mRead.use();
    mRead.set(0, elements);
    mRead.set(1, sentinel);
    glDispatchCompute(groups, 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
}

void GlStreamKernels::write(const gl::Buffer& target, std::uint32_t elements, unsigned value, unsigned groups) const
{
    target.bindBase(GL_SHADER_STORAGE_BUFFER, 1);
    mWrite.use();
    mWrite.set(0, elements);
    mWrite.set(1, value);
    glDispatchCompute(groups, 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
}

std::uint64_t streamBytesFor(std::uint64_t bytes)
{
    return std::max<std::uint64_t>((bytes + 15) / 16 * 16, 16);
}

std::vector<BandwidthSample> measureGlBandwidth(const gl::ShaderLibrary& shaders,
                                                bool glTimersUseful,
                                                const BandwidthPlan& plan)
{
    std::vector<KernelShape> shapes;
    if (plan.sweep) {
        for (int groupSize : {128, 256, 512})
            for (int items : {1, 2, 4, 8})
                shapes.push_back({groupSize, items});
    } else {
        shapes.push_back({});
    }
    std::vector<GlStreamKernels> kernels;
    for (KernelShape shape : shapes)
        kernels.emplace_back(shaders, shape.groupSize, shape.items);
    const gl::Program copyProgram = shaders.buildCompute("bench.stream-copy", "bench/StreamCopy.comp");
    const gl::Buffer sink("bench.stream-sink", 16);
    std::vector<gl::Query> queries;
    if (glTimersUseful)
        for (int run = 0; run < std::max(plan.runs, 1); ++run)
            queries.emplace_back("bench.stream-time", GL_TIME_ELAPSED);

    std::vector<BandwidthSample> samples;
    for (std::uint64_t requested : plan.bufferBytes) {
        const std::uint64_t bytes = streamBytesFor(requested);
        const auto elements = std::uint32_t(bytes / 16);
        gl::Buffer source("bench.stream-source", bytes);
        gl::Buffer target("bench.stream-target", bytes);
        source.clearUint(0x3c003c00u);
        target.clearUint(0);
        for (const GlStreamKernels& kernel : kernels) {
            const KernelShape shape{kernel.groupSize(), kernel.items()};
            for (unsigned groups : groupCounts(elements, shape, plan)) {
                const Timing read =
                    timeRuns([&] { kernel.read(source, elements, sink, kSentinel, groups); }, queries, plan.runs);
                samples.push_back({"gl-compute", StreamDirection::Read, bytes, describe(shape, groups), read.medianMs,
                                   read.gpuTimed});
                const Timing write =
                    timeRuns([&] { kernel.write(target, elements, 0x3f800000u, groups); }, queries, plan.runs);
                samples.push_back({"gl-compute", StreamDirection::Write, bytes, describe(shape, groups), write.medianMs,
                                   write.gpuTimed});
            }
        }
        // The reference copy: StreamCopy.comp's fixed shape (256 invocations, one uvec4 per step).
        const unsigned copyGroups = unsigned(std::clamp<std::uint64_t>((elements + 255) / 256, 1, 4096));
        const Timing copy = timeRuns(
            [&] {
                source.bindBase(GL_SHADER_STORAGE_BUFFER, 0);
                target.bindBase(GL_SHADER_STORAGE_BUFFER, 1);
                copyProgram.use();
                copyProgram.set(0, elements);
                glDispatchCompute(copyGroups, 1, 1);
                glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
            },
            queries, plan.runs);
        samples.push_back({"gl-compute", StreamDirection::Copy, bytes,
                           util::format("StreamCopy.comp, 256 x 1 uvec4, {} groups", copyGroups), copy.medianMs,
                           copy.gpuTimed});
    }
    return samples;
}

}  // namespace app
