#include "frames/FrameStoreStatus.h"

#include "gl/Gl.h"
#include "util/Log.h"

namespace app {

std::string describeFrameFormat(const FrameStoreStatus& status)
{
    std::string text = scene::frameFormatName(status.format);
    if (status.preExposed)
        return text + util::format(" (RGBA16F pre-exposed), k = {} ({} change{})", status.k, status.kChanges,
                                   status.kChanges == 1 ? "" : "s");
    return text + (status.glFormat == GL_RGBA32F ? " (RGBA32F)" : " (RGBA16F, clamped at 60000)");
}

std::string describeFrameStore(const FrameStoreStatus& status)
{
    const std::string text = describeFrameFormat(status);
    if (!status.statsActive)
        return text + "; clipping not measured (RGBA32F clamps at 1e12 cd/m^2)";
    if (status.framesRead == 0)
        return text + "; clipped: pending (no frame statistics read back yet)";
    if (status.framesClipped == 0)
        return text + util::format("; clipped: none in {} frames read back", status.framesRead);
    return text + util::format("; clipped: {} pixel{} in {} of {} frames read back (at most {} in one; the last: {})",
                               status.clippedPixels, status.clippedPixels == 1 ? "" : "s", status.framesClipped,
                               status.framesRead, status.mostClipped, status.last ? status.last->clippedPixels : 0u);
}

void appendFrameStoreMetadata(profiling::CaptureMetadata& metadata, const FrameStoreStatus& status)
{
    metadata.emplace_back("frame_format", scene::frameFormatName(status.format));
    metadata.emplace_back("frame_gl_format", status.glFormat == GL_RGBA32F ? "rgba32f" : "rgba16f");
    metadata.emplace_back("pre_exposure", status.preExposed ? std::to_string(status.k) : std::string("none"));
    metadata.emplace_back("pre_exposure_changes", std::to_string(status.kChanges));
    if (!status.statsActive)
        return;
    metadata.emplace_back("frames_read_back", std::to_string(status.framesRead));
    metadata.emplace_back("clipped_frames", std::to_string(status.framesClipped));
    metadata.emplace_back("clipped_pixels", std::to_string(status.clippedPixels));
    metadata.emplace_back("clipped_most", std::to_string(status.mostClipped));
}

}  // namespace app
