// CudaProbe.h: decides whether the CUDA methods can run with the current GL context. Plain C++ so
// that the app includes it in every build: implemented in src/post/CudaProbe.cpp when the CUDA
// backend is built, and in src/post/CudaFallback.cpp (always "unavailable") when it is not.
#pragma once

#include "post/PostTypes.h"

#include <optional>

namespace cuda {

/// Call once after the GL context is current. Sets caps.cudaAvailable and, when false,
/// caps.cudaReason ("no CUDA device: ...", "the GL context runs on ..., not on a CUDA device", or
/// "this build has no CUDA ..."). When true, CUDA work runs on the GL context's device.
void probeCudaForGl(post::GpuCaps& caps);

/// CUDA device allocations alive (cuda::DeviceBuffer, cuda::CudaArray); nullopt when this build has
/// no CUDA backend. For --resource-report and the soak.
std::optional<int> liveDeviceAllocations();

}  // namespace cuda
