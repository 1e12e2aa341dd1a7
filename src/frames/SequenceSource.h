// SequenceSource.h: the frame source of `hdrlab view SEQUENCE` and `tonemap` on a sequence: a
// folder, glob or %d pattern of HDR frames (FrameSequence.h) played at --fps, so the tone operator
// adapts frame by frame as it does on the live scene.
//
// Frames are decoded ahead on a worker thread (SequenceDecoder.h); this source only uploads each new
// frame, on the GL thread, into one RGBA32F texture at the sequence's size (timed as
// "sequence/upload"; RGBA32F as StillImageSource.h says why). Headless, every run frame shows the
// next frame of the sequence, the app steps time by 1/fps and waits for the decoder, so two runs give
// the same frames, pictures and flicker figure; without --frames the run ends after the last frame,
// with --frames N it loops. In a window playback runs in real time on the wall clock and loops; a
// frame that is not decoded yet when its time comes is not waited for (the previous one stays), and
// frames whose time passed between two window frames are not shown (counted: a sequence faster
// than the window, or a slow decode; far behind, the decoder restarts at the playhead). Space
// pauses, Right/Left step, Home goes to the first frame; pan and zoom as `view IMAGE`
// (ImageViewControls.h).
//
// Bad frames: a gap in the numbering, a file that cannot be decoded, or a frame whose size or
// channel layout (image/ImageLayout.h) differs from the first frame shown is reported with its file
// name and why. --on-bad-frame stop (the default) ends a headless run there with that message after
// writing what came before (a window pauses on it; Space plays on without it); skip leaves it out
// with a warning, once per frame.
#pragma once

#include "frames/FrameSequence.h"
#include "frames/FrameSource.h"
#include "frames/ImageViewControls.h"
#include "frames/SequenceDecoder.h"
#include "post/PictureInfo.h"

#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>

namespace app {

struct SequenceOptions
{
    double fps = kDefaultSequenceFps;
    BadFramePolicy onBadFrame = BadFramePolicy::Stop;
    bool loop = true;     ///< after the last frame the first again; false: play once (headless without --frames)
    std::string exrPart;  ///< each OpenEXR frame's part, view or layer ("" the first with colour)
};

/// What keeps a decoded frame from being shown after the first one: nullopt when it matches the
/// reference (`width` x `height`, `layout`), else one line naming `path` and the difference.
std::optional<std::string> frameMismatch(const DecodedFrame& frame,
                                         glm::ivec2 referenceSize,
                                         const std::string& referenceLayout,
                                         const std::filesystem::path& path);

class SequenceSource final : public FrameSource
{
public:
    /// Waits for the first frame that can be shown and uploads it. Throws std::runtime_error with
    /// one line when none can (every frame bad, or the first one bad under Stop) or when it is larger
    /// than `maxTextureSize`. `decode` replaces the file decoder (tests).
    SequenceSource(FrameSequence sequence,
                   const SequenceOptions& options,
                   int maxTextureSize,
                   FrameDecoder decode = {});

    const char* kind() const override { return "Sequence"; }
    /// The pattern's, glob's or folder's name, e.g. "shot.%04d.exr".
    std::string name() const override { return mName; }
    /// "48 frames at 24 fps (2.00 s), 1 gap of 2 frames" and what was skipped.
    std::string description() const override;
    glm::ivec2 size() const override { return mTexture.size(); }
    bool followsWindowSize() const override { return false; }
    void resize(glm::ivec2) override {}
    /// Headless: the next frame. Window: the playback clock, its keys, pan and zoom.
    void update(const FrameSourceInput& input) override;
    /// Uploads the frame update() chose when it is a new one.
    void render(profiling::Profiler& profiler) override;
    const gl::Texture& hdr() const override { return mTexture; }
    float verticalFovDegrees() const override { return 60.0f; }
    /// "frame 12/48 shot.0012.exr, 24 fps, playing, fit 42 %" (window) or "frame 12/48 ..., 64 x 36 px".
    std::string hint(bool isWindow, double pathSeconds) const override;
    std::string controlsHelp() const override;
    BlitRects placement(glm::ivec2 viewportSize) const override;
    std::optional<double> framePeriod() const override { return 1.0 / mOptions.fps; }
    bool hasNextFrame() override;
    std::string stopReason() const override { return mStopReason; }
    std::optional<long long> frameNumber() const override;

    void fit() { mControls.fit(); }
    const FrameSequence& sequence() const { return mSequence; }
    const SequenceOptions& options() const { return mOptions; }
    /// Frames left out as bad (each counted once).
    std::size_t skippedFrames() const { return mReported.size(); }
    /// Window: frames whose time passed between two window frames (not shown).
    std::size_t passedOverFrames() const { return mPassedOver; }
    bool playing() const { return mPlaying; }
    /// The latest bad frame's message (the Frame panel's status line); empty: none so far.
    const std::string& lastProblem() const { return mLastProblem; }

    /// The shown frame's Radiance header (its units) and view: frames of files, like a still picture.
    std::optional<image::RadianceHeader> radiance() const override { return mRadiance; }
    std::optional<post::PictureInfo> pictureInfo() const override { return post::pictureInfoOf(mRadiance); }

private:
    /// Why `frame` cannot be shown (decode error, mismatch), empty when it can.
    std::string problemOf(const DecodedFrame& frame) const;
    /// "frame 5 of 'shot.%04d.exr': <why>".
    std::string describeBadFrame(const DecodedFrame& frame, const std::string& problem) const;
    /// Headless: waits for the next frame that can be shown, applying the policy to bad ones;
    /// nullopt at the end of the sequence or when it stopped (mStopReason).
    std::optional<DecodedFrame> nextShowableFrame();
    /// Window: takes the decoded frames up to the playback position, without waiting.
    void catchUp(std::uint64_t position);
    void updateWindow(const FrameSourceInput& input);
    void stepBy(int frames);
    void seekTo(std::uint64_t position);

    FrameSequence mSequence;
    SequenceOptions mOptions;
    std::string mName;
    std::unique_ptr<SequenceDecoder> mDecoder;
    gl::Texture mTexture;
    std::string mReferenceLayout;                    ///< the first shown frame's layout; later frames must match it
    std::optional<image::RadianceHeader> mRadiance;  ///< the shown frame's (its units)

    std::optional<DecodedFrame> mPending;  ///< headless: the next frame to show (taken ahead to know the end)
    std::optional<DecodedFrame> mCurrent;  ///< the frame shown (its pixels until uploaded)
    std::optional<std::uint64_t> mUploadedPosition;
    bool mEnded = false;
    std::string mStopReason;
    std::set<std::size_t> mReported;  ///< indices of bad frames reported (once each)
    std::string mLastProblem;         ///< the latest bad frame's message (Frame panel)

    // window playback
    ImageViewControls mControls;
    double mPlayhead = 0.0;  ///< in frames: the playback position shown is floor(mPlayhead)
    bool mPlaying = true;
    std::size_t mPassedOver = 0;
    std::optional<std::uint64_t>
        mCatchUpTarget;  ///< the decoder was restarted here to catch up; not again until it came
};

}  // namespace app
