#include "commands/bench/BenchFloors.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <sstream>

namespace app {

namespace {

std::string lowerCase(std::string_view text)
{
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return out;
}

std::string fixed(double value, int digits)
{
    char text[64];
    std::snprintf(text, sizeof text, "%.*f", digits, value);
    return text;
}

std::string megabytes(std::uint64_t bytes)
{
    return fixed(double(bytes) * 1e-6, 3) + " MB";
}

}  // namespace

std::string_view toString(StreamDirection direction)
{
    switch (direction) {
        case StreamDirection::Read:
            return "read";
        case StreamDirection::Write:
            return "write";
        case StreamDirection::Copy:
            return "copy";
    }
    return "unknown";
}

double BandwidthSample::bytesPerSecond() const
{
    if (medianMs <= 0.0)
        return 0.0;
    const double moved = double(bufferBytes) * (direction == StreamDirection::Copy ? 2.0 : 1.0);
    return moved / (medianMs * 1e-3);
}

std::optional<BandwidthSample> bestSample(const std::vector<BandwidthSample>& samples,
                                          StreamDirection direction,
                                          std::uint64_t bufferBytes,
                                          std::string_view api)
{
    std::optional<BandwidthSample> best;
    for (const BandwidthSample& sample : samples) {
        if (sample.direction != direction || sample.bufferBytes != bufferBytes || sample.bytesPerSecond() <= 0.0)
            continue;
        if (!api.empty() && sample.api != api)
            continue;
        if (!best || sample.bytesPerSecond() > best->bytesPerSecond())
            best = sample;
    }
    return best;
}

FloorRates floorRatesAt(const std::vector<BandwidthSample>& samples, std::uint64_t bufferBytes)
{
    FloorRates rates;
    const auto read = bestSample(samples, StreamDirection::Read, bufferBytes);
    const auto write = bestSample(samples, StreamDirection::Write, bufferBytes);
    if (read)
        rates.readBytesPerSecond = read->bytesPerSecond();
    if (write)
        rates.writeBytesPerSecond = write->bytesPerSecond();
    rates.gpuTimed = read && write && read->gpuTimed && write->gpuTimed;
    return rates;
}

double floorMicroseconds(const post::Traffic& traffic, const FloorRates& rates)
{
    if (traffic.empty() || !rates.valid())
        return 0.0;
    return (double(traffic.readBytes) / rates.readBytesPerSecond +
            double(traffic.writeBytes) / rates.writeBytesPerSecond) *
           1e6;
}

bool floorCheckApplies(const FloorCheckRow& row)
{
    return row.rates.gpuTimed && row.timeSource != "cpu-fallback" && floorMicroseconds(row.traffic, row.rates) > 0.0;
}

std::vector<FloorViolation> checkFloors(const std::vector<FloorCheckRow>& rows)
{
    std::vector<FloorViolation> violations;
    for (const FloorCheckRow& row : rows) {
        if (!floorCheckApplies(row))
            continue;
        const double floorUs = floorMicroseconds(row.traffic, row.rates);
        const double ratio = row.medianUs / floorUs;
        if (ratio < kFloorTolerance)
            violations.push_back({row, floorUs, ratio});
    }
    return violations;
}

std::string describeFloorViolations(const std::vector<FloorViolation>& violations)
{
    if (violations.empty())
        return {};
    const std::string rule(100, '!');
    std::ostringstream out;
    out << rule << "\n"
        << "FLOOR BROKEN: " << violations.size() << (violations.size() == 1 ? " stage" : " stages") << " came in under "
        << fixed(kFloorTolerance, 2)
        << "x the memory floor. A floor a stage beats is not a floor: a measured rate is too low (the\n"
        << "streaming kernels are not at the device's limit) or a byte model (post/StageTraffic.h, the\n"
        << "operators' curveMinimumTraffic) counts bytes the stage does not move. Fix the floor, not the stage.\n";
    for (const FloorViolation& v : violations) {
        const FloorCheckRow& row = v.row;
        out << "  " << row.configuration << ": " << row.stage << " " << fixed(row.medianUs, 2) << " us ("
            << row.timeSource << ") < " << fixed(kFloorTolerance, 2) << " x floor " << fixed(v.floorUs, 2)
            << " us (time / floor " << fixed(v.ratio, 3) << "): reads " << megabytes(row.traffic.readBytes) << " at "
            << fixed(row.rates.readBytesPerSecond * 1e-9, 1) << " GB/s, writes " << megabytes(row.traffic.writeBytes)
            << " at " << fixed(row.rates.writeBytesPerSecond * 1e-9, 1) << " GB/s\n";
    }
    out << rule << "\n";
    return out.str();
}

std::optional<DevicePeak> devicePeakBandwidth(std::string_view deviceName)
{
    // Data-sheet figures (shared/research/performance.md, section 1), most specific name first: the
    // H100's variants differ in memory; every H200 (SXM, NVL) has 4.8 TB/s. The CUDA names are
    // "NVIDIA H200", "NVIDIA H100 80GB HBM3" (SXM5), "NVIDIA H100 PCIe", "NVIDIA H100 NVL"; the GL
    // renderer strings add "/PCIe/SSE2".
    struct Entry
    {
        std::string_view pattern;
        DevicePeak peak;
    };
    static constexpr std::array<Entry, 5> kTable{{
        {"h200", {"NVIDIA H200", 4.8e12, "141 GB HBM3e"}},
        {"h100 nvl", {"NVIDIA H100 NVL", 3.9e12, "94 GB HBM3"}},
        {"h100 pcie", {"NVIDIA H100 PCIe", 2.0e12, "80 GB HBM2e"}},
        {"h100 sxm", {"NVIDIA H100 SXM", 3.35e12, "80 GB HBM3"}},
        {"h100 80gb hbm3", {"NVIDIA H100 SXM", 3.35e12, "80 GB HBM3"}},
    }};
    const std::string name = lowerCase(deviceName);
    for (const Entry& entry : kTable)
        if (name.find(entry.pattern) != std::string::npos)
            return entry.peak;
    return std::nullopt;
}

}  // namespace app
