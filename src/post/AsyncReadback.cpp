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

AsyncReadback::~AsyncReadback() = default;

int AsyncReadback::pending() const
{
    return int(std::count_if(mSlots.begin(), mSlots.end(), [](const Slot& slot) { return slot.fence.pending(); }));
}

bool AsyncReadback::enqueue(const gl::Buffer& source,
                            std::size_t words,
                            std::uint64_t frame,
                            const std::array<std::uint32_t, 4>& tag)
{
    return enqueue({Copy{source, words, 0}}, frame, tag);
}

bool AsyncReadback::enqueue(std::initializer_list<Copy> copies,
                            std::uint64_t frame,
                            const std::array<std::uint32_t, 4>& tag)
{
    auto free = std::find_if(mSlots.begin(), mSlots.end(), [](const Slot& slot) { return !slot.fence.pending(); });
    if (free == mSlots.end())
        return false;
    Slot& slot = *free;
    slot.words = 0;
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    for (const Copy& copy : copies) {
        const std::size_t sourceWords = copy.source.size() / sizeof(std::uint32_t);
        if (copy.at >= mSlotWords || copy.from >= sourceWords)
            continue;
        const std::size_t words = std::min({copy.words, mSlotWords - copy.at, sourceWords - copy.from});
        if (words != 0)
            copy.source.copyTo(slot.buffer, copy.from * sizeof(std::uint32_t), copy.at * sizeof(std::uint32_t),
                               words * sizeof(std::uint32_t));
        slot.words = std::max(slot.words, copy.at + words);
    }
    slot.fence = gl::Fence::insert();
    slot.frame = frame;
    slot.sequence = ++mSequence;
    slot.tag = tag;
    return true;
}

std::optional<AsyncReadback::Result> AsyncReadback::poll()
{
    Slot* newest = nullptr;
    for (Slot& slot : mSlots) {
        if (!slot.fence.signalled())
            continue;
        slot.fence.reset();
        if (!newest || slot.sequence > newest->sequence)
            newest = &slot;
    }
    if (!newest)
        return std::nullopt;
    return read(*newest);
}

std::vector<AsyncReadback::Result> AsyncReadback::pollAll()
{
    std::vector<Slot*> done;
    for (Slot& slot : mSlots)
        if (slot.fence.pending() && slot.fence.signalled())
            done.push_back(&slot);
    std::sort(done.begin(), done.end(), [](const Slot* a, const Slot* b) { return a->sequence < b->sequence; });
    std::vector<Result> results;
    for (Slot* slot : done) {
        slot->fence.reset();
        results.push_back(read(*slot));
    }
    return results;
}

AsyncReadback::Result AsyncReadback::read(Slot& slot)
{
    Result result;
    result.frame = slot.frame;
    result.tag = slot.tag;
    result.words.resize(slot.words);
    // The fence has signalled: this read does not wait for the GPU.
    if (slot.words != 0)
        slot.buffer.read(0, slot.words * sizeof(std::uint32_t), result.words.data());
    return result;
}

}  // namespace post
