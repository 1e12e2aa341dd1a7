// PipelineVerify.h: --verify, the check of the post pipeline's last frame against the CPU references
// (reference/): the histogram bins and counters (ref::buildHistogram), the CDF (ref::inclusiveScan),
// the apply pass (ref::applyCurve through the GPU's curve) and the operator's curve against its own
// reference, with the operator's further checks. Synchronous: it reads every stage output back and
// stalls (tools and tests only, never the per-frame path). Sits above post/ and reference/, which
// know nothing of each other.
#pragma once

#include "post/PostPipeline.h"

#include <cstdint>
#include <string>

namespace verify {

/// GPU vs CPU reference on the current frame (--verify, the compare tool, tests).
struct VerifyReport
{
    bool ok = true;
    std::uint64_t gpuTotal = 0;
    std::uint64_t cpuTotal = 0;
    std::uint64_t maxBinDifference = 0;
    std::uint64_t l1Difference = 0;
    double curveMaxDifference = 0.0;
    std::string text;  ///< human-readable summary, one finding per line
};

/// Compares the last run of `pipeline` with the CPU references; the frame it ran on must still be alive.
VerifyReport verifyPipeline(post::PostPipeline& pipeline);

}  // namespace verify
