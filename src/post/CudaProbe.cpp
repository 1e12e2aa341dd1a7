// CudaProbe.cpp: cuda::probeCudaForGl for CUDA builds: CUDA methods run only when a CUDA device
// exists and the current GL context runs on it (cudaGLGetDevices, all devices of the context).
// Where the query itself fails (some EGL setups), registering a small GL buffer with CUDA decides.
// It also reports the live device-allocation count of CudaRaii.h (cuda::liveDeviceAllocations).
#include "post/CudaProbe.h"
#include "gl/Buffer.h"

#include "cuda/CudaContext.h"
#include "cuda/CudaRaii.h"
#include "util/Log.h"

#include <cuda_gl_interop.h>

#include <exception>

namespace cuda {

namespace {

/// True when CUDA can register a GL buffer of the current context.
bool canRegisterGlBuffer(std::string& why)
{
    gl::Buffer probe("cuda interop probe", 16);
    cudaGraphicsResource_t resource = nullptr;
    const cudaError_t error = cudaGraphicsGLRegisterBuffer(&resource, probe.id(), cudaGraphicsRegisterFlagsNone);
    if (error != cudaSuccess) {
        (void)cudaGetLastError();
        why = cudaGetErrorString(error);
        return false;
    }
    ignoreError(cudaGraphicsUnregisterResource(resource));
    return true;
}

}  // namespace

void probeCudaForGl(post::GpuCaps& caps)
{
    caps.cudaAvailable = false;
    if (const auto& reason = deviceUnavailableReason()) {
        caps.cudaReason = *reason;
        return;
    }
    constexpr unsigned kMaxDevices = 16;
    int devices[kMaxDevices] = {};
    unsigned count = 0;
    const cudaError_t error = cudaGLGetDevices(&count, devices, kMaxDevices, cudaGLDeviceListAll);
    int device = -1;
    if (error == cudaSuccess && count > 0) {
        device = devices[0];
    } else if (error == cudaSuccess || error == cudaErrorNoDevice) {
        caps.cudaReason = "the GL context (" + caps.gl.renderer + ") does not run on a CUDA device";
        (void)cudaGetLastError();
        return;
    } else {
        (void)cudaGetLastError();
        std::string why;
        int cudaDevices = 0;
        if (cudaGetDeviceCount(&cudaDevices) != cudaSuccess || cudaDevices != 1 || !canRegisterGlBuffer(why)) {
            caps.cudaReason = std::string("cannot tell which CUDA device runs the GL context (cudaGLGetDevices: ") +
                              cudaGetErrorString(error) + (why.empty() ? "" : "; registration: " + why) + ")";
            return;
        }
        util::logWarning("cudaGLGetDevices failed ({}); the only CUDA device registered a GL buffer, using it",
                         cudaGetErrorString(error));
        device = 0;
    }
    try {
        selectDevice(device);
        CudaContext& context = CudaContext::instance();
        if (context.device() != device) {
            caps.cudaReason = "CUDA was started on device " + std::to_string(context.device()) +
                              " before the probe; the GL context runs on device " + std::to_string(device);
            return;
        }
        util::logInfo("CUDA interop on {}", context.describe());
    } catch (const std::exception& failure) {
        caps.cudaReason = std::string("CUDA initialisation failed: ") + failure.what();
        return;
    }
    caps.cudaAvailable = true;
    caps.cudaReason.clear();
}

std::optional<int> liveDeviceAllocations()
{
    return deviceAllocationCounter().load(std::memory_order_relaxed);
}

}  // namespace cuda
