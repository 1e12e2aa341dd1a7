// ScanCudaMethods.cpp: the CUDA scans as post::ScanMethod (ids cuda-kogge-stone, cuda-kogge-stone-db,
// cuda-brent-kung, cuda-blelloch, cuda-warp-shuffle, cuda-cub). The input and output GL buffers are
// registered once and mapped together per call; a histogram's CDF (<= 4096 bins) is one launch
// (CUB decides its own launches). See cuda/Scan.h for the algorithms.
#include "cuda/CudaContext.h"
#include "cuda/GlInterop.h"
#include "cuda/Scan.h"
#include "profiling/Profiler.h"

#include <optional>
#include <string>
#include "post/scan/ScanRegistry.h"

namespace cuda {

namespace {

class CudaScanMethod final : public post::ScanMethod
{
public:
    explicit CudaScanMethod(ScanAlgorithm algorithm) : mAlgorithm(algorithm) {}

    std::string_view id() const override { return scanAlgorithmId(mAlgorithm); }
    std::string_view label() const override { return scanAlgorithmLabel(mAlgorithm); }
    std::string_view description() const override
    {
        switch (mAlgorithm) {
            case ScanAlgorithm::KoggeStone:
                return "Kogge-Stone in shared memory (Bugetti): log n phases, every element adds the one 2^k before "
                       "it; "
                       "O(n log n) adds, two barriers per phase. 1024 threads, 4 elements each.";
            case ScanAlgorithm::KoggeStoneDoubleBuffer:
                return "Kogge-Stone with two buffers swapped per phase (Bugetti), one barrier per phase; the published "
                       "listing copies out the stale buffer after the last swap, fixed here.";
            case ScanAlgorithm::BrentKung:
                return "Brent-Kung (Bugetti): reduction tree then reverse tree, 2(n-1) - log n adds, 2 log n barriers.";
            case ScanAlgorithm::Blelloch:
                return "Blelloch work-efficient exclusive scan (Harris; Bilgic et al.) with bank-conflict padding "
                       "(corrected CONFLICT_FREE_OFFSET, 32 banks), turned inclusive.";
            case ScanAlgorithm::WarpShuffle:
                return "Per-thread sequential scan of 4 elements, __shfl_up_sync scan across lanes, then across warps.";
            case ScanAlgorithm::Cub:
                return "cub::DeviceScan::InclusiveSum: single-pass decoupled look-back (Merrill & Garland 2016).";
        }
        return {};
    }
    post::Backend backend() const override { return post::Backend::Cuda; }
    post::Availability availability(const post::GpuCaps& caps) const override
    {
        return caps.cudaAvailable ? post::Availability::yes() : post::Availability::no(caps.cudaReason);
    }
    std::uint32_t maxLength() const override { return hd::kMaxHistogramBins; }
    profiling::TimerBackend* timerBackend() override
    {
        return deviceUnavailableReason() ? nullptr : &CudaContext::instance().timer();
    }

    void inclusiveScan(post::PassContext& ctx,
                       const gl::Buffer& input,
                       gl::Buffer& output,
                       std::uint32_t count) override
    {
        if (count == 0)
            return;
        const std::size_t bytes = std::size_t(count) * sizeof(std::uint32_t);
        if (input.size() < bytes || output.size() < bytes)
            throw std::invalid_argument("CUDA scan: buffers smaller than the scan length");
        CudaContext& context = CudaContext::instance();
        const bool inPlace = input.id() == output.id();
        mOutput.track(output, GlRegistration::Access::ReadWrite);
        std::vector<const GlRegistration*> resources{&mOutput};
        if (!inPlace) {
            mInput.track(input, GlRegistration::Access::ReadOnly);
            resources.push_back(&mInput);
        }
        // In the pipeline (PassContext::stageTimingName) the map, where the stream waits for the GL work
        // before it, is its own row and "scan/<id>" the kernel alone.
        const std::string stage(ctx.stageTimingName);
        std::optional<profiling::Profiler::Scope> wait;
        if (!stage.empty())
            wait.emplace(ctx.profiler.scope(std::string(post::kInteropWaitPrefix) + stage, timerBackend()));
        MappedResources mapped(std::move(resources), context.stream());
        wait.reset();
        auto* out = static_cast<std::uint32_t*>(mapped.pointer(mOutput));
        const auto* in = inPlace ? out : static_cast<const std::uint32_t*>(mapped.pointer(mInput));
        ScanOptions options;
        options.workspace = &mWorkspace;
        auto kernel = ctx.profiler.scope(stage.empty() ? "scan/" + std::string(id()) + "/kernel" : stage,
                                         timerBackend());  // without the map
        scanInclusive(mAlgorithm, in, out, count, context.stream(), options);
    }

private:
    ScanAlgorithm mAlgorithm;
    GlRegistration mInput;
    GlRegistration mOutput;
    DeviceScratch mWorkspace;
};

}  // namespace

}  // namespace cuda

namespace post {

void appendCudaScanMethods(std::vector<ScanMethodEntry>& list)
{
    for (cuda::ScanAlgorithm algorithm : cuda::kAllScanAlgorithms)
        list.push_back({cuda::scanAlgorithmId(algorithm), [algorithm] {
                            return std::unique_ptr<ScanMethod>(std::make_unique<cuda::CudaScanMethod>(algorithm));
                        }});
}

}  // namespace post
