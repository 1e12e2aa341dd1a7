// ResourceReport.h: --resource-report N, what a long run holds, one line every N frames:
//
//   resources: frame=2000 rss_kb=181236 gl_total=161 gl_buffer=63 gl_texture=41 ... cuda_allocs=n/a
//
// rss_kb is the process's resident set (/proc/self/statm), gl_* the objects alive through the RAII
// wrappers of src/gl (per kind and in total; ImGui's backend and the driver's own objects are not
// among them), cuda_allocs the device allocations alive through src/cuda/CudaRaii.h ("n/a" in a
// build without CUDA). A sample reads one small /proc file and a few atomics, so it does not disturb
// the frame loop. scripts/soak.sh parses these lines and fails when anything grows after warm-up.
#pragma once

#include "gl/Object.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace app {

struct ResourceSample
{
    std::uint64_t frame = 0;  ///< frames rendered before the sample
    long long rssKb = -1;     ///< resident set size in KiB; -1 where /proc is unavailable
    std::array<int, std::size_t(gl::ObjectKind::Count)> glObjects{};
    int glTotal = 0;
    std::optional<int> cudaAllocations;  ///< nullopt: this build has no CUDA backend
};

/// Resident set size of this process in KiB (/proc/self/statm); -1 where unavailable.
long long residentSetKb();
/// The counts now, labelled with `frame`.
ResourceSample sampleResources(std::uint64_t frame);
/// The one-line key=value form shown above (no trailing newline).
std::string formatResourceLine(const ResourceSample& sample);

}  // namespace app
