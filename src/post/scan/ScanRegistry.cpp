#include "post/scan/ScanRegistry.h"

namespace post {

const std::vector<ScanMethodEntry>& scanMethodRegistry()
{
    static const std::vector<ScanMethodEntry> entries = [] {
        std::vector<ScanMethodEntry> list;
        appendComputeScanMethods(list);
        appendCudaScanMethods(list);
        return list;
    }();
    return entries;
}

std::unique_ptr<ScanMethod> createScanMethod(std::string_view id)
{
    for (const ScanMethodEntry& entry : scanMethodRegistry())
        if (entry.id == id)
            return entry.create();
    return nullptr;
}

}  // namespace post
