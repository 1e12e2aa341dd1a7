#include "post/histogram/HistogramRegistry.h"

namespace post {

const std::vector<HistogramMethodEntry>& histogramMethodRegistry()
{
    static const std::vector<HistogramMethodEntry> entries = [] {
        std::vector<HistogramMethodEntry> list;
        appendComputeHistogramMethods(list);
        appendPaperHistogramMethods(list);
        appendCudaHistogramMethods(list);
        return list;
    }();
    return entries;
}

std::unique_ptr<HistogramMethod> createHistogramMethod(std::string_view id)
{
    for (const HistogramMethodEntry& entry : histogramMethodRegistry())
        if (entry.id == id)
            return entry.create();
    return nullptr;
}

}  // namespace post
