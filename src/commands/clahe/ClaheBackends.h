// ClaheBackends.h: the CLAHE backends `hdrlab clahe --backend` and `hdrlab bench clahe` choose from,
// an explicit table in display order: gl (post/clahe/ClaheGl: GL compute), cuda (cuda/Clahe.h's
// ClaheProgram, through ClaheCuda.cpp; without the CUDA backend commands/CudaCommandsFallback.cpp
// lists it as unavailable with the reason) and cpu (reference/Clahe: OpenCV's loops on the CPU). Each
// entry has an id, a label, its availability (the reason when it cannot run) and a factory of runners.
// The table lives in commands/ because it joins post/ and reference/, which never include each other.
// Every backend computes OpenCV's bytes (the GPU ones are tested equal to the CPU reference).
#pragma once

#include "commands/CommonOptions.h"
#include "shared/Clahe.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace app {

/// One run's pass times (ms): GL timestamps, CUDA events, or the CPU clock.
struct ClaheStageTimings
{
    double histogramMs = 0.0;  ///< including the clear of the tile histograms
    double lutMs = 0.0;
    double blendMs = 0.0;
    double launchFloorMs = 0.0;  ///< CUDA: an empty kernel between two events (0: not measured); not in the total
    double totalMs() const { return histogramMs + lutMs + blendMs; }
};

/// One backend's program and buffers, reused while the geometry stays the same.
class ClaheRunner
{
public:
    virtual ~ClaheRunner() = default;
    /// CLAHE of one plane (geometry.width x geometry.height samples, rows packed); geometry.bins 256
    /// for run8, 65536 for run16. Throws std::exception with the reason on failure.
    virtual std::vector<std::uint8_t> run8(const std::uint8_t* samples, const hd::ClaheGeometry& geometry) = 0;
    virtual std::vector<std::uint16_t> run16(const std::uint16_t* samples, const hd::ClaheGeometry& geometry) = 0;
    /// `runs` more runs on the last plane, without transfers; each run's pass times.
    virtual std::vector<ClaheStageTimings> time(int runs) = 0;
    /// What it runs on ("GL: <renderer>", "CUDA: <device>", "CPU").
    virtual std::string device() const = 0;
};

struct ClaheBackend
{
    std::string_view id;
    std::string_view label;
    /// Why it cannot run here (CUDA not built, no CUDA device), or nothing.
    std::optional<std::string> (*unavailableReason)();
    std::unique_ptr<ClaheRunner> (*create)(const CommonOptions& common);
};

/// gl, cuda, cpu.
std::span<const ClaheBackend> claheBackends();
const ClaheBackend* findClaheBackend(std::string_view id);
/// "gl, cuda, cpu" (messages and --help).
std::string claheBackendIds();

/// The CUDA entry's two functions: commands/clahe/ClaheCuda.cpp in CUDA builds,
/// commands/CudaCommandsFallback.cpp otherwise.
std::optional<std::string> claheCudaUnavailableReason();
std::unique_ptr<ClaheRunner> createClaheCudaRunner(const CommonOptions& common);

}  // namespace app
