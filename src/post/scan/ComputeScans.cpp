// ComputeScans.cpp: the GL compute scan methods, in display order (one line each).
#include "post/scan/ScanComputeWorkgroup.h"
#include "post/scan/ScanRegistry.h"

namespace post {

void appendComputeScanMethods(std::vector<ScanMethodEntry>& list)
{
    list.push_back(scanEntry<ScanComputeWorkgroup>());
}

}  // namespace post
