// BenchFloorsTest.cpp: `bench pipeline`'s memory floor (commands/bench/BenchFloors.h): a floor prices the bytes
// read at the read rate and the bytes written at the write rate, takes the best sample of each
// direction at the frame's size, and the floor check fails a (fake) stage faster than its floor, passes
// one at 0.96x, and never judges CPU-fallback numbers.
#include "commands/bench/BenchFloors.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace {

using app::BandwidthSample;
using app::StreamDirection;

constexpr std::uint64_t k4kFrame = 3840ull * 2160ull * 16;  // RGBA32F, 132.7 MB

/// A sample of `gbPerSecond` at `bytes` (its median time follows from the rate).
BandwidthSample sample(std::string api,
                       StreamDirection direction,
                       std::uint64_t bytes,
                       double gbPerSecond,
                       std::string configuration = "x",
                       bool gpuTimed = true)
{
    const double moved = double(bytes) * (direction == StreamDirection::Copy ? 2.0 : 1.0);
    return {std::move(api), direction, bytes, std::move(configuration), moved / (gbPerSecond * 1e9) * 1e3, gpuTimed};
}

/// The H200 rates at the 4K frame: 3.55 TB/s read, 3.89 TB/s write.
app::FloorRates h200Rates()
{
    return {3.55e12, 3.89e12, true};
}

app::FloorCheckRow row(std::string stage, double medianUs, post::Traffic traffic, std::string source = "gl-timer-query")
{
    return {"3840x2160, 256 bins, percentile, gl path",
            std::move(stage),
            std::move(source),
            medianUs,
            traffic,
            h200Rates()};
}

TEST(BenchFloors, SampleRateCountsACopyTwice)
{
    EXPECT_NEAR(sample("gl-compute", StreamDirection::Read, 1000000, 2.0).bytesPerSecond(), 2e9, 1.0);
    const BandwidthSample copy{"cuda", StreamDirection::Copy, 1000000, "cudaMemcpy", 1.0, true};
    EXPECT_NEAR(copy.bytesPerSecond(), 2e9, 1.0);  // 1 MB read + 1 MB written in 1 ms
    EXPECT_EQ((BandwidthSample{"cuda", StreamDirection::Read, 1000, "x", 0.0, true}.bytesPerSecond()), 0.0);
}

TEST(BenchFloors, RatesAreTheBestOfEveryApiAndConfigurationAtTheFramesSize)
{
    const std::vector<BandwidthSample> samples{
        sample("gl-compute", StreamDirection::Read, k4kFrame, 3100.0, "256 x 4"),
        sample("gl-compute", StreamDirection::Read, k4kFrame, 3300.0, "512 x 8"),
        sample("cuda", StreamDirection::Read, k4kFrame, 3550.0, "256 x 4, __ldg"),
        sample("cuda", StreamDirection::Read, 1ull << 30, 4160.0),  // the reference size: not the frame's
        sample("gl-compute", StreamDirection::Write, k4kFrame, 3890.0),
        sample("cuda", StreamDirection::Write, k4kFrame, 3700.0),
        sample("cuda", StreamDirection::Copy, k4kFrame, 9000.0),  // copies never set a floor
    };
    const app::FloorRates rates = app::floorRatesAt(samples, k4kFrame);
    EXPECT_NEAR(rates.readBytesPerSecond, 3550e9, 1e3);
    EXPECT_NEAR(rates.writeBytesPerSecond, 3890e9, 1e3);
    EXPECT_TRUE(rates.gpuTimed);
    EXPECT_EQ(app::bestSample(samples, StreamDirection::Read, k4kFrame, "gl-compute")->configuration, "512 x 8");
    EXPECT_EQ(app::bestSample(samples, StreamDirection::Read, k4kFrame)->api, "cuda");
    EXPECT_FALSE(app::bestSample(samples, StreamDirection::Write, 12345));

    const app::FloorRates none = app::floorRatesAt(samples, 12345);
    EXPECT_FALSE(none.valid());
    EXPECT_FALSE(none.gpuTimed);
}

TEST(BenchFloors, CpuClockSamplesGiveRatesThatAreNotGpuNumbers)
{
    const std::vector<BandwidthSample> samples{
        sample("gl-compute", StreamDirection::Read, 4096, 1.0, "x", false),
        sample("gl-compute", StreamDirection::Write, 4096, 1.0, "x", false),
    };
    const app::FloorRates rates = app::floorRatesAt(samples, 4096);
    EXPECT_TRUE(rates.valid());
    EXPECT_FALSE(rates.gpuTimed);
}

TEST(BenchFloors, FloorPricesReadsAndWritesAtTheirOwnRates)
{
    const app::FloorRates rates{4e12, 2e12, true};
    EXPECT_DOUBLE_EQ(app::floorMicroseconds({4000000, 0}, rates), 1.0);
    EXPECT_DOUBLE_EQ(app::floorMicroseconds({0, 4000000}, rates), 2.0);
    EXPECT_DOUBLE_EQ(app::floorMicroseconds({4000000, 4000000}, rates), 3.0);
    EXPECT_EQ(app::floorMicroseconds({}, rates), 0.0) << "no traffic model: no floor";
    EXPECT_EQ(app::floorMicroseconds({4000000, 0}, {}), 0.0) << "no rates: no floor";
}

