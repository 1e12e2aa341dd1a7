#include "gl/Fence.h"

namespace gl {

Fence& Fence::operator=(Fence&& other) noexcept
{
    if (this != &other) {
        reset();
        mSync = other.mSync;
        other.mSync = nullptr;
    }
    return *this;
}

Fence Fence::insert()
{
    Fence fence;
    fence.mSync = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    return fence;
}

bool Fence::signalled() const
{
    if (mSync == nullptr)
        return false;
    const GLenum state = glClientWaitSync(mSync, 0, 0);  // timeout 0: only asks
    return state == GL_ALREADY_SIGNALED || state == GL_CONDITION_SATISFIED;
}

bool Fence::waitFlushing() const
{
    if (mSync == nullptr)
        return false;
    constexpr GLuint64 kWaitStepNs = 1000000000ull;  // a step, repeated while the GPU is still busy
    GLenum state = GL_TIMEOUT_EXPIRED;
    while (state == GL_TIMEOUT_EXPIRED)
        state = glClientWaitSync(mSync, GL_SYNC_FLUSH_COMMANDS_BIT, kWaitStepNs);
    return state == GL_ALREADY_SIGNALED || state == GL_CONDITION_SATISFIED;
}

void Fence::reset()
{
    if (mSync != nullptr)
        glDeleteSync(mSync);
    mSync = nullptr;
}

}  // namespace gl
