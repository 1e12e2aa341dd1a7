// FrameStoreStatus.h: what a scene frame's storage did over a run (scene/PreExposure.h): its format,
// the pre-exposure k and how often it changed, and the clipped pixels the frame statistics counted,
// as the Frame panel, the headless "frame:" line and capture metadata show them (never silent).
#pragma once

#include "profiling/Capture.h"
#include "scene/PreExposure.h"

#include <cstdint>
#include <optional>
#include <string>

namespace app {

/// What the frame's storage did over the run (the frame statistics read back so far).
struct FrameStoreStatus
{
    scene::FrameFormat format = scene::kDefaultFrameFormat;
    unsigned glFormat = 0;                  ///< GL_RGBA16F or GL_RGBA32F
    bool preExposed = false;                ///< rgba16f: stored times 2^k
    bool statsActive = false;               ///< statistics are kept (every RGBA16F frame)
    int k = 0;                              ///< the pre-exposure of the frame rendered last
    int kChanges = 0;                       ///< how often k changed since the scene or format was set
    std::uint64_t framesRead = 0;           ///< frames whose statistics came back
    std::uint64_t framesClipped = 0;        ///< of them, frames with at least one clipped pixel
    std::uint64_t clippedPixels = 0;        ///< clipped pixels summed over those frames
    std::uint32_t mostClipped = 0;          ///< the most clipped pixels in one frame
    std::optional<scene::FrameStats> last;  ///< the newest frame's statistics
    std::uint64_t lastFrame = 0;            ///< its frame index
};

/// "rgba16f (RGBA16F pre-exposed), k = -16 (2 changes)", "rgba32f (RGBA32F)" or "auto (RGBA16F, clamped at 60000)".
std::string describeFrameFormat(const FrameStoreStatus& status);
/// describeFrameFormat and what clipped: "rgba16f (RGBA16F pre-exposed), k = -16 (2 changes); clipped: none in 297
/// frames read back", or what clipped: "...; clipped: 12 pixels in 3 of 297 frames read back (at most 5 in one; the
/// last: 0)".
std::string describeFrameStore(const FrameStoreStatus& status);

/// Capture metadata: frame_format, frame_gl_format, pre_exposure (the last k), pre_exposure_changes,
/// and where statistics are kept frames_read_back, clipped_frames, clipped_pixels, clipped_most.
void appendFrameStoreMetadata(profiling::CaptureMetadata& metadata, const FrameStoreStatus& status);

}  // namespace app
