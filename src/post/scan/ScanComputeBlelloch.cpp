#include "post/scan/ScanComputeBlelloch.h"

namespace post {

std::string_view ScanComputeBlelloch::description() const
{
    return "GL compute, Blelloch's work-efficient scan (Harris et al.; Bilgic et al.): 1024 elements per workgroup "
           "go up a reduction tree and down a swap-and-add tree (exclusive, 2(n-1) adds, bank-conflict padding), "
           "plus each element's own value; longer inputs scan the block totals and add them back.";
}

}  // namespace post
