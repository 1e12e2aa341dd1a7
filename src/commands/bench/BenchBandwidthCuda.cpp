// BenchBandwidthCuda.cpp: the CUDA half of commands/bench/BenchBandwidth.h (compiled with the CUDA backend only;
// commands/CudaCommandsFallback.cpp stands in without it): cuda/StreamBandwidth.h's read and write kernels
// in every configuration of the sweep, timed with CUDA events on the CUDA context's stream, and
// cudaMemcpy device to device as the reference copy.
#include "commands/bench/BenchBandwidth.h"
#include "cuda/CudaContext.h"
#include "cuda/CudaRaii.h"
#include "cuda/StreamBandwidth.h"
#include "util/Log.h"
#include "util/Stats.h"

#include <algorithm>
#include <functional>
#include <stdexcept>
#include <vector>

namespace app {

namespace {

/// A non-zero sentinel: the read kernel's fold of a buffer of one repeated byte is 0 (StreamBandwidth.h).
constexpr unsigned kSentinel = 1u;

class EventTimer
{
public:
    EventTimer(cudaStream_t stream, int runs) : mStream(stream), mRuns(std::max(1, runs))
    {
        for (int i = 0; i < 2 * mRuns; ++i)
            mEvents.push_back(cuda::Event::create());
    }

    /// One untimed run, then `runs` runs between event pairs; the median in ms.
    double medianMs(const std::function<void()>& work)
    {
        work();
        for (int i = 0; i < mRuns; ++i) {
            CUDA_CHECK(cudaEventRecord(mEvents[std::size_t(2 * i)].get(), mStream));
            work();
            CUDA_CHECK(cudaEventRecord(mEvents[std::size_t(2 * i + 1)].get(), mStream));
        }
        CUDA_CHECK(cudaStreamSynchronize(mStream));  // a tool's wait, between configurations
        std::vector<double> ms;
        for (int i = 0; i < mRuns; ++i) {
            float elapsed = 0.0f;
            CUDA_CHECK(cudaEventElapsedTime(&elapsed, mEvents[std::size_t(2 * i)].get(),
                                            mEvents[std::size_t(2 * i + 1)].get()));
            ms.push_back(double(elapsed));
        }
        return util::median(ms);
    }

private:
    cudaStream_t mStream;
    int mRuns;
    std::vector<cuda::Event> mEvents;
};

/// The launch shapes of the sweep: block sizes x items per thread x grids (whole waves of the SMs, and
/// one pass over the buffer) x cache hints.
std::vector<cuda::StreamLaunch> launchShapes(std::size_t elements, int multiprocessors, bool sweep)
{
    const std::vector<int> threads = sweep ? std::vector<int>{256, 512, 1024} : std::vector<int>{256};
    const std::vector<int> items = sweep ? std::vector<int>{1, 2, 4, 8} : std::vector<int>{4};
    const std::vector<cuda::StreamCache> caches =
        sweep ? std::vector{cuda::StreamCache::Default, cuda::StreamCache::Streaming}
              : std::vector{cuda::StreamCache::Default};
    std::vector<cuda::StreamLaunch> shapes;
    for (int block : threads)
        for (int item : items) {
            const std::size_t perBlock = std::size_t(block) * std::size_t(item);
            const int onePass = int(std::min<std::size_t>((elements + perBlock - 1) / perBlock, 1u << 30));
            std::vector<int> grids;
            if (sweep)
                for (int waves : {2, 4, 8, 16})
                    if (multiprocessors * waves < onePass)
                        grids.push_back(multiprocessors * waves);
            grids.push_back(std::max(onePass, 1));
            for (int grid : grids)
                for (cuda::StreamCache cache : caches)
                    shapes.push_back({grid, block, item, cache});
        }
    return shapes;
}

std::string describe(const cuda::StreamLaunch& launch, bool read)
{
    const char* hint =
        launch.cache == cuda::StreamCache::Streaming ? (read ? "__ldcs" : "__stcs") : (read ? "__ldg" : "plain store");
    return util::format("{} x {} uint4, {} blocks, {}", launch.threadsPerBlock, launch.itemsPerThread, launch.blocks,
                        hint);
}

}  // namespace

CudaBandwidth measureCudaBandwidth(const BandwidthPlan& plan)
{
    CudaBandwidth result;
    try {
        cuda::CudaContext& context = cuda::CudaContext::instance();
        result.deviceName = context.properties().name;
        result.multiprocessors = context.multiprocessorCount();
        const cudaStream_t stream = context.stream();
        EventTimer timer(stream, plan.runs);
        cuda::DeviceBuffer<uint4> sink(1);
        for (std::uint64_t bytes : plan.bufferBytes) {
            const std::size_t elements = std::size_t(streamBytesFor(bytes) / 16);
            cuda::DeviceBuffer<uint4> source(elements);
            cuda::DeviceBuffer<uint4> target(elements);
            CUDA_CHECK(cudaMemsetAsync(source.data(), 0x3c, elements * 16, stream));
            CUDA_CHECK(cudaMemsetAsync(target.data(), 0, elements * 16, stream));
            for (const cuda::StreamLaunch& launch : launchShapes(elements, result.multiprocessors, plan.sweep)) {
                const double readMs = timer.medianMs(
                    [&] { cuda::streamRead(source.data(), elements, sink.data(), kSentinel, launch, stream); });
                result.samples.push_back(
                    {"cuda", StreamDirection::Read, elements * 16, describe(launch, true), readMs, true});
                const double writeMs =
                    timer.medianMs([&] { cuda::streamWrite(target.data(), elements, 0x3f800000u, launch, stream); });
                result.samples.push_back(
                    {"cuda", StreamDirection::Write, elements * 16, describe(launch, false), writeMs, true});
            }
            const double copyMs = timer.medianMs([&] {
                CUDA_CHECK(
                    cudaMemcpyAsync(target.data(), source.data(), elements * 16, cudaMemcpyDeviceToDevice, stream));
            });
            result.samples.push_back(
                {"cuda", StreamDirection::Copy, elements * 16, "cudaMemcpy device to device", copyMs, true});
        }
    } catch (const std::exception& error) {
        result.samples.clear();
        result.unavailableReason = error.what();
    }
    return result;
}

}  // namespace app
