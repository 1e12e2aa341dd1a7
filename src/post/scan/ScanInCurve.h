// ScanInCurve.h: "in-curve", the histogram scanned inside the tone operator's curve dispatch.
//
// Technique: no scan dispatch of its own. The pipeline hands the operator the CDF buffer
// (ToneInputs::fusedCdf) and the operator's one curve kernel scans the bins in shared memory (the
// same one-workgroup Kogge-Stone as compute-scan: scan/WorkgroupScanCore.glsl), writes the CDF for the
// view and --verify, and goes on to its curve from shared memory (percentile: PercentileFused.comp,
// equalize: EqualizeFused.comp). The scan and curve of the chain then cost one launch instead of
// two or three, which at 256..4096 bins is nearly all of their time (docs/PERF.md). Operators that
// need no CDF (ward, exposure) skip it; those that cannot fuse (per-channel equalization, a
// percentile metering mask) call inclusiveScan(), this method's stand-alone form (compute-scan's).
// Limits: up to 4096 bins (one workgroup).
#pragma once

#include "post/scan/ScanComputeWorkgroup.h"
#include "post/scan/ScanMethod.h"

namespace post {

class ScanInCurve final : public ScanMethod
{
public:
    static constexpr std::string_view kId = "in-curve";

    std::string_view id() const override { return kId; }
    std::string_view label() const override { return "In the curve dispatch (scan + curve in one)"; }
    std::string_view description() const override;
    bool fusedIntoCurve() const override { return true; }
    std::uint32_t maxLength() const override { return mStandalone.maxLength(); }

    /// The stand-alone form, for callers outside a curve dispatch: compute-scan's workgroup scan.
    void inclusiveScan(PassContext& ctx, const gl::Buffer& input, gl::Buffer& output, std::uint32_t count) override
    {
        mStandalone.inclusiveScan(ctx, input, output, count);
    }

private:
    ScanComputeWorkgroup mStandalone;
};

}  // namespace post
