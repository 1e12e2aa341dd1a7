// PaperMethods.cpp: the seed papers' GL histogram methods, in display order (one line each):
// the CPU baseline, Green 2005 (+ Valve 2006), Kubias 2007, Fluck 2006, Scheuermann & Hensley 2007.
#include "post/histogram/HistogramCpuReadback.h"
#include "post/histogram/HistogramFluckTiles.h"
#include "post/histogram/HistogramGreenOcclusion.h"
#include "post/histogram/HistogramKubiasDepth.h"
#include "post/histogram/HistogramRegistry.h"
#include "post/histogram/HistogramScatterBlend.h"

namespace post {

void appendPaperHistogramMethods(std::vector<HistogramMethodEntry>& list)
{
    list.push_back(histogramEntry<HistogramCpuReadback>());
    list.push_back(histogramEntry<HistogramGreenOcclusion>());
    list.push_back(histogramEntry<HistogramKubiasDepth>());
    list.push_back(histogramEntry<HistogramFluckTiles>());
    list.push_back(histogramEntry<HistogramScatterBlend>());
}

}  // namespace post
