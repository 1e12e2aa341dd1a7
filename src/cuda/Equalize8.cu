// Equalize8.cu: the kernels of Bugetti's program (see Equalize8.h) and their sequencing.
#include "cuda/Equalize8.h"

#include "cuda/CudaContext.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace cuda {

namespace {

constexpr unsigned kLevels = 256;

/// Bugetti's CalculateHistogram: 8-bit levels, per-thread run aggregation, shared histogram.
__global__ void calculateHistogram256(const std::uint8_t* input, std::uint32_t* histogram, unsigned pixelCount)
{
    __shared__ unsigned histShared[kLevels];
    for (unsigned bin = threadIdx.x; bin < kLevels; bin += blockDim.x)
        histShared[bin] = 0;
    __syncthreads();
    unsigned accumulator = 0;
    unsigned previous = kLevels;
    for (unsigned index = blockIdx.x * blockDim.x + threadIdx.x; index < pixelCount; index += blockDim.x * gridDim.x) {
        const unsigned current = input[index];
        if (current != previous) {
            if (previous != kLevels)
                atomicAdd(&histShared[previous], accumulator);
            accumulator = 1;
            previous = current;
        } else {
            ++accumulator;
        }
    }
    if (accumulator > 0)
        atomicAdd(&histShared[previous], accumulator);
    __syncthreads();
    for (unsigned bin = threadIdx.x; bin < kLevels; bin += blockDim.x) {
        const unsigned value = histShared[bin];
        if (value > 0)
            atomicAdd(&histogram[bin], value);
    }
}

/// Bugetti's NormalizeCdf, one block of 256 threads (fixes in Equalize8.h).
__global__ void normalizeCdf(std::uint32_t* cdf, unsigned pixelCount)
{
    __shared__ unsigned cdfMinIndex;
    __shared__ unsigned cdfMin;
    const unsigned tid = threadIdx.x;
    if (tid == 0)
        cdfMinIndex = kLevels;
    __syncthreads();
    if (tid < kLevels && cdf[tid] != 0)
        atomicMin(&cdfMinIndex, tid);
    __syncthreads();
    if (tid == 0)
        cdfMin = cdfMinIndex < kLevels ? cdf[cdfMinIndex] : 0;
    __syncthreads();
    if (tid >= kLevels)
        return;
    const unsigned value = cdf[tid];
    const unsigned long long denominator = (unsigned long long)pixelCount - cdfMin;
    unsigned level;
    if (denominator == 0)
        level = tid;  // one-level image: unchanged
    else if (value < cdfMin)
        level = 0;  // no pixel has this level
    else
        level = unsigned(((unsigned long long)(value - cdfMin) * (kLevels - 1) + denominator / 2) / denominator);
    cdf[tid] = level;
}

/// Bugetti's EqualizeHistogram: the normalised CDF in shared memory, interleaved pixels.
__global__ void equalizeHistogram(std::uint8_t* output,
                                  const std::uint8_t* input,
                                  const std::uint32_t* cdf,
                                  unsigned pixelCount)
{
    __shared__ unsigned cdfShared[kLevels];
    for (unsigned bin = threadIdx.x; bin < kLevels; bin += blockDim.x)
        cdfShared[bin] = cdf[bin];
    __syncthreads();
    for (unsigned index = blockIdx.x * blockDim.x + threadIdx.x; index < pixelCount; index += blockDim.x * gridDim.x)
        output[index] = std::uint8_t(cdfShared[input[index]]);
}

double elapsedMs(const Event& from, const Event& to)
{
    float ms = 0.0f;
    CUDA_CHECK(cudaEventElapsedTime(&ms, from.get(), to.get()));
    return double(ms);
}

}  // namespace

Equalize8Program::Equalize8Program(ScanAlgorithm scan, int block) : mScan(scan), mBlock(block)
{
    if (block != 256 && block != 512)
        throw std::invalid_argument("equalize8: block size must be 256 or 512, not " + std::to_string(block));
    mHistogram.resize(kLevels);
    mCdf.resize(kLevels);
    for (Event& mark : mMarks)
        mark = Event::create();
}

