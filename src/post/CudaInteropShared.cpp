// CudaInteropShared.cpp: chooses how the CUDA passes reach GL objects when the CUDA backend is built
// (post/CudaInterop.h): map/unmap by default, or memory shared through cuda::SharedAllocator
// (Vulkan-exported memory and semaphores imported by GL and CUDA) where it works.
#include "cuda/SharedMemory.h"
#include "post/CudaInterop.h"
#include "util/Log.h"

namespace post {

CudaInterop chooseCudaInterop(const GpuCaps& caps, CudaInteropMode mode)
{
    if (!caps.cudaAvailable)
        return {nullptr, mapUnmapStatus(caps.cudaReason)};
    if (mode == CudaInteropMode::Map)
        return {nullptr, mapUnmapStatus("the default (--cuda-interop shared shares memory instead)")};
    std::string whyNot;
    std::unique_ptr<cuda::SharedAllocator> allocator = cuda::SharedAllocator::create(&whyNot);
    if (!allocator) {
        util::logWarning("CUDA-GL shared memory unavailable, keeping map/unmap: {}", whyNot);
        return {nullptr, mapUnmapStatus(whyNot)};
    }
    std::string status = "shared " + allocator->describe() + ": no per-frame sync";
    return {std::move(allocator), std::move(status)};
}

}  // namespace post
