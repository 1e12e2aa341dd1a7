#include "post/AsyncReadback.h"

#include <algorithm>
#include <string>

namespace post {

AsyncReadback::AsyncReadback(std::string_view label, std::size_t words) : mSlotWords(std::max<std::size_t>(words, 1))
{
    for (int i = 0; i < kRingSize; ++i)
        mSlots[std::size_t(i)].buffer =
            gl::Buffer(std::string(label) + "." + std::to_string(i), mSlotWords * sizeof(std::uint32_t));
}

AsyncReadback::~AsyncReadback()
{
    for (Slot& slot : mSlots)
        if (slot.fence)
            glDeleteSync(slot.fence);
}

int AsyncReadback::pending() const
{
    return int(std::count_if(mSlots.begin(), mSlots.end(), [](const Slot& slot) { return slot.fence != nullptr; }));
}

bool AsyncReadback::enqueue(const gl::Buffer& source,
                            std::size_t words,
                            std::uint64_t frame,
                            const std::array<std::uint32_t, 4>& tag)
{
    auto free = std::find_if(mSlots.begin(), mSlots.end(), [](const Slot& slot) { return slot.fence == nullptr; });
    if (free == mSlots.end())
        return false;
    Slot& slot = *free;
    slot.words = std::min({words, mSlotWords, source.size() / sizeof(std::uint32_t)});
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    if (slot.words != 0)
        source.copyTo(slot.buffer, 0, 0, slot.words * sizeof(std::uint32_t));
    slot.fence = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    slot.frame = frame;
    slot.sequence = ++mSequence;
    slot.tag = tag;
    return true;
}

std::optional<AsyncReadback::Result> AsyncReadback::poll()
{
    Slot* newest = nullptr;
    for (Slot& slot : mSlots) {
        if (!slot.fence)
            continue;
        GLenum state = glClientWaitSync(slot.fence, 0, 0);  // timeout 0: only asks
        if (state != GL_ALREADY_SIGNALED && state != GL_CONDITION_SATISFIED)
            continue;
        glDeleteSync(slot.fence);
        slot.fence = nullptr;
        if (!newest || slot.sequence > newest->sequence)
            newest = &slot;
    }
    if (!newest)
        return std::nullopt;
    Result result;
    result.frame = newest->frame;
    result.tag = newest->tag;
    result.words.resize(newest->words);
    // The fence has signalled: this read does not wait for the GPU.
    if (newest->words != 0)
        newest->buffer.read(0, newest->words * sizeof(std::uint32_t), result.words.data());
    return result;
}

}  // namespace post
