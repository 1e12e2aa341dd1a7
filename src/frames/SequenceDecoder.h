// SequenceDecoder.h: decodes a sequence's frames ahead of playback on one worker thread, so that the
// frame loop only uploads (SequenceSource.h) and never waits for a file to decode while the next
// frame is already there.
//
// Technique: a bounded producer/consumer queue (std::thread, one mutex, two condition variables).
// The worker decodes playback positions in order from a start position (position p is frame
// p mod count when looping, else p up to the last frame) and waits while `depth` decoded frames
// are queued; the loop takes them in order, without waiting (tryTake, a window's real-time
// playback) or waiting (take, headless runs: deterministic). seek() drops the queue and restarts
// the worker at another position (a step back, a jump); a frame decoded for the old position is
// dropped. Every failure of a frame (missing, damaged, an exception of any kind, out of memory)
// becomes that frame's error message; the worker never throws, and the destructor stops and joins
// it. No GL here: the images are handed over as CPU memory, rows already flipped to GL's
// bottom-up order. Limits: one frame decodes at a time; memory is up to depth + 1 decoded frames
// (16 bytes a pixel each: 33 MB at 1920x1080).
#pragma once

#include "frames/FrameSequence.h"
#include "image/Image.h"

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace app {

struct DecodedFrame
{
    std::uint64_t position = 0;  ///< playback position it was decoded for
    std::size_t index = 0;       ///< into the sequence's frames
    image::ImageF image;         ///< RGBA float, rows bottom-up (GL order); empty when `error` is set
    std::string layout;          ///< the file's channel layout (image/ImageLayout.h), to compare frames
    std::string error;           ///< why the frame cannot be shown (one line naming the file); empty if it can

    bool ok() const { return error.empty(); }
};

/// Decodes one frame; may throw (the worker turns any exception into the frame's error).
using FrameDecoder = std::function<DecodedFrame(const SequenceFrame& frame)>;
/// The decoder of real files (image::loadHdrImage, then the layout; a gap is an error naming the
/// missing file): `exrPart` picks each OpenEXR frame's part, view or layer.
FrameDecoder fileFrameDecoder(std::string exrPart);

class SequenceDecoder
{
public:
    static constexpr std::size_t kDefaultDepth = 3;

    /// Starts the worker at position 0. `loop`: after the last frame comes the first again.
    SequenceDecoder(std::vector<SequenceFrame> frames,
                    FrameDecoder decode,
                    bool loop,
                    std::size_t depth = kDefaultDepth);
    ~SequenceDecoder();
    SequenceDecoder(const SequenceDecoder&) = delete;
    SequenceDecoder& operator=(const SequenceDecoder&) = delete;

    /// Drops what is queued and decodes from `position` on.
    void seek(std::uint64_t position);
    /// The next frame in order if it is decoded and its position is at most `upTo`; never waits.
    std::optional<DecodedFrame> tryTake(std::uint64_t upTo = UINT64_MAX);
    /// The next frame in order, waiting for it; nullopt after the last frame (without looping).
    std::optional<DecodedFrame> take();

    /// Whether a decoded frame is waiting to be taken.
    bool hasQueued();
    /// The position the worker decodes next (after the one it may be decoding now).
    std::uint64_t nextPosition();

    std::size_t frameCount() const { return mFrames.size(); }
    bool loops() const { return mLoop; }
    /// The frame index of a playback position.
    std::size_t indexOf(std::uint64_t position) const;

private:
    void run();
    bool pastEnd(std::uint64_t position) const { return mFrames.empty() || (!mLoop && position >= mFrames.size()); }
    DecodedFrame decodeAt(std::uint64_t position) const;

    const std::vector<SequenceFrame> mFrames;
    const FrameDecoder mDecode;
    const bool mLoop;
    const std::size_t mDepth;

    std::mutex mMutex;
    std::condition_variable mWorkerWake;  ///< room in the queue, a seek, or stop
    std::condition_variable mFrameReady;  ///< a frame was queued, or the worker reached the end
    std::deque<DecodedFrame> mQueue;
    std::uint64_t mNextPosition = 0;  ///< what the worker decodes next
    std::uint64_t mGeneration = 0;    ///< bumped by seek(): a frame decoded for an older one is dropped
    bool mDecoding = false;           ///< a frame is being decoded outside the lock
    bool mStop = false;
    std::thread mWorker;  ///< last: starts after every member it reads is constructed
};

}  // namespace app