TEST(BenchFloors, AStageFasterThanItsFloorFailsTheCheck)
{
    // The 4K histogram: 132.7 MB read at 3.55 TB/s = 37.4 us; a fake stage at 30 us beats it.
    const post::Traffic histogram{k4kFrame, 1024};
    const double floorUs = app::floorMicroseconds(histogram, h200Rates());
    EXPECT_NEAR(floorUs, 37.38, 0.01);
    const std::vector<app::FloorCheckRow> rows{
        row("histogram", 30.0, histogram),
        row("apply", 200.0, {k4kFrame, k4kFrame / 4}),
    };
    const std::vector<app::FloorViolation> violations = app::checkFloors(rows);
    ASSERT_EQ(violations.size(), 1u);
    EXPECT_EQ(violations[0].row.stage, "histogram");
    EXPECT_NEAR(violations[0].floorUs, floorUs, 1e-9);
    EXPECT_NEAR(violations[0].ratio, 30.0 / floorUs, 1e-9);

    const std::string message = app::describeFloorViolations(violations);
    for (const char* expected :
         {"FLOOR BROKEN", "1 stage came in under 0.95x", "3840x2160, 256 bins, percentile", "histogram 30.00 us",
          "floor 37.38 us", "reads 132.710 MB at 3550.0 GB/s", "writes 0.001 MB at 3890.0 GB/s"})
        EXPECT_NE(message.find(expected), std::string::npos) << expected << " in\n" << message;
    EXPECT_GE(std::count(message.begin(), message.end(), '\n'), 4) << "a loud, multi-line message";
    EXPECT_TRUE(app::describeFloorViolations({}).empty());
}

TEST(BenchFloors, AStageAt096OfItsFloorPasses)
{
    const post::Traffic histogram{k4kFrame, 1024};
    const double floorUs = app::floorMicroseconds(histogram, h200Rates());
    EXPECT_TRUE(app::checkFloors({row("histogram", 0.96 * floorUs, histogram)}).empty());
    EXPECT_EQ(app::checkFloors({row("histogram", 0.94 * floorUs, histogram)}).size(), 1u);
}

TEST(BenchFloors, CpuFallbackTimesAndCpuRatesAreNeverChecked)
{
    const post::Traffic histogram{k4kFrame, 1024};
    app::FloorCheckRow cpuTime = row("histogram", 1.0, histogram, "cpu-fallback");
    EXPECT_FALSE(app::floorCheckApplies(cpuTime));
    app::FloorCheckRow cpuRates = row("histogram", 1.0, histogram);
    cpuRates.rates.gpuTimed = false;
    EXPECT_FALSE(app::floorCheckApplies(cpuRates));
    app::FloorCheckRow noModel = row("curve/foveal", 1.0, {});
    EXPECT_FALSE(app::floorCheckApplies(noModel));
    EXPECT_TRUE(app::checkFloors({cpuTime, cpuRates, noModel}).empty());

    // The same row with GPU numbers is checked, and fails: the skip above is the source's doing.
    EXPECT_TRUE(app::floorCheckApplies(row("histogram", 1.0, histogram)));
    EXPECT_EQ(app::checkFloors({row("histogram", 1.0, histogram, "cuda-event")}).size(), 1u);
    EXPECT_EQ(app::checkFloors({row("frame", 1.0, histogram, "wall-clock")}).size(), 1u);
}

TEST(BenchFloors, DevicePeaksByName)
{
    EXPECT_DOUBLE_EQ(app::devicePeakBandwidth("NVIDIA H200/PCIe/SSE2")->bytesPerSecond, 4.8e12);
    EXPECT_DOUBLE_EQ(app::devicePeakBandwidth("NVIDIA H200")->bytesPerSecond, 4.8e12);
    EXPECT_DOUBLE_EQ(app::devicePeakBandwidth("NVIDIA H200 NVL")->bytesPerSecond, 4.8e12);
    EXPECT_DOUBLE_EQ(app::devicePeakBandwidth("NVIDIA H100 80GB HBM3")->bytesPerSecond, 3.35e12);
    EXPECT_DOUBLE_EQ(app::devicePeakBandwidth("NVIDIA H100 SXM5 80GB")->bytesPerSecond, 3.35e12);
    EXPECT_DOUBLE_EQ(app::devicePeakBandwidth("NVIDIA H100 PCIe/PCIe/SSE2")->bytesPerSecond, 2.0e12);
    EXPECT_DOUBLE_EQ(app::devicePeakBandwidth("NVIDIA H100 NVL")->bytesPerSecond, 3.9e12);
    EXPECT_FALSE(app::devicePeakBandwidth("llvmpipe (LLVM 15.0.6, 256 bits)"));
    EXPECT_FALSE(app::devicePeakBandwidth("NVIDIA A100-SXM4-80GB"));
}

}  // namespace
