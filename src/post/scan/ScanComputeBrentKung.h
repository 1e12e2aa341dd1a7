// ScanComputeBrentKung.h: "compute-brent-kung", the Brent-Kung scan in GL compute, any length up
// to ScanBlockHierarchy::kMaxLength.
//
// Technique: Brent & Kung 1982, in the shared-memory form of Bugetti's report (seed 002, its
// BrentKungScan; Kirk & Hwu ch. 11): per workgroup of 512 threads, 1024 elements go up a
// reduction tree (stride 1, 2, 4, ...) and back down a distribution tree (stride n/4 ... 1) that
// adds each partial sum to the element half a stride after it, which leaves the inclusive scan in
// 2(n-1) - log2(n) additions and 2 log2(n) barriers (no cleared root, no swaps, unlike Blelloch's
// down-sweep). Longer inputs: ScanBlockHierarchy. The CUDA form is cuda-brent-kung
// (src/cuda/BrentKungScan.cuh).
// Limits: uint32 sums wrap like the CPU reference; up to 1024 * 65535 elements.
#pragma once

#include "post/scan/ScanBlockHierarchy.h"
#include "post/scan/ScanMethod.h"

namespace post {

class ScanComputeBrentKung final : public ScanMethod
{
public:
    static constexpr std::string_view kId = "compute-brent-kung";

    std::string_view id() const override { return kId; }
    std::string_view label() const override { return "Compute: Brent-Kung, multi-workgroup"; }
    std::string_view description() const override;
    std::uint32_t maxLength() const override { return ScanBlockHierarchy::kMaxLength; }
    std::string status() const override { return mHierarchy.status(); }

    void inclusiveScan(PassContext& ctx, const gl::Buffer& input, gl::Buffer& output, std::uint32_t count) override
    {
        mHierarchy.inclusiveScan(ctx, input, output, count);
    }

private:
    ScanBlockHierarchy mHierarchy{kId, "scan/BrentKungBlock.comp"};
};

}  // namespace post
