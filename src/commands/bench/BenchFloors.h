// BenchFloors.h: the memory floor of `hdrlab bench pipeline`, as plain data and pure functions (no GL,
// no CUDA), so the check that the floor holds can itself be tested.
//
// A stage's floor is the time its least traffic (post/StageTraffic.h) takes at the device's measured
// streaming rates: bytes read / read rate + bytes written / write rate. The rates come from streaming
// kernels that only read or only write (commands/bench/BenchBandwidth.h: GL compute and CUDA, several
// configurations each), at the frame's own size, and the floor takes the best of them: a floor is a
// lower bound, so it must use the fastest way the device was seen to move those bytes. A stage that
// comes in under kFloorTolerance x its floor shows the floor is wrong (a rate measured too low, or a
// byte model that counts bytes the stage does not move), and the bench says so and fails.
// Limits: reads and writes are priced one after the other (HBM shares one bus between them, so a
// stage that reads and writes cannot overlap them for free); launch and tail costs are inside the
// rates measured at the frame's size, once per direction.
#pragma once

#include "post/StageTraffic.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace app {

enum class StreamDirection { Read, Write, Copy };
std::string_view toString(StreamDirection direction);

/// One streaming kernel, one buffer size, one configuration: the median of its timed runs.
struct BandwidthSample
{
    std::string api;  ///< "gl-compute" or "cuda"
    StreamDirection direction = StreamDirection::Read;
    std::uint64_t bufferBytes = 0;  ///< the buffer streamed once (a copy reads it and writes as much)
    std::string configuration;      ///< e.g. "256 x 4 vec4, 1056 groups" or "cudaMemcpy"
    double medianMs = 0.0;
    bool gpuTimed = true;  ///< false: CPU clock around glFinish (software GL)

    /// Bytes moved per second; a copy counts the bytes read and the bytes written.
    double bytesPerSecond() const;
};

/// The fastest sample of `direction` at `bufferBytes` (of `api` when not empty), or nullopt.
std::optional<BandwidthSample> bestSample(const std::vector<BandwidthSample>& samples,
                                          StreamDirection direction,
                                          std::uint64_t bufferBytes,
                                          std::string_view api = {});

/// The rates one frame size's floors use.
struct FloorRates
{
    double readBytesPerSecond = 0.0;
    double writeBytesPerSecond = 0.0;
    bool gpuTimed = false;  ///< both rates were measured on the GPU (not with the CPU clock)

    bool valid() const { return readBytesPerSecond > 0.0 && writeBytesPerSecond > 0.0; }
};

/// The best read and the best write rate at `bufferBytes` over every API and configuration.
FloorRates floorRatesAt(const std::vector<BandwidthSample>& samples, std::uint64_t bufferBytes);

/// A stage's floor in microseconds; 0 when it has no traffic model or the rates are missing.
double floorMicroseconds(const post::Traffic& traffic, const FloorRates& rates);

/// A stage under this fraction of its floor fails the bench (timer noise stays well inside 5 %).
inline constexpr double kFloorTolerance = 0.95;

/// One stage row of the bench as the floor check sees it.
struct FloorCheckRow
{
    std::string configuration;  ///< "3840x2160, 256 bins, percentile, gl path"
    std::string stage;
    std::string timeSource;  ///< gl-timer-query, cuda-event, wall-clock, cpu-fallback
    double medianUs = 0.0;
    post::Traffic traffic;
    FloorRates rates;
};

struct FloorViolation
{
    FloorCheckRow row;
    double floorUs = 0.0;
    double ratio = 0.0;  ///< time / floor, under kFloorTolerance
};

/// Whether the check looks at a row: it has a floor, and its time and rates are GPU numbers (a CPU
/// fallback time, or rates taken with the CPU clock, say nothing about the GPU's floor).
bool floorCheckApplies(const FloorCheckRow& row);
/// The checked rows that came in under kFloorTolerance x their floor.
std::vector<FloorViolation> checkFloors(const std::vector<FloorCheckRow>& rows);
/// The loud multi-line report of the violations: each stage, its time, its floor, its bytes and rates.
std::string describeFloorViolations(const std::vector<FloorViolation>& violations);

/// A device's physical memory bandwidth from its data sheet.
struct DevicePeak
{
    std::string_view model;  ///< "NVIDIA H200"
    double bytesPerSecond = 0.0;
    std::string_view memory;  ///< "141 GB HBM3e"
};
/// The peak of a device known by its name (a GL renderer string or a CUDA device name), or nullopt.
std::optional<DevicePeak> devicePeakBandwidth(std::string_view deviceName);

}  // namespace app
