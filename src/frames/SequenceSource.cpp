#include "frames/SequenceSource.h"

#include "frames/StillImageSource.h"
#include "profiling/Profiler.h"
#include "util/Log.h"

#include <GLFW/glfw3.h>

#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace app {
namespace fs = std::filesystem;

namespace {

/// The folder's, glob's or pattern's own name ("shot.%04d.exr", "shots" for "shots/").
std::string sequenceName(const std::string& source)
{
    fs::path path(source);
    if (path.filename().empty())
        path = path.parent_path();
    const std::string name = path.filename().string();
    return name.empty() ? source : name;
}

std::string fixed(double value, int decimals)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.*f", decimals, value);
    return text;
}

}  // namespace

std::optional<std::string> frameMismatch(const DecodedFrame& frame,
                                         glm::ivec2 referenceSize,
                                         const std::string& referenceLayout,
                                         const fs::path& path)
{
    if (frame.image.width != referenceSize.x || frame.image.height != referenceSize.y)
        return util::format("'{}' is {} x {} pixels; the sequence's frames are {} x {}", path.string(),
                            frame.image.width, frame.image.height, referenceSize.x, referenceSize.y);
    if (frame.layout != referenceLayout)
        return util::format("'{}' has the channels {}; the sequence's frames have {}", path.string(),
                            frame.layout.empty() ? std::string("(unknown)") : frame.layout,
                            referenceLayout.empty() ? std::string("(unknown)") : referenceLayout);
    return std::nullopt;
}

SequenceSource::SequenceSource(FrameSequence sequence,
                               const SequenceOptions& options,
                               int maxTextureSize,
                               FrameDecoder decode)
    : mSequence(std::move(sequence)), mOptions(options), mName(sequenceName(mSequence.source))
{
    if (!(mOptions.fps >= kMinSequenceFps) || mOptions.fps > kMaxSequenceFps)
        throw std::runtime_error(
            util::format("--fps {} is outside {}..{}", mOptions.fps, kMinSequenceFps, kMaxSequenceFps));
    if (mSequence.frames.empty())
        throw std::runtime_error(util::format("sequence '{}' has no frames", mSequence.source));
    mDecoder = std::make_unique<SequenceDecoder>(mSequence.frames, decode ? decode : fileFrameDecoder(mOptions.exrPart),
                                                 mOptions.loop);
    mPending = nextShowableFrame();
    if (!mPending)
        throw std::runtime_error(!mStopReason.empty() ? mStopReason
                                                      : util::format("sequence '{}': no frame can be shown ({})",
                                                                     mSequence.source, mLastProblem));
    const image::ImageF& first = mPending->image;
    checkImageFitsTexture(first, maxTextureSize, mSequence.frames[mPending->index].path.string());
    mReferenceLayout = mPending->layout;
    mTexture = gl::Texture("sequence.frame", GL_RGBA32F, {first.width, first.height});
    mTexture.upload(GL_RGBA, GL_FLOAT, first.pixels.data());
    mUploadedPosition = mPending->position;
    mRadiance = first.radiance;
}

std::string SequenceSource::problemOf(const DecodedFrame& frame) const
{
    if (!frame.ok())
        return frame.error;
    if (!mTexture.valid())
        return {};  // the first frame sets the reference
    return frameMismatch(frame, mTexture.size(), mReferenceLayout, mSequence.frames[frame.index].path).value_or("");
}

std::string SequenceSource::describeBadFrame(const DecodedFrame& frame, const std::string& problem) const
{
    const SequenceFrame& entry = mSequence.frames[frame.index];
    const std::string which = entry.number ? std::to_string(*entry.number)
                                           : util::format("{} of {}", frame.index + 1, mSequence.frames.size());
    return util::format("sequence '{}', frame {}: {}", mName, which, problem);
}

std::optional<DecodedFrame> SequenceSource::nextShowableFrame()
{
    for (std::size_t badInARow = 0;;) {
        std::optional<DecodedFrame> frame = mDecoder->take();
        if (!frame)
            return std::nullopt;
        const std::string problem = problemOf(*frame);
        if (problem.empty())
            return frame;
        mLastProblem = describeBadFrame(*frame, problem);
        if (mOptions.onBadFrame == BadFramePolicy::Stop) {
            mStopReason = mLastProblem + " (--on-bad-frame skip plays on without it)";
            return std::nullopt;
        }
        if (mReported.insert(frame->index).second)
            util::logWarning("skipping {}", mLastProblem);
        if (++badInARow >= mSequence.frames.size()) {  // looping over nothing but bad frames
            mStopReason = util::format("sequence '{}': no frame can be shown ({})", mSequence.source, mLastProblem);
            return std::nullopt;
        }
    }
}

bool SequenceSource::hasNextFrame()
{
    if (mPending)
        return true;
    if (mEnded || !mStopReason.empty())
        return false;
    mPending = nextShowableFrame();
    mEnded = !mPending;
    return mPending.has_value();
}

void SequenceSource::update(const FrameSourceInput& input)
{
    mControls.update(input, size());
    if (input.window) {
        updateWindow(input);
        return;
    }
    if (!mPending && !hasNextFrame())
        return;  // past the end (a caller rendering more frames than there are): the last one stays
    mCurrent = std::move(mPending);
    mPending.reset();
}

