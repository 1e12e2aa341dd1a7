// CudaCommandsFallback.cpp: the CUDA-only commands (equalize8, the CUDA bench suites) for builds
// without the CUDA backend (compiled only when HDRLAB_HAS_CUDA is off): each says that CUDA is not
// built and exits with 2. `bench pipeline`'s CUDA streaming rates (commands/bench/BenchBandwidth.h) are only
// the reason.
#include "commands/bench/BenchBandwidth.h"
#include "commands/bench/BenchCommand.h"
#include "commands/equalize8/Equalize8Command.h"

#include <iostream>

namespace app {
namespace {

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

}  // namespace app
