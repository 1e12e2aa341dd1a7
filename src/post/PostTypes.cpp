#include "post/PostTypes.h"

namespace post {

std::string_view toString(Backend backend)
{
    switch (backend) {
        case Backend::OpenGL:
            return "OpenGL";
        case Backend::Cuda:
            return "CUDA";
        case Backend::Cpu:
            return "CPU";
    }
    return "?";
}

}  // namespace post
