// CudaFallback.cpp: the CUDA entry points for builds without the CUDA backend (compiled only when
// HDRLAB_HAS_CUDA is off). The CUDA methods are still listed, with the reason they cannot run, and
// the CUDA commands say that CUDA is not built.
#include "app/Commands.h"
#include "post/CudaProbe.h"
#include "post/LocalAdaptationSource.h"
#include "post/histogram/HistogramRegistry.h"
#include "post/scan/ScanRegistry.h"

#include <iostream>
#include <stdexcept>

namespace {

constexpr const char* kNoCudaReason = "this build has no CUDA backend (configured without nvcc, or with -DHDRLAB_CUDA=OFF)";

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
    void build(post::PassContext&, const post::ImageInput&, const post::HistogramSpec&,
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

int reportNoCuda(const char* command)
{
    std::cerr << "hdrlab " << command << ": " << kNoCudaReason << "; rebuild with -DHDRLAB_CUDA=ON on a machine with nvcc\n";
    return 2;
}

} // namespace

namespace post {

void appendCudaHistogramMethods(std::vector<HistogramMethodEntry>& list)
{
    for (const CudaMethodName& name : kHistogramMethods)
        list.push_back({name.id, [name] {
                            return std::unique_ptr<HistogramMethod>(
                                std::make_unique<UnavailableCudaHistogram>(name.id, name.label));
                        }});
}

std::unique_ptr<LocalAdaptationSource> createLocalAdaptationSource()
{
    return nullptr;
}

void appendCudaScanMethods(std::vector<ScanMethodEntry>& list)
{
    for (const CudaMethodName& name : kScanMethods)
        list.push_back({name.id, [name] {
                            return std::unique_ptr<ScanMethod>(std::make_unique<UnavailableCudaScan>(name.id, name.label));
                        }});
}

} // namespace post

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

} // namespace cuda

namespace app {

int runEqualize8Command(const CommonOptions&, const Equalize8Options&)
{
    return reportNoCuda("equalize8");
}

int runBenchCommand(const CommonOptions&, const BenchOptions&)
{
    return reportNoCuda("bench");
}

} // namespace app
