// ScanComputeBlelloch.h: "compute-blelloch", Blelloch's work-efficient scan in GL compute, any
// length up to ScanBlockHierarchy::kMaxLength.
//
// Technique: Blelloch 1990, "Prefix sums and their applications", in the shared-memory form of
// Harris, Sengupta & Owens (GPU Gems 3 ch. 39) that Bilgic, Horn & Masaki use for integral images
// (seed 001): per workgroup of 512 threads, 1024 elements go up a reduction tree, the root is
// cleared and a down-sweep (swap and add) leaves the exclusive scan in 2(n-1) additions; adding
// each element's own input gives the inclusive scan. Shared-memory indices carry the bank-conflict
// padding (the corrected CONFLICT_FREE_OFFSET, 32 banks). Longer inputs: ScanBlockHierarchy.
// The CUDA form of the same tree is cuda-blelloch (src/cuda/BlellochScan.cuh).
// Limits: uint32 sums wrap like the CPU reference; up to 1024 * 65535 elements.
#pragma once

#include "post/scan/ScanBlockHierarchy.h"
#include "post/scan/ScanMethod.h"

namespace post {

class ScanComputeBlelloch final : public ScanMethod
{
public:
    static constexpr std::string_view kId = "compute-blelloch";

    std::string_view id() const override { return kId; }
    std::string_view label() const override { return "Compute: Blelloch work-efficient, multi-workgroup"; }
    std::string_view description() const override;
    std::uint32_t maxLength() const override { return ScanBlockHierarchy::kMaxLength; }
    std::string status() const override { return mHierarchy.status(); }

    void inclusiveScan(PassContext& ctx, const gl::Buffer& input, gl::Buffer& output, std::uint32_t count) override
    {
        mHierarchy.inclusiveScan(ctx, input, output, count);
    }

private:
    ScanBlockHierarchy mHierarchy{kId, "scan/BlellochBlock.comp"};
};

}  // namespace post
