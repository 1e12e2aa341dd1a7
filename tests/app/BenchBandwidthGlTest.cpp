// BenchBandwidthGlTest.cpp: the GL streaming kernels behind `bench pipeline`'s rates cover their buffer
// at awkward lengths and shapes (every workgroup size and items-per-invocation of the sweep, a
// grid-stride and a one-pass workgroup count): the write kernel writes every element and nothing past
// the end, the read kernel reads every element (zeros but for one element at the first, a middle and
// the last position: only the invocation that reads it sees the sentinel and stores it into the sink).
// And measureGlBandwidth returns a read, a write and a copy sample for every size it is given.
#include "commands/bench/BenchBandwidth.h"
#include "support/GlTestEnvironment.h"

#include <gtest/gtest.h>

#include <array>
#include <string>
#include <vector>

namespace {

using Word4 = std::array<std::uint32_t, 4>;

class BenchBandwidthGlTest : public testing_support::GlTest
{
};

const std::uint32_t kCounts[] = {1, 7, 255, 512 * 8 + 3, 20011};

std::vector<unsigned> groupsFor(std::uint32_t count, const app::GlStreamKernels& kernels)
{
    const std::uint32_t perGroup = std::uint32_t(kernels.groupSize() * kernels.items());
    return {(count + perGroup - 1) / perGroup, 3u};  // one pass; grid-stride (or idle groups)
}

std::vector<app::GlStreamKernels> allShapes()
{
    std::vector<app::GlStreamKernels> kernels;
    for (int groupSize : {128, 256, 512})
        for (int items : {1, 2, 4, 8})
            kernels.emplace_back(testing_support::shaderLibrary(), groupSize, items);
    return kernels;
}

std::string describe(std::uint32_t count, const app::GlStreamKernels& kernels, unsigned groups)
{
    return "count " + std::to_string(count) + ", " + std::to_string(groups) + " groups of " +
           std::to_string(kernels.groupSize()) + " x " + std::to_string(kernels.items());
}

TEST_F(BenchBandwidthGlTest, WriteKernelWritesEveryElement)
{
    const std::vector<app::GlStreamKernels> shapes = allShapes();
    for (std::uint32_t count : kCounts)
        for (const app::GlStreamKernels& kernels : shapes)
            for (unsigned groups : groupsFor(count, kernels)) {
                SCOPED_TRACE(describe(count, kernels, groups));
                gl::Buffer target("test.stream-target", (std::size_t(count) + 1) * 16);
                target.clearUint(0);
                kernels.write(target, count, 0x3f800000u, groups);
                std::vector<Word4> got(std::size_t(count) + 1);
                target.read(0, got.size() * 16, got.data());
                std::size_t wrong = 0;
                for (std::uint32_t i = 0; i < count; ++i)
                    wrong += got[i] != Word4{0x3f800000u, 0x3f800000u, 0x3f800000u, 0x3f800000u};
                EXPECT_EQ(wrong, 0u);
                EXPECT_EQ(got[count], (Word4{0, 0, 0, 0})) << "wrote past the end";
            }
}

TEST_F(BenchBandwidthGlTest, ReadKernelReadsEveryElement)
{
    const Word4 marker{0x11u, 0x200u, 0x4000u, 0x80000u};
    const unsigned sentinel = marker[0] ^ marker[1] ^ marker[2] ^ marker[3];
    const std::vector<app::GlStreamKernels> shapes = allShapes();
    gl::Buffer sink("test.stream-sink", 16);
    for (std::uint32_t count : kCounts) {
        gl::Buffer source("test.stream-source", std::size_t(count) * 16);
        for (std::uint32_t position : {0u, count / 2, count - 1}) {
            source.clearUint(0);
            source.update(std::size_t(position) * 16, 16, marker.data());
            for (const app::GlStreamKernels& kernels : shapes)
                for (unsigned groups : groupsFor(count, kernels)) {
                    SCOPED_TRACE(describe(count, kernels, groups) + ", marker at " + std::to_string(position));
                    sink.clearUint(0);
                    kernels.read(source, count, sink, sentinel, groups);
                    Word4 got{};
                    sink.read(0, 16, got.data());
                    EXPECT_EQ(got, marker);
                }
        }
    }
}

TEST_F(BenchBandwidthGlTest, ReadKernelOfARepeatedWordNeverHitsTheSentinel)
{
    app::GlStreamKernels kernels(testing_support::shaderLibrary(), 256, 4);
    gl::Buffer source("test.stream-source", 20011 * 16);
    source.clearUint(0x3c003c00u);  // what measureGlBandwidth streams
    gl::Buffer sink("test.stream-sink", 16);
    sink.clearUint(0);
    kernels.read(source, 20011, sink, 1u, 5);
    Word4 got{};
    sink.read(0, 16, got.data());
    EXPECT_EQ(got, (Word4{0, 0, 0, 0}));
}

TEST_F(BenchBandwidthGlTest, MeasuresReadWriteAndCopyAtEverySize)
{
    app::BandwidthPlan plan;
    plan.bufferBytes = {app::streamBytesFor(36), app::streamBytesFor(64 * 1024)};
    plan.runs = 2;
    plan.sweep = true;
    plan.multiprocessors = 2;
    const std::vector<app::BandwidthSample> samples =
        app::measureGlBandwidth(testing_support::shaderLibrary(), false, plan);
    for (std::uint64_t bytes : plan.bufferBytes)
        for (app::StreamDirection direction :
             {app::StreamDirection::Read, app::StreamDirection::Write, app::StreamDirection::Copy}) {
            const auto best = app::bestSample(samples, direction, bytes, "gl-compute");
            ASSERT_TRUE(best) << bytes << " bytes, " << app::toString(direction);
            EXPECT_GT(best->bytesPerSecond(), 0.0);
            EXPECT_FALSE(best->gpuTimed) << "glTimersUseful false: the CPU clock";
        }
    // With timer queries asked for: where they read 0 (llvmpipe) the CPU clock takes over.
    plan.bufferBytes = {app::streamBytesFor(4096)};
    plan.sweep = false;
    for (const app::BandwidthSample& sample : app::measureGlBandwidth(testing_support::shaderLibrary(), true, plan))
        EXPECT_GT(sample.bytesPerSecond(), 0.0) << sample.configuration;
    EXPECT_EQ(app::streamBytesFor(36), 48u);
    EXPECT_EQ(app::streamBytesFor(0), 16u);
}

}  // namespace
