// BenchScopes.h: the profiler's recorded frames read as `bench pipeline`'s stage rows (moved out of
// BenchPipelineCommand.cpp): the per-frame sums of named scopes and the scopes nested under one.
#pragma once

#include "profiling/Profiler.h"

#include <string>
#include <vector>

namespace app {

/// Per-frame sums of the named scopes, their median, and the weakest time source among them.
struct ScopeTimes
{
    std::vector<double> perFrameMs;
    profiling::TimeSource source = profiling::TimeSource::GlTimerQuery;
    bool found = false;
};

ScopeTimes collectScopes(const std::vector<profiling::FrameRecord>& frames, const std::vector<std::string>& scopes);

/// The scopes nested under `parent` ("tonemap/ward/curve/foveal" under "tonemap/ward/curve"), in
/// the order they first appear.
std::vector<std::string> childScopes(const std::vector<profiling::FrameRecord>& frames, const std::string& parent);

}  // namespace app
