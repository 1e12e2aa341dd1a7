// ReferenceChainCpu.h: the CPU model of `hdrlab bench pipeline`'s reference chain
// (commands/bench/ReferenceChain.h): the curve shaders/bench/ReferenceCurve.comp builds from a histogram
// and the pixels shaders/bench/ReferenceApply.comp makes with it, in the same float arithmetic (the GPU's
// exp2, log2 and pow differ in the last bits: the curve agrees to a relative 2e-5, the pixels to 1 LSB).
// The reference histogram itself is checked against ref::buildHistogram (reference/Histogram.h): it is
// that histogram up to pixels at bin edges, since it bins with the hardware log2.
#pragma once

#include "shared/HostDevice.h"

#include <cstdint>
#include <vector>

namespace app {

/// What the reference curve and apply read of the histogram params (hd::kParam*).
struct ReferenceChainParams
{
    float logMin = -10.0f;
    float logMax = 20.0f;
    std::uint32_t bins = hd::kDefaultHistogramBins;
    hd::LuminanceWeights weights;
    float cdPerUnit = 1.0f;
};

/// The bin that holds the 50th percentile of `bins` (the first whose running count reaches half the
/// total), or -1 when every bin is empty.
int referenceMedianBin(const std::vector<std::uint32_t>& bins);

/// The curve buffer ReferenceCurve.comp writes (hd::kCurve* header, then one sample per bin).
std::vector<float> referenceCurveCpu(const std::vector<std::uint32_t>& bins, const ReferenceChainParams& params);

/// ReferenceApply.comp's RGBA8 pixel (packed as packUnorm4x8: red in the low byte) of one RGB pixel
/// through `curve` (the layout of referenceCurveCpu).
std::uint32_t referenceApplyPixelCpu(float r,
                                     float g,
                                     float b,
                                     const std::vector<float>& curve,
                                     const ReferenceChainParams& params);

}  // namespace app
