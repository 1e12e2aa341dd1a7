// ReferenceChainCuda.cpp: the CUDA reference chain of commands/bench/ReferenceChain.h (compiled with the
// CUDA backend only; commands/CudaCommandsFallback.cpp stands in without it): the frame uploaded once
// to a staging buffer, then per run a device-to-device copy into the buffer the chain reads (the
// "copy" row: as in GL, the chain reads a frame that was just written) and cuda/ReferenceChain.h's
// three kernels, CUDA events between the stages on the CUDA context's stream, one wait at the end.
#include "commands/bench/ReferenceChain.h"

#include "cuda/CudaContext.h"
#include "cuda/CudaRaii.h"
#include "cuda/ReferenceChain.h"
#include "shared/HostDevice.h"

#include <algorithm>
#include <functional>
#include <stdexcept>

namespace app {

static_assert(cuda::kReferenceBlockSize == kReferenceGroupSize, "the CUDA kernels take the GL launch shape");
static_assert(cuda::kReferenceHistogramItems == int(kReferenceHistogramItems) &&
                  cuda::kReferenceApplyItems == int(kReferenceApplyItems),
              "the CUDA kernels take the GL launch shape");

ReferenceTimes measureCudaReferenceChain(const std::vector<std::uint8_t>& linearFrame,
                                         std::uint64_t pixels,
                                         bool halfFrame,
                                         const std::vector<std::uint32_t>& params,
                                         int runs,
                                         int warmup)
{
    ReferenceTimes times;
    times.api = "cuda";
    times.source = "cuda-event";
    try {
        const std::size_t elements = halfFrame ? std::size_t((pixels + 1) / 2) : std::size_t(pixels);
        if (pixels == 0 || linearFrame.size() < elements * 16 || params.size() < hd::kHistogramParamsWords)
            throw std::invalid_argument("the reference chain's frame or params are missing");
        runs = std::max(runs, 1);
        cuda::CudaContext& context = cuda::CudaContext::instance();
        const cudaStream_t stream = context.stream();
        cuda::DeviceBuffer<uint4> staging(elements), frame(elements);
        cuda::DeviceBuffer<std::uint32_t> paramWords(hd::kHistogramParamsWords);
        cuda::DeviceBuffer<std::uint32_t> histogram(hd::kHistogramBufferWords);
        cuda::DeviceBuffer<float> curve(hd::kCurveBufferWords);
        cuda::DeviceBuffer<std::uint32_t> display(halfFrame ? elements * 2 : elements);
        CUDA_CHECK(cudaMemcpyAsync(staging.data(), linearFrame.data(), elements * 16, cudaMemcpyHostToDevice, stream));
        CUDA_CHECK(cudaMemcpyAsync(paramWords.data(), params.data(), hd::kHistogramParamsWords * sizeof(std::uint32_t),
                                   cudaMemcpyHostToDevice, stream));
        CUDA_CHECK(cudaMemsetAsync(curve.data(), 0, curve.bytes(), stream));

        cuda::ReferenceLaunch launch;
        launch.pixels = std::size_t(pixels);
        launch.halfFrame = halfFrame;
        launch.bins = std::clamp(params[hd::kParamBinCount], 1u, hd::kMaxHistogramBins);
        launch.histogramBlocks = referenceHistogramGroups(pixels, halfFrame);
        launch.applyBlocks = referenceApplyGroups(pixels, halfFrame);
        const auto run = [&](const std::function<void(int)>& mark) {
            mark(0);
            CUDA_CHECK(cudaMemcpyAsync(frame.data(), staging.data(), elements * 16, cudaMemcpyDeviceToDevice, stream));
            mark(1);
            cuda::referenceHistogram(frame.data(), paramWords.data(), histogram.data(), launch, stream);
            mark(2);
            cuda::referenceCurve(histogram.data(), paramWords.data(), curve.data(), stream);
            mark(3);
            cuda::referenceApply(frame.data(), curve.data(), paramWords.data(), display.data(), launch, stream);
            mark(4);
        };
        for (int i = 0; i < warmup; ++i)
            run([](int) {});
        std::vector<cuda::Event> events;
        for (int i = 0; i < runs * 5; ++i)
            events.push_back(cuda::Event::create());
        for (int r = 0; r < runs; ++r)
            run([&](int mark) { CUDA_CHECK(cudaEventRecord(events[std::size_t(r * 5 + mark)].get(), stream)); });
        CUDA_CHECK(cudaStreamSynchronize(stream));  // a tool's one wait, after every run is queued
        for (int r = 0; r < runs; ++r) {
            double at[5];
            for (int mark = 0; mark < 5; ++mark) {
                float ms = 0.0f;
                CUDA_CHECK(cudaEventElapsedTime(&ms, events[std::size_t(r * 5)].get(),
                                                events[std::size_t(r * 5 + mark)].get()));
                at[mark] = double(ms) * 1e3;
            }
            times.copyUs.push_back(at[1] - at[0]);
            times.histogramUs.push_back(at[2] - at[1]);
            times.curveUs.push_back(at[3] - at[2]);
            times.applyUs.push_back(at[4] - at[3]);
            times.chainUs.push_back(at[4] - at[1]);
        }
    } catch (const std::exception& error) {
        times = ReferenceTimes{"cuda", "cuda-event", {}, {}, {}, {}, {}, error.what()};
    }
    return times;
}

}  // namespace app
