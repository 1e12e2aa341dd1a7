// ClaheCuda.cpp: the cuda entry of the CLAHE backends (commands/clahe/ClaheBackends.h), a runner over
// cuda::ClaheProgram (cuda/Clahe.h: three kernels, timed with CUDA events). Compiled only in CUDA
// builds; commands/CudaCommandsFallback.cpp stands in otherwise.
#include "commands/clahe/ClaheBackends.h"

#include "cuda/Clahe.h"
#include "cuda/CudaContext.h"

#include <stdexcept>

namespace app {

namespace {

ClaheStageTimings fromCuda(const cuda::ClaheTimings& t)
{
    return {t.histogramMs, t.lutMs, t.blendMs, t.launchFloorMs};
}

class CudaRunner final : public ClaheRunner
{
public:
    std::vector<std::uint8_t> run8(const std::uint8_t* samples, const hd::ClaheGeometry& geometry) override
    {
        mRan = true;
        return mProgram.run8(samples, geometry);
    }
    std::vector<std::uint16_t> run16(const std::uint16_t* samples, const hd::ClaheGeometry& geometry) override
    {
        mRan = true;
        return mProgram.run16(samples, geometry);
    }
    std::vector<ClaheStageTimings> time(int runs) override
    {
        if (!mRan)
            throw std::logic_error("clahe: timed before any run");
        std::vector<ClaheStageTimings> result;
        for (int run = 0; run < runs; ++run)
            result.push_back(fromCuda(mProgram.rerun()));
        return result;
    }
    std::string device() const override
    {
        return "CUDA: " + cuda::CudaContext::instance().describe() + " [" + mProgram.variant().describe() + "]";
    }

private:
    cuda::ClaheProgram mProgram;
    bool mRan = false;
};

}  // namespace

std::optional<std::string> claheCudaUnavailableReason()
{
    return cuda::deviceUnavailableReason();
}

std::unique_ptr<ClaheRunner> createClaheCudaRunner(const CommonOptions&)
{
    if (const auto& reason = cuda::deviceUnavailableReason())
        throw std::runtime_error(*reason);
    return std::make_unique<CudaRunner>();
}

}  // namespace app
