// AsyncReadback.h: a ring of GPU-side copies of small buffers, read back frames later without ever
// waiting (the pixel probe's records; HistogramReadback packs the histogram view's buffers into one
// slot).
//
// enqueue() copies the sources into a free slot (glCopyNamedBufferSubData) and puts a fence behind
// it; poll() asks each slot's fence with a zero timeout (glClientWaitSync(fence, 0, 0)) and reads
// back only the slots whose fence has signalled, returning the newest. When every slot is still in
// flight, enqueue() skips the frame instead of waiting. Limits: kRingSize slots of one fixed size.
#pragma once

#include "gl/Buffer.h"
#include "gl/Fence.h"
#include "gl/Gl.h"

#include <array>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string_view>
#include <vector>

namespace post {

class AsyncReadback
{
public:
    static constexpr int kRingSize = 4;

    /// What a completed copy holds: the words, the frame and the caller's tag given at enqueue().
    struct Result
    {
        std::uint64_t frame = 0;
        std::array<std::uint32_t, 4> tag{};
        std::vector<std::uint32_t> words;
    };

    AsyncReadback(std::string_view label, std::size_t words);
    ~AsyncReadback();
    AsyncReadback(const AsyncReadback&) = delete;
    AsyncReadback& operator=(const AsyncReadback&) = delete;

    /// One source range of a slot: `words` words of `source` from word `from`, placed at word `at`.
    struct Copy
    {
        const gl::Buffer& source;
        std::size_t words = 0;
        std::size_t at = 0;
        std::size_t from = 0;  ///< the first word read from `source`
    };

    /// Queues a GPU copy of the first `words` words of `source` (at most the slot size); returns
    /// false, copying nothing, when every slot is still in flight.
    bool enqueue(const gl::Buffer& source,
                 std::size_t words,
                 std::uint64_t frame,
                 const std::array<std::uint32_t, 4>& tag = {});
    /// The same for several ranges into one slot (each clipped to its source and the slot); the
    /// result holds the slot's words up to the end of the last range.
    bool enqueue(std::initializer_list<Copy> copies, std::uint64_t frame, const std::array<std::uint32_t, 4>& tag = {});
    /// The newest copy that has completed since the last call, if any; never waits.
    std::optional<Result> poll();
    /// Every copy that has completed since the last call, oldest first (where each frame counts);
    /// never waits.
    std::vector<Result> pollAll();
    /// Copies queued and not read yet.
    int pending() const;

private:
    struct Slot
    {
        gl::Buffer buffer;
        gl::Fence fence;
        std::uint64_t frame = 0;
        std::uint64_t sequence = 0;
        std::size_t words = 0;
        std::array<std::uint32_t, 4> tag{};
    };
    Result read(Slot& slot);

    std::array<Slot, kRingSize> mSlots;
    std::size_t mSlotWords = 0;
    std::uint64_t mSequence = 0;
};

}  // namespace post
