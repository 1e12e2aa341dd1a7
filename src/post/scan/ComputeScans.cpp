// ComputeScans.cpp: the GL scan methods (compute shaders, and Hensley's render passes), in display
// order (one line each).
#include "post/scan/ScanComputeBlelloch.h"
#include "post/scan/ScanComputeBrentKung.h"
#include "post/scan/ScanComputeWorkgroup.h"
#include "post/scan/ScanHensleySat.h"
#include "post/scan/ScanInCurve.h"
#include "post/scan/ScanRegistry.h"

namespace post {

void appendComputeScanMethods(std::vector<ScanMethodEntry>& list)
{
    list.push_back(scanEntry<ScanInCurve>());
    list.push_back(scanEntry<ScanComputeWorkgroup>());
    list.push_back(scanEntry<ScanComputeBlelloch>());
    list.push_back(scanEntry<ScanComputeBrentKung>());
    list.push_back(scanEntry<ScanHensleySat>());
}

}  // namespace post
