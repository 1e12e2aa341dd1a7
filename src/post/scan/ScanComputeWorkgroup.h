// ScanComputeWorkgroup.h: "compute-scan", an inclusive prefix sum in one GL compute workgroup.
//
// Technique: 1024 threads x 4 elements; each thread scans its 4 consecutive elements serially, the
// 1024 thread totals are scanned with a double-buffered Kogge-Stone scan in shared memory (Kogge &
// Stone 1973; the variant in Bugetti's report, 2.2.1), then each thread adds its exclusive prefix.
// Limits: up to 4096 elements (one workgroup; enough for any histogram of hdrlab).
#pragma once

#include "post/scan/ScanMethod.h"

namespace post {

class ScanComputeWorkgroup final : public ScanMethod
{
public:
    static constexpr std::string_view kId = "compute-scan";
    static constexpr std::uint32_t kElementsPerThread = 4;

    std::string_view id() const override { return kId; }
    std::string_view label() const override { return "Compute: one-workgroup Kogge-Stone"; }
    std::string_view description() const override;
    std::uint32_t maxLength() const override { return hd::kScanGroupSize * kElementsPerThread; }

    void inclusiveScan(PassContext& ctx, const gl::Buffer& input, gl::Buffer& output, std::uint32_t count) override;

private:
    gl::Program mProgram;
};

}  // namespace post
