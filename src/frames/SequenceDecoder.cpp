#include "frames/SequenceDecoder.h"

#include "image/ImageIo.h"
#include "image/ImageLayout.h"
#include "util/Log.h"

#include <algorithm>
#include <cstring>
#include <exception>
#include <new>

namespace app {

namespace {

/// "'shot.0004.exr' is missing (a gap in the numbering: frame 4)" or "... frames 4 to 6 ...".
std::string describeGap(const SequenceFrame& frame)
{
    const long long first = frame.number.value_or(0);
    const std::string which = frame.missingFrames == 1
                                  ? util::format("frame {}", first)
                                  : util::format("{} frames from {} on", frame.missingFrames, first);
    return util::format("'{}' is missing (a gap in the numbering: {})", frame.path.string(), which);
}

void flipRowsInPlace(image::ImageF& image)
{
    const std::size_t row = std::size_t(image.width) * image::ImageF::kChannels;
    std::vector<float> swap(row);
    for (int top = 0, bottom = image.height - 1; top < bottom; ++top, --bottom) {
        std::memcpy(swap.data(), image.at(0, top), row * sizeof(float));
        std::memcpy(image.at(0, top), image.at(0, bottom), row * sizeof(float));
        std::memcpy(image.at(0, bottom), swap.data(), row * sizeof(float));
    }
}

}  // namespace

FrameDecoder fileFrameDecoder(std::string exrPart)
{
    return [exrPart = std::move(exrPart)](const SequenceFrame& frame) {
        DecodedFrame decoded;
        if (frame.missing()) {
            decoded.error = describeGap(frame);
            return decoded;
        }
        decoded.image = image::loadHdrImage(frame.path, exrPart);
        decoded.layout = image::describeImageLayout(frame.path);
        flipRowsInPlace(decoded.image);
        return decoded;
    };
}

SequenceDecoder::SequenceDecoder(std::vector<SequenceFrame> frames, FrameDecoder decode, bool loop, std::size_t depth)
    : mFrames(std::move(frames)), mDecode(std::move(decode)), mLoop(loop), mDepth(std::max<std::size_t>(depth, 1))
{
    mWorker = std::thread([this] { run(); });
}

SequenceDecoder::~SequenceDecoder()
{
    {
        std::lock_guard lock(mMutex);
        mStop = true;
    }
    mWorkerWake.notify_all();
    mWorker.join();
}

std::size_t SequenceDecoder::indexOf(std::uint64_t position) const
{
    return mFrames.empty() ? 0 : std::size_t(position % mFrames.size());
}

void SequenceDecoder::seek(std::uint64_t position)
{
    {
        std::lock_guard lock(mMutex);
        mQueue.clear();
        mNextPosition = position;
        ++mGeneration;
    }
    mWorkerWake.notify_all();
}

bool SequenceDecoder::hasQueued()
{
    std::lock_guard lock(mMutex);
    return !mQueue.empty();
}

std::uint64_t SequenceDecoder::nextPosition()
{
    std::lock_guard lock(mMutex);
    return mNextPosition;
}

std::optional<DecodedFrame> SequenceDecoder::tryTake(std::uint64_t upTo)
{
    std::optional<DecodedFrame> frame;
    {
        std::lock_guard lock(mMutex);
        if (mQueue.empty() || mQueue.front().position > upTo)
            return std::nullopt;
        frame = std::move(mQueue.front());
        mQueue.pop_front();
    }
    mWorkerWake.notify_all();
    return frame;
}

std::optional<DecodedFrame> SequenceDecoder::take()
{
    std::optional<DecodedFrame> frame;
    {
        std::unique_lock lock(mMutex);
        mFrameReady.wait(lock, [&] { return !mQueue.empty() || (pastEnd(mNextPosition) && !mDecoding); });
        if (mQueue.empty())
            return std::nullopt;
        frame = std::move(mQueue.front());
        mQueue.pop_front();
    }
    mWorkerWake.notify_all();
    return frame;
}

DecodedFrame SequenceDecoder::decodeAt(std::uint64_t position) const
{
    const std::size_t index = indexOf(position);
    DecodedFrame decoded;
    try {
        decoded = mDecode(mFrames[index]);
    } catch (const std::bad_alloc&) {
        decoded = {};
        decoded.error = util::format("'{}': out of memory while decoding", mFrames[index].path.string());
    } catch (const std::exception& error) {
        decoded = {};
        decoded.error = error.what();
    } catch (...) {
        decoded = {};
        decoded.error = util::format("'{}': unknown error while decoding", mFrames[index].path.string());
    }
    if (!decoded.ok())
        decoded.image = {};
    decoded.position = position;
    decoded.index = index;
    return decoded;
}

void SequenceDecoder::run()
{
    std::unique_lock lock(mMutex);
    while (true) {
        mWorkerWake.wait(lock, [&] { return mStop || (mQueue.size() < mDepth && !pastEnd(mNextPosition)); });
        if (mStop)
            return;
        const std::uint64_t position = mNextPosition++;
        const std::uint64_t generation = mGeneration;
        mDecoding = true;
        lock.unlock();
        DecodedFrame decoded = decodeAt(position);
        lock.lock();
        mDecoding = false;
        if (generation == mGeneration)
            mQueue.push_back(std::move(decoded));
        mFrameReady.notify_all();
    }
}

}  // namespace app
