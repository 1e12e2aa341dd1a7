// ComputeMethods.cpp: the GL compute-shader histogram methods, in display order (one line each).
#include "post/histogram/HistogramComputeGlobalAtomic.h"
#include "post/histogram/HistogramComputeReplicated.h"
#include "post/histogram/HistogramComputeSharedAtomic.h"
#include "post/histogram/HistogramComputeSharedAtomicLinear.h"
#include "post/histogram/HistogramComputeSubgroup.h"
#include "post/histogram/HistogramFusedLighting.h"
#include "post/histogram/HistogramRegistry.h"

namespace post {

void appendComputeHistogramMethods(std::vector<HistogramMethodEntry>& list)
{
    list.push_back(histogramEntry<HistogramComputeSharedAtomic>());
    list.push_back(histogramEntry<HistogramComputeSharedAtomicLinear>());
    list.push_back(histogramEntry<HistogramComputeGlobalAtomic>());
    list.push_back(histogramEntry<HistogramComputeReplicated>());
    list.push_back(histogramEntry<HistogramComputeSubgroup>());
    list.push_back(histogramEntry<HistogramFusedLighting>());
}

}  // namespace post
