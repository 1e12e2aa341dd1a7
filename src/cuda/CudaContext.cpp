#include "cuda/CudaContext.h"

#include <stdexcept>

namespace cuda {

namespace {
int& selectedDevice()
{
    static int device = 0;
    return device;
}
}  // namespace

const std::optional<std::string>& deviceUnavailableReason()
{
    static const std::optional<std::string> reason = []() -> std::optional<std::string> {
        int count = 0;
        const cudaError_t error = cudaGetDeviceCount(&count);
        if (error != cudaSuccess) {
            (void)cudaGetLastError();  // not sticky; clear it so later launch checks start clean
            return std::string("no CUDA device: ") + cudaGetErrorString(error);
        }
        if (count <= 0)
            return std::string("no CUDA device: the driver reports none");
        return std::nullopt;
    }();
    return reason;
}

void selectDevice(int device)
{
    selectedDevice() = device;
}

CudaContext& CudaContext::instance()
{
    static CudaContext context;
    return context;
}

CudaContext::CudaContext()
{
    if (const auto& reason = deviceUnavailableReason())
        throw std::runtime_error(*reason);
    mDevice = selectedDevice();
    CUDA_CHECK(cudaSetDevice(mDevice));
    CUDA_CHECK(cudaGetDeviceProperties(&mProperties, mDevice));
    mStream = Stream::createNonBlocking();
    mTimer = std::make_unique<CudaEventTimer>(mStream.get());
}

CudaContext::~CudaContext() = default;

std::string CudaContext::describe() const
{
    return std::string(mProperties.name) + " (sm_" + std::to_string(mProperties.major) +
           std::to_string(mProperties.minor) + ", " + std::to_string(mProperties.multiProcessorCount) + " SMs)";
}

}  // namespace cuda
