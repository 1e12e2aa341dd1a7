// ScanRegistry.h: the groups of scan methods (GL compute, CUDA), concatenated in ScanRegistry.cpp.
#pragma once

#include "post/scan/ScanMethod.h"

namespace post {

template <typename Method>
ScanMethodEntry scanEntry()
{
    return {Method::kId, [] { return std::unique_ptr<ScanMethod>(std::make_unique<Method>()); }};
}

void appendComputeScanMethods(std::vector<ScanMethodEntry>& list);  ///< GL compute shaders
void appendCudaScanMethods(std::vector<ScanMethodEntry>& list);     ///< CUDA (or "unavailable" entries)

}  // namespace post