std::uint8_t* Equalize8Program::input(std::size_t count)
{
    mInput.reserve(count);
    mOutput.reserve(count);
    return mInput.data();
}

void Equalize8Program::runOnDevice(std::size_t count, Equalize8Timings* timings)
{
    if (count == 0)
        return;
    if (count >= (std::size_t(1) << 31))
        throw std::invalid_argument("equalize8: more than 2^31 pixels");
    if (mInput.size() < count || mOutput.size() < count)
        throw std::logic_error("equalize8: input(count) not called");
    const cudaStream_t stream = CudaContext::instance().stream();
    const unsigned pixels = unsigned(count);
    const unsigned block = unsigned(mBlock);
    const unsigned quarterGrid = std::max(1u, ((pixels + block - 1) / block) / 4);

    CUDA_CHECK(cudaEventRecord(mMarks[0].get(), stream));
    CUDA_CHECK(cudaMemsetAsync(mHistogram.data(), 0, kLevels * sizeof(std::uint32_t), stream));
    calculateHistogram256<<<quarterGrid, block, 0, stream>>>(mInput.data(), mHistogram.data(), pixels);
    CUDA_CHECK_LAUNCH("calculateHistogram256");
    CUDA_CHECK(cudaEventRecord(mMarks[1].get(), stream));
    ScanOptions options;
    options.blockSize = mBlock;
    options.workspace = &mWorkspace;
    scanInclusive(mScan, mHistogram.data(), mCdf.data(), kLevels, stream, options);
    CUDA_CHECK(cudaEventRecord(mMarks[2].get(), stream));
    normalizeCdf<<<1, kLevels, 0, stream>>>(mCdf.data(), pixels);
    CUDA_CHECK_LAUNCH("normalizeCdf");
    CUDA_CHECK(cudaEventRecord(mMarks[3].get(), stream));
    equalizeHistogram<<<quarterGrid, block, 0, stream>>>(mOutput.data(), mInput.data(), mCdf.data(), pixels);
    CUDA_CHECK_LAUNCH("equalizeHistogram");
    CUDA_CHECK(cudaEventRecord(mMarks[4].get(), stream));
    if (timings) {
        CUDA_CHECK(cudaEventSynchronize(mMarks[4].get()));
        timings->histogramMs = elapsedMs(mMarks[0], mMarks[1]);
        timings->scanMs = elapsedMs(mMarks[1], mMarks[2]);
        timings->normalizeMs = elapsedMs(mMarks[2], mMarks[3]);
        timings->equalizeMs = elapsedMs(mMarks[3], mMarks[4]);
    }
}

std::vector<std::uint8_t> Equalize8Program::run(const std::uint8_t* pixels,
                                                std::size_t count,
                                                Equalize8Timings* timings)
{
    std::vector<std::uint8_t> result(count);
    if (count == 0)
        return result;
    const cudaStream_t stream = CudaContext::instance().stream();
    CUDA_CHECK(cudaMemcpyAsync(input(count), pixels, count, cudaMemcpyHostToDevice, stream));
    runOnDevice(count, timings);
    CUDA_CHECK(cudaMemcpyAsync(result.data(), mOutput.data(), count, cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
    return result;
}

std::vector<std::uint32_t> Equalize8Program::readHistogram() const
{
    std::vector<std::uint32_t> values(kLevels);
    CUDA_CHECK(cudaStreamSynchronize(CudaContext::instance().stream()));
    CUDA_CHECK(cudaMemcpy(values.data(), mHistogram.data(), kLevels * sizeof(std::uint32_t), cudaMemcpyDeviceToHost));
    return values;
}

std::vector<std::uint32_t> Equalize8Program::readCdf() const
{
    std::vector<std::uint32_t> values(kLevels);
    CUDA_CHECK(cudaStreamSynchronize(CudaContext::instance().stream()));
    CUDA_CHECK(cudaMemcpy(values.data(), mCdf.data(), kLevels * sizeof(std::uint32_t), cudaMemcpyDeviceToHost));
    return values;
}

}  // namespace cuda
