#include "post/histogram/HistogramRegistry.h"

namespace post {

namespace {

std::uint64_t registryVersion = 0;

std::vector<HistogramMethodEntry>& entries()
{
    static std::vector<HistogramMethodEntry> table = [] {
        std::vector<HistogramMethodEntry> list;
        appendComputeHistogramMethods(list);
        appendPaperHistogramMethods(list);
        appendCudaHistogramMethods(list);
        return list;
    }();
    return table;
}

}  // namespace

const std::vector<HistogramMethodEntry>& histogramMethodRegistry()
{
    return entries();
}

std::uint64_t histogramMethodRegistryVersion()
{
    return registryVersion;
}

void registerHistogramMethod(HistogramMethodEntry entry)
{
    ++registryVersion;
    for (HistogramMethodEntry& existing : entries())
        if (existing.id == entry.id) {
            existing = std::move(entry);
            return;
        }
    entries().push_back(std::move(entry));
}

std::unique_ptr<HistogramMethod> createHistogramMethod(std::string_view id)
{
    for (const HistogramMethodEntry& entry : histogramMethodRegistry())
        if (entry.id == id)
            return entry.create();
    return nullptr;
}

}  // namespace post
