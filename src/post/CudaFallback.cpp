// CudaFallback.cpp: the post layer's CUDA entry points for builds without the CUDA backend (compiled
// only when HDRLAB_HAS_CUDA is off). The CUDA methods are still listed, with the reason they cannot
// run; the probe says CUDA is not built. (The CUDA commands' stand-ins are commands/CudaCommandsFallback.cpp.)
#include "post/CudaInterop.h"
#include "post/CudaProbe.h"
#include "post/LocalAdaptationSource.h"
#include "post/histogram/HistogramRegistry.h"
#include "post/scan/ScanRegistry.h"

#include <stdexcept>

namespace {

constexpr const char* kNoCudaReason =
    "this build has no CUDA backend (configured without nvcc, or with -DHDRLAB_CUDA=OFF)";

class UnavailableCudaHistogram final : public post::HistogramMethod
{
public:
    UnavailableCudaHistogram(std::string_view id, std::string_view label) : mId(id), mLabel(label) {}
    std::string_view id() const override { return mId; }
    std::string_view label() const override { return mLabel; }
    std::string_view description() const override { return kNoCudaReason; }
    post::Backend backend() const override { return post::Backend::Cuda; }
    post::Availability availability(const post::GpuCaps&) const override
    {
        return post::Availability::no(kNoCudaReason);
    }
    void build(post::PassContext&,
               const post::ImageInput&,
               const post::HistogramSpec&,
               const post::HistogramTargets&) override
    {
        throw std::runtime_error(std::string(mId) + ": " + kNoCudaReason);
    }

private:
    std::string_view mId;
    std::string_view mLabel;
};

class UnavailableCudaScan final : public post::ScanMethod
{
public:
    UnavailableCudaScan(std::string_view id, std::string_view label) : mId(id), mLabel(label) {}
    std::string_view id() const override { return mId; }
    std::string_view label() const override { return mLabel; }
    std::string_view description() const override { return kNoCudaReason; }
    post::Backend backend() const override { return post::Backend::Cuda; }
    post::Availability availability(const post::GpuCaps&) const override
    {
        return post::Availability::no(kNoCudaReason);
    }
    void inclusiveScan(post::PassContext&, const gl::Buffer&, gl::Buffer&, std::uint32_t) override
    {
        throw std::runtime_error(std::string(mId) + ": " + kNoCudaReason);
    }

private:
    std::string_view mId;
    std::string_view mLabel;
};

struct CudaMethodName
{
    std::string_view id;
    std::string_view label;
};

constexpr CudaMethodName kHistogramMethods[] = {
    {"cuda-bugetti", "CUDA shared memory + run aggregation (Bugetti)"},
    {"cuda-fast", "CUDA fast (persistent, replicated smem, fused CDF)"},
    {"cuda-cub", "CUDA CUB HistogramEven (library baseline)"},
};

constexpr CudaMethodName kScanMethods[] = {
    {"cuda-kogge-stone", "CUDA Kogge-Stone (Bugetti)"},
    {"cuda-kogge-stone-db", "CUDA Kogge-Stone double buffer (Bugetti, fixed)"},
    {"cuda-brent-kung", "CUDA Brent-Kung (Bugetti)"},
    {"cuda-blelloch", "CUDA Blelloch work-efficient (Harris/Bilgic)"},
    {"cuda-warp-shuffle", "CUDA warp shuffle"},
    {"cuda-cub", "CUDA CUB DeviceScan"},
};

}  // namespace

namespace post {

void appendCudaHistogramMethods(std::vector<HistogramMethodEntry>& list)
{
    for (const CudaMethodName& name : kHistogramMethods)
        list.push_back({name.id, [name] {
                            return std::unique_ptr<HistogramMethod>(
                                std::make_unique<UnavailableCudaHistogram>(name.id, name.label));
                        }});
}

CudaInterop chooseCudaInterop(const GpuCaps& caps, CudaInteropMode)
{
    // The probe's reason (here always "no CUDA backend" unless a caller set its own).
    return {nullptr, mapUnmapStatus(caps.cudaReason.empty() ? std::string(kNoCudaReason) : caps.cudaReason)};
}

std::unique_ptr<LocalAdaptationSource> createLocalAdaptationSource()
{
    return nullptr;
}

void appendCudaScanMethods(std::vector<ScanMethodEntry>& list)
{
    for (const CudaMethodName& name : kScanMethods)
        list.push_back({name.id, [name] {
                            return std::unique_ptr<ScanMethod>(
                                std::make_unique<UnavailableCudaScan>(name.id, name.label));
                        }});
}

}  // namespace post

namespace cuda {

void probeCudaForGl(post::GpuCaps& caps)
{
    caps.cudaAvailable = false;
    caps.cudaReason = kNoCudaReason;
}

std::optional<int> liveDeviceAllocations()
{
    return std::nullopt;
}

}  // namespace cuda
