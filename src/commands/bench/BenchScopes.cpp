// BenchScopes.cpp: see BenchScopes.h.
#include "commands/bench/BenchScopes.h"

#include <algorithm>

namespace app {

ScopeTimes collectScopes(const std::vector<profiling::FrameRecord>& frames, const std::vector<std::string>& scopes)
{
    ScopeTimes times;
    for (const profiling::FrameRecord& frame : frames) {
        double sum = 0.0;
        bool any = false;
        for (const profiling::PassRecord& pass : frame.passes) {
            if (std::find(scopes.begin(), scopes.end(), pass.name) == scopes.end() || !pass.gpuMs)
                continue;
            sum += *pass.gpuMs;
            any = true;
            // Report the least precise source among the summed passes (GL < CUDA events < CPU fallback).
            if (int(pass.source) > int(times.source))
                times.source = pass.source;
        }
        if (any) {
            times.perFrameMs.push_back(sum);
            times.found = true;
        }
    }
    return times;
}

std::vector<std::string> childScopes(const std::vector<profiling::FrameRecord>& frames, const std::string& parent)
{
    std::vector<std::string> children;
    const std::string prefix = parent + "/";
    for (const profiling::FrameRecord& frame : frames)
        for (const profiling::PassRecord& pass : frame.passes)
            if (pass.name.rfind(prefix, 0) == 0 &&
                std::find(children.begin(), children.end(), pass.name) == children.end())
                children.push_back(pass.name);
    return children;
}
}  // namespace app