void SequenceSource::updateWindow(const FrameSourceInput& input)
{
    if (mPending) {  // the first frame, taken by the constructor
        mPlayhead = double(mPending->position);
        mCurrent = std::move(mPending);
        mPending.reset();
    }
    // Key events, not the keys' state: a tap between two slow frames still counts (and is counted
    // once per press).
    for (int key : input.keysPressed) {
        if (key == GLFW_KEY_SPACE)
            mPlaying = !mPlaying;
        else if (key == GLFW_KEY_RIGHT)
            stepBy(1);
        else if (key == GLFW_KEY_LEFT)
            stepBy(-1);
        else if (key == GLFW_KEY_HOME)
            seekTo(0);
    }

    if (mPlaying)
        mPlayhead += input.dt * mOptions.fps;
    const double last = double(mSequence.frames.size() - 1);
    if (!mOptions.loop && mPlayhead >= last + 1.0) {
        mPlayhead = last;
        mPlaying = false;
    }
    catchUp(std::uint64_t(mPlayhead));
}

void SequenceSource::catchUp(std::uint64_t position)
{
    std::optional<DecodedFrame> newest;
    while (std::optional<DecodedFrame> frame = mDecoder->tryTake(position)) {
        if (mCatchUpTarget && frame->position >= *mCatchUpTarget)
            mCatchUpTarget.reset();  // the decoder has caught up
        const std::string problem = problemOf(*frame);
        if (problem.empty()) {
            if (newest)
                ++mPassedOver;  // its time passed before this window frame
            newest = std::move(frame);
            continue;
        }
        if (!mReported.insert(frame->index).second)
            continue;  // reported before: left out quietly
        mLastProblem = describeBadFrame(*frame, problem);
        if (mOptions.onBadFrame == BadFramePolicy::Stop) {
            util::logError("{}; paused (Space plays on without it)", mLastProblem);
            mPlaying = false;
            mPlayhead = double(frame->position);
            break;
        }
        util::logWarning("skipping {}", mLastProblem);
    }
    if (newest)
        mCurrent = std::move(newest);
    // Far behind (a slow disk, a large frame): restart the decoder at the playhead instead of decoding
    // frames whose time has passed; not again before that frame came, so every restart shows one.
    if (!mCatchUpTarget && !mDecoder->hasQueued() &&
        position > mDecoder->nextPosition() + SequenceDecoder::kDefaultDepth) {
        mDecoder->seek(position);
        mCatchUpTarget = position;
    }
}

void SequenceSource::stepBy(int frames)
{
    mPlaying = false;
    const std::uint64_t count = mSequence.frames.size();
    const std::uint64_t at = std::uint64_t(mPlayhead);
    if (frames > 0) {
        if (!mOptions.loop && at + 1 >= count)
            return;
        mPlayhead = double(at + 1);
        return;  // the decoder is already ahead
    }
    if (at == 0 && !mOptions.loop)
        return;
    seekTo(at == 0 ? count - 1 : at - 1);
}

void SequenceSource::seekTo(std::uint64_t position)
{
    mDecoder->seek(position);
    mCatchUpTarget.reset();
    mPlayhead = double(position);
}

void SequenceSource::render(profiling::Profiler& profiler)
{
    if (!mCurrent || mCurrent->image.empty())
        return;
    if (mUploadedPosition != mCurrent->position) {
        auto scope = profiler.scope("sequence/upload");
        mTexture.upload(GL_RGBA, GL_FLOAT, mCurrent->image.pixels.data());
        mUploadedPosition = mCurrent->position;
        mRadiance = mCurrent->image.radiance;
    }
    mCurrent->image = {};  // the texture holds its pixels now
}

std::optional<long long> SequenceSource::frameNumber() const
{
    if (!mCurrent)
        return std::nullopt;
    return mSequence.frames[mCurrent->index].number.value_or((long long)mCurrent->index);
}

std::string SequenceSource::description() const
{
    const std::size_t files = mSequence.fileCount();
    std::string text =
        util::format("{} frames at {} fps ({} s)", files, mOptions.fps, fixed(double(files) / mOptions.fps, 2));
    const long long missing = mSequence.missingCount();
    if (missing > 0)
        text += util::format(", {} missing (gaps in the numbering)", missing);
    if (!mReported.empty())
        text += util::format(", {} bad frames left out", mReported.size());
    return text;
}

std::string SequenceSource::hint(bool isWindow, double) const
{
    const std::size_t index = mCurrent ? mCurrent->index : mPending ? mPending->index : 0;
    std::string text = util::format("frame {}/{} {}, {} fps, ", index + 1, mSequence.frames.size(),
                                    mSequence.frames[index].path.filename().string(), mOptions.fps);
    if (!isWindow)
        return text + util::format("{} x {} px", size().x, size().y);
    text += (mPlaying ? "playing, " : "paused, ") + mControls.describe(size());
    if (mPassedOver > 0)
        text += util::format(", {} frames passed over", mPassedOver);
    return text;
}

std::string SequenceSource::controlsHelp() const
{
    return "Space plays or pauses, Right/Left step one frame (pausing), Home goes to the first frame. " +
           std::string(ImageViewControls::kHelp) +
           ", Tab hides the panels, F1 lists the keys. Playback runs in real time at the sequence's --fps and loops; "
           "frames are "
           "decoded "
           "ahead on a worker thread and uploaded to an RGBA32F texture at the frames' own size.";
}

BlitRects SequenceSource::placement(glm::ivec2 viewportSize) const
{
    return mControls.placement(viewportSize, size());
}

}  // namespace app
