#include "post/scan/ScanComputeBrentKung.h"

namespace post {

std::string_view ScanComputeBrentKung::description() const
{
    return "GL compute, Brent-Kung (Bugetti): 1024 elements per workgroup go up a reduction tree and down a "
           "distribution tree, inclusive directly in 2(n-1) - log n adds and 2 log n barriers; longer inputs scan "
           "the block totals and add them back.";
}

}  // namespace post
