#include "gl/FramePacer.h"

namespace gl {
namespace {
constexpr GLuint64 kWaitSliceNs = 100'000'000;  // 0.1 s per wait call; the loop keeps waiting
}

FramePacer::~FramePacer()
{
    for (GLsync& fence : mFences)
        if (fence)
            glDeleteSync(fence);
}

void FramePacer::beginFrame()
{
    GLsync& oldest = mFences[std::size_t(mNext)];
    if (!oldest)
        return;
    GLenum status = GL_TIMEOUT_EXPIRED;
    while (status == GL_TIMEOUT_EXPIRED)
        status = glClientWaitSync(oldest, GL_SYNC_FLUSH_COMMANDS_BIT, kWaitSliceNs);
    glDeleteSync(oldest);
    oldest = nullptr;
}

void FramePacer::endFrame()
{
    GLsync& slot = mFences[std::size_t(mNext)];
    if (slot)
        glDeleteSync(slot);
    slot = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    mNext = (mNext + 1) % kFramesInFlight;
}

}  // namespace gl
