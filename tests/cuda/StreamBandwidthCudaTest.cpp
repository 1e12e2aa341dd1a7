// StreamBandwidthCudaTest.cpp: the streaming kernels behind `bench pipeline`'s CUDA rates cover their
// buffer at awkward lengths and launch shapes (every items-per-thread, a grid-stride grid and a
// one-pass grid, both cache hints): the write kernel writes every element, and the read kernel reads
// every element (a buffer of zeros but for one element at the first, a middle and the last position:
// the thread that reads it, and only one, sees the sentinel and stores the element into the sink).
#include "cuda/CudaTestSupport.h"
#include "cuda/StreamBandwidth.h"

#include <string>

namespace {

const std::size_t kCounts[] = {1, 7, 255, 256 * 8 + 3, 100003};

std::vector<cuda::StreamLaunch> shapes(std::size_t count)
{
    std::vector<cuda::StreamLaunch> list;
    for (int items : {1, 2, 4, 8})
        for (int threads : {32, 256})
            for (cuda::StreamCache cache : {cuda::StreamCache::Default, cuda::StreamCache::Streaming}) {
                const std::size_t perBlock = std::size_t(items) * std::size_t(threads);
                const int onePass = int((count + perBlock - 1) / perBlock);
                list.push_back({onePass, threads, items, cache});
                list.push_back({3, threads, items, cache});  // grid-stride (or idle blocks on small buffers)
            }
    return list;
}

std::string describe(std::size_t count, const cuda::StreamLaunch& launch)
{
    return "count " + std::to_string(count) + ", " + std::to_string(launch.blocks) + " blocks x " +
           std::to_string(launch.threadsPerBlock) + " threads x " + std::to_string(launch.itemsPerThread) +
           (launch.cache == cuda::StreamCache::Streaming ? " items, streaming" : " items");
}

TEST(StreamBandwidthCuda, WriteKernelWritesEveryElement)
{
    REQUIRE_CUDA_DEVICE();
    for (std::size_t count : kCounts)
        for (const cuda::StreamLaunch& launch : shapes(count)) {
            SCOPED_TRACE(describe(count, launch));
            cuda::DeviceBuffer<uint4> data(count + 1);  // one guard element past the end
            CUDA_CHECK(cudaMemsetAsync(data.data(), 0, (count + 1) * sizeof(uint4), cuda_testing::stream()));
            cuda::streamWrite(data.data(), count, 0x3f800000u, launch, cuda_testing::stream());
            const std::vector<uint4> got = cuda_testing::download(data.data(), count + 1);
            std::size_t wrong = 0;
            for (std::size_t i = 0; i < count; ++i)
                wrong += got[i].x != 0x3f800000u || got[i].y != 0x3f800000u || got[i].z != 0x3f800000u ||
                         got[i].w != 0x3f800000u;
            EXPECT_EQ(wrong, 0u);
            EXPECT_EQ(got[count].x | got[count].y | got[count].z | got[count].w, 0u) << "wrote past the end";
        }
}

TEST(StreamBandwidthCuda, ReadKernelReadsEveryElement)
{
    REQUIRE_CUDA_DEVICE();
    const uint4 marker = make_uint4(0x11u, 0x200u, 0x4000u, 0x80000u);
    const unsigned sentinel = marker.x ^ marker.y ^ marker.z ^ marker.w;
    for (std::size_t count : kCounts)
        for (std::size_t position : {std::size_t(0), count / 2, count - 1})
            for (const cuda::StreamLaunch& launch : shapes(count)) {
                SCOPED_TRACE(describe(count, launch) + ", marker at " + std::to_string(position));
                std::vector<uint4> values(count, make_uint4(0u, 0u, 0u, 0u));
                values[position] = marker;
                cuda::DeviceBuffer<uint4> data = cuda_testing::upload(values);
                cuda::DeviceBuffer<uint4> sink(1);
                CUDA_CHECK(cudaMemsetAsync(sink.data(), 0, sizeof(uint4), cuda_testing::stream()));
                cuda::streamRead(data.data(), count, sink.data(), sentinel, launch, cuda_testing::stream());
                const uint4 got = cuda_testing::download(sink.data(), 1)[0];
                EXPECT_TRUE(got.x == marker.x && got.y == marker.y && got.z == marker.z && got.w == marker.w);
            }
}

TEST(StreamBandwidthCuda, ReadKernelOfARepeatedByteNeverHitsTheSentinel)
{
    REQUIRE_CUDA_DEVICE();
    const std::size_t count = 100003;
    cuda::DeviceBuffer<uint4> data(count);
    CUDA_CHECK(cudaMemsetAsync(data.data(), 0x3c, count * sizeof(uint4), cuda_testing::stream()));
    cuda::DeviceBuffer<uint4> sink(1);
    CUDA_CHECK(cudaMemsetAsync(sink.data(), 0, sizeof(uint4), cuda_testing::stream()));
    cuda::streamRead(data.data(), count, sink.data(), 1u, {64, 256, 4, cuda::StreamCache::Default},
                     cuda_testing::stream());
    const uint4 got = cuda_testing::download(sink.data(), 1)[0];
    EXPECT_EQ(got.x | got.y | got.z | got.w, 0u);
}

TEST(StreamBandwidthCuda, RejectsUnsupportedShapes)
{
    REQUIRE_CUDA_DEVICE();
    cuda::DeviceBuffer<uint4> data(16);
    EXPECT_THROW(
        cuda::streamWrite(data.data(), 16, 0u, {1, 256, 3, cuda::StreamCache::Default}, cuda_testing::stream()),
        std::invalid_argument);
    EXPECT_THROW(
        cuda::streamWrite(data.data(), 16, 0u, {0, 256, 4, cuda::StreamCache::Default}, cuda_testing::stream()),
        std::invalid_argument);
}

}  // namespace
