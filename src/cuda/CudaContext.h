// CudaContext.h: the process-wide CUDA state of hdrlab: the chosen device (the GL context's device
// once cuda::probeCudaForGl ran, else device 0), one non-blocking stream on which every CUDA method
// runs (so GL interop map/unmap orders all of them against GL), the CUDA-event timer backend the
// profiler uses for CUDA passes, and device properties for launch sizing.
#pragma once

#include "cuda/CudaEventTimer.h"
#include "cuda/CudaRaii.h"

#include <memory>
#include <optional>
#include <string>

namespace cuda {

/// nullopt when CUDA kernels can run in this process; otherwise the reason, e.g.
/// "no CUDA device: CUDA driver version is insufficient for CUDA runtime version". Cached.
const std::optional<std::string>& deviceUnavailableReason();

/// Picks the device the context will use; only before the first CudaContext::instance().
void selectDevice(int device);

class CudaContext
{
public:
    /// Created on first use; throws std::runtime_error when no device is usable.
    static CudaContext& instance();

    int device() const { return mDevice; }
    cudaStream_t stream() const { return mStream.get(); }
    CudaEventTimer& timer() { return *mTimer; }
    const cudaDeviceProp& properties() const { return mProperties; }
    int multiprocessorCount() const { return mProperties.multiProcessorCount; }
    /// "NVIDIA H100 80GB HBM3 (sm_90, 132 SMs)"
    std::string describe() const;

    CudaContext(const CudaContext&) = delete;
    CudaContext& operator=(const CudaContext&) = delete;
    ~CudaContext();

private:
    CudaContext();
    int mDevice = 0;
    cudaDeviceProp mProperties{};
    Stream mStream;
    std::unique_ptr<CudaEventTimer> mTimer;
};

}  // namespace cuda
