// CudaInterop.h: how the CUDA passes reach the GL frame and buffers they read and write, chosen once
// per run. "map" (default): cudaGraphicsMapResources / Unmap per pass, which synchronises CUDA with
// all earlier GL work. "shared": the HDR frame and the pipeline's buffers live in memory that Vulkan
// allocated and both GL and CUDA imported, handed over by GPU semaphores, so no pass synchronises the
// two APIs on the CPU; where that is missing (no Vulkan device, no GL_EXT_memory_object_fd /
// GL_EXT_semaphore_fd, a failed layout self-check, no CUDA) it falls back to map, saying why.
// Measured on an H200 the two cost the frame about the same (docs/CUDA.md), so map stays the default.
#pragma once

#include "gl/ExternalObjects.h"
#include "post/PostTypes.h"

#include <memory>
#include <string>

namespace post {

enum class CudaInteropMode {
    Map,     ///< map/unmap per pass
    Shared,  ///< shared memory where it works, else map/unmap
};

struct CudaInterop
{
    /// Creates the textures and buffers CUDA passes use in shared memory; null: map/unmap.
    std::unique_ptr<gl::SharedAllocator> allocator;
    /// One line for the UI and the capture metadata, e.g. "shared memory (...)" or "map/unmap: why".
    std::string status;
};

/// Needs the GL context current and `caps` probed for CUDA (cuda::probeCudaForGl).
CudaInterop chooseCudaInterop(const GpuCaps& caps, CudaInteropMode mode);

/// The status line of the map/unmap fallback, with the reason the shared path is not used.
std::string mapUnmapStatus(const std::string& why);

}  // namespace post
