// CudaCheck.h: error checking for CUDA runtime calls. CUDA_CHECK(call) throws std::runtime_error
// naming the file, line, call and the CUDA error string; CUDA_CHECK_LAUNCH() does the same for the
// launch just made. Destructors use cuda::ignoreError instead (they must not throw).
#pragma once

#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>

namespace cuda {

[[noreturn]] inline void throwCudaError(cudaError_t error, const char* call, const char* file, int line)
{
    throw std::runtime_error(std::string("CUDA error at ") + file + ":" + std::to_string(line) + ": " + call + " -> " +
                             cudaGetErrorName(error) + " (" + cudaGetErrorString(error) + ")");
}

inline void checkCuda(cudaError_t error, const char* call, const char* file, int line)
{
    if (error != cudaSuccess)
        throwCudaError(error, call, file, line);
}

/// Kernel launches report configuration errors through cudaGetLastError. cudaErrorNotReady is a
/// status, not an error (cudaEventQuery of a pending event), so it never fails a launch check.
inline void checkLaunch(const char* what, const char* file, int line)
{
    cudaError_t error = cudaGetLastError();
    if (error != cudaSuccess && error != cudaErrorNotReady)
        throwCudaError(error, what, file, line);
}

/// For destructors: the result is dropped on purpose (nothing may throw there, and a failure to
/// free during shutdown has no remedy).
inline void ignoreError(cudaError_t)
{
}

}  // namespace cuda

#define CUDA_CHECK(call) ::cuda::checkCuda((call), #call, __FILE__, __LINE__)
#define CUDA_CHECK_LAUNCH(name) ::cuda::checkLaunch("launch of " name, __FILE__, __LINE__)
