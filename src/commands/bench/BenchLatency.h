// BenchLatency.h: what a GL compute dispatch costs when it does nothing, measured the way the
// profiler times a pass (a GL_TIMESTAMP before and after, so the numbers are comparable with the
// stage times of `bench pipeline`): two timestamps alone, an empty one-workgroup dispatch, the same
// followed by a shader-storage barrier and by all barriers, one 1024-invocation workgroup crossing 32
// barriers, the 32-byte buffer copy an operator's state readback queues, a histogram's 16 KiB clear and a fence. At
// 256..4096 bins a scan or a curve is nearly all of this (docs/PERF.md), so these are the floors of such stages.
#pragma once

#include "gl/Program.h"

#include <string>
#include <vector>

namespace app {

struct LatencySample
{
    std::string what;
    double medianUs = 0.0;
};

/// Median of `runs` timed repetitions of each case; empty when GL timers measure nothing (llvmpipe).
std::vector<LatencySample> measureDispatchLatency(const gl::ShaderLibrary& shaders, bool glTimersUseful, int runs = 64);

}  // namespace app
