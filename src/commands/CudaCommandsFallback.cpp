// CudaCommandsFallback.cpp: the CUDA-only commands (equalize8, the CUDA bench suites) for builds
// without the CUDA backend (compiled only when HDRLAB_HAS_CUDA is off): each says that CUDA is not
// built and exits with 2. CLAHE's cuda backend is listed as unavailable with that reason. `bench pipeline`'s CUDA
// streaming rates (commands/bench/BenchBandwidth.h) and CUDA reference chain (commands/bench/ReferenceChain.h) are only
// the reason.
#include "commands/bench/BenchBandwidth.h"
#include "commands/bench/BenchCommand.h"
#include "commands/bench/ReferenceChain.h"
#include "commands/clahe/ClaheBackends.h"
#include "commands/equalize8/Equalize8Command.h"

#include <iostream>
#include <stdexcept>

namespace app {
namespace {

constexpr const char* kNoCudaReason =
    "this build has no CUDA backend (configured without nvcc, or with -DHDRLAB_CUDA=OFF)";

int reportNoCuda(const char* command)
{
    std::cerr << "hdrlab " << command
              << ": this build has no CUDA backend (configured without nvcc, or with -DHDRLAB_CUDA=OFF); rebuild with "
                 "-DHDRLAB_CUDA=ON on a machine with nvcc\n";
    return 2;
}

}  // namespace

int runEqualize8Command(const CommonOptions&, const Equalize8Options&)
{
    return reportNoCuda("equalize8");
}

int runCudaBenchSuites(const CommonOptions&, const BenchOptions&)
{
    return reportNoCuda("bench");
}

CudaBandwidth measureCudaBandwidth(const BandwidthPlan&)
{
    CudaBandwidth result;
    result.unavailableReason = "this build has no CUDA backend";
    return result;
}

ReferenceTimes measureCudaReferenceChain(const std::vector<std::uint8_t>&,
                                         std::uint64_t,
                                         bool,
                                         const std::vector<std::uint32_t>&,
                                         int,
                                         int)
{
    ReferenceTimes times;
    times.api = "cuda";
    times.unavailableReason = "this build has no CUDA backend";
    return times;
}

std::optional<std::string> claheCudaUnavailableReason()
{
    return std::string(kNoCudaReason);
}

std::unique_ptr<ClaheRunner> createClaheCudaRunner(const CommonOptions&)
{
    throw std::runtime_error(kNoCudaReason);
}

}  // namespace app
