#include "gl/FramePacer.h"

namespace gl {

void FramePacer::beginFrame()
{
    Fence& oldest = mFences[std::size_t(mNext)];
    if (!oldest.pending())
        return;
    oldest.waitFlushing();
    oldest.reset();
}

void FramePacer::endFrame()
{
    mFences[std::size_t(mNext)] = Fence::insert();
    mNext = (mNext + 1) % kFramesInFlight;
}

}  // namespace gl
