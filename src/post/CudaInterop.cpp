#include "post/CudaInterop.h"

namespace post {

std::string mapUnmapStatus(const std::string& why)
{
    return "map/unmap per pass (synchronises CUDA with earlier GL work): " + why;
}

}  // namespace post
