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

GpuCaps queryGpuCaps(const gl::GlInfo& info)
{
    GpuCaps caps;
    caps.gl = info;
    caps.glTimersUseful = !info.isSoftwareRenderer();
    GLint value = 0;
    glGetIntegerv(GL_MAX_COMPUTE_SHARED_MEMORY_SIZE, &value);
    caps.maxComputeSharedBytes = value;
    glGetIntegerv(GL_MAX_TEXTURE_SIZE, &value);
    caps.maxTextureSize = value;
    caps.cudaAvailable = false;
    caps.cudaReason = "CUDA not probed for this context";
    return caps;
}

}  // namespace post
