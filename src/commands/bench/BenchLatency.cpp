#include "commands/bench/BenchLatency.h"

#include "gl/Buffer.h"
#include "gl/Fence.h"
#include "gl/Query.h"
#include "util/Stats.h"

#include <algorithm>
#include <functional>

namespace app {

std::vector<LatencySample> measureDispatchLatency(const gl::ShaderLibrary& shaders, bool glTimersUseful, int runs)
{
    std::vector<LatencySample> out;
    if (!glTimersUseful || runs <= 0)
        return out;
    const gl::Program small = shaders.buildCompute("bench.latency.64", "bench/Latency.comp", {{"GROUP_SIZE", "64"}});
    const gl::Program large =
        shaders.buildCompute("bench.latency.1024", "bench/Latency.comp", {{"GROUP_SIZE", "1024"}});
    const gl::Buffer sink("bench.latency.sink", 64);
    gl::Buffer bins("bench.latency.bins", 16 * 1024);  // a 4096-bin histogram's words
    gl::Buffer copyTarget("bench.latency.copy", 64);
    std::vector<gl::Query> queries;
    for (int i = 0; i < 2 * runs; ++i)
        queries.emplace_back("bench.latency", GL_TIMESTAMP);
    const auto time = [&](const char* what, const std::function<void()>& work) {
        work();  // once untimed
        glFinish();
        for (int run = 0; run < runs; ++run) {
            queries[std::size_t(2 * run)].timestamp();
            work();
            queries[std::size_t(2 * run + 1)].timestamp();
        }
        std::vector<double> us;
        for (int run = 0; run < runs; ++run)
            us.push_back(
                double(queries[std::size_t(2 * run + 1)].waitResult() - queries[std::size_t(2 * run)].waitResult()) *
                1e-3);
        out.push_back({what, util::upperMedian(std::move(us))});
    };
    const auto dispatch = [&](const gl::Program& program, unsigned barriers) {
        sink.bindBase(GL_SHADER_STORAGE_BUFFER, 1);
        program.use();
        program.set(0, barriers);
        glDispatchCompute(1, 1, 1);
    };
    time("two timestamps, nothing between", [] {});
    time("empty dispatch (1 x 64 invocations)", [&] { dispatch(small, 0); });
    time("empty dispatch + shader-storage barrier", [&] {
        dispatch(small, 0);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    });
    time("empty dispatch + all barriers", [&] {
        dispatch(small, 0);
        glMemoryBarrier(GL_ALL_BARRIER_BITS);
    });
    time("two empty dispatches, storage barrier between", [&] {
        dispatch(small, 0);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
        dispatch(small, 0);
    });
    time("1 x 1024 invocations, 32 barriers", [&] { dispatch(large, 32); });
    time("32-byte buffer copy (a state readback)", [&] { sink.copyTo(copyTarget, 0, 0, 32); });
    time("16 KiB buffer clear (a histogram's bins)", [&] { bins.clearUint(0u); });
    gl::Fence fence;
    time("fence sync (a readback's)", [&] { fence = gl::Fence::insert(); });
    return out;
}

}  // namespace app
