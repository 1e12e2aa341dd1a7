// StageTraffic.h: the least device-memory traffic (bytes read + bytes written) each stage of the post
// chain must move, whatever method runs it. `hdrlab bench pipeline` divides these by the measured copy
// bandwidth to get each stage's floor and reports time / floor. A model, not a measurement: update it
// when a stage's work changes (e.g. the histogram pass also producing the operators' inputs). The tone
// curve's bytes depend on the operator and live with it: ToneOperator::curveMinimumBytes.
//
// Counted: every input the stage cannot avoid reading once and every output it must write once, at
// the formats the pipeline uses (frame RGBA16F = 8 B/px, or RGBA32F = 16 B/px where the scene's range
// needs it or an image is viewed; display image RGBA8 = 4 B/px; bins uint32).
// Not counted: scratch the method chooses (partial histograms, intermediates), re-reads, caches.
#pragma once

#include <glm/vec2.hpp>

#include <cstdint>

namespace post {

inline constexpr std::uint64_t kFrameBytesPerPixel = 8;    ///< RGBA16F scene-linear frame (the default)
inline constexpr std::uint64_t kDisplayBytesPerPixel = 4;  ///< RGBA8 display image
inline constexpr std::uint64_t kBinBytes = 4;              ///< one uint32 histogram or CDF entry

/// What the traffic of one frame's chain depends on.
struct TrafficShape
{
    glm::ivec2 frame{0};           ///< the full-resolution frame (apply; operators that read it)
    glm::ivec2 histogramImage{0};  ///< the image the histogram is built from (the frame, or downsampled)
    std::uint32_t bins = 0;
    float fovYDegrees = 60.0f;                               ///< camera field of view (Ward's foveal grid)
    std::uint64_t frameBytesPerPixel = kFrameBytesPerPixel;  ///< 8 (RGBA16F) or 16 (RGBA32F)
    /// The histogram (and the auto range's min/max) is binned as the scene writes the frame
    /// (fused-lighting): neither stage reads the frame, whose write the scene already counts.
    bool histogramInScene = false;
};

/// Bytes per pixel of a scene-linear frame texture format (RGBA16F 8, RGBA32F 16, else 8).
std::uint64_t frameBytesPerPixelOf(unsigned internalFormat);

std::uint64_t pixelCount(glm::ivec2 size);

/// range/auto: one read of the histogram image for its min/max (W*H*frameBytesPerPixel); binned in the
/// scene, the min/max read and the range written (4 words).
std::uint64_t autoRangeMinimumBytes(const TrafficShape& shape);
/// histogram/<id>: one read of the histogram image (W*H*frameBytesPerPixel) and the bins written once;
/// binned in the scene, the scene's bins read and the histogram's written (bins*4*2).
std::uint64_t histogramMinimumBytes(const TrafficShape& shape);
/// scan/<id>: the bins read and the CDF written (bins*4*2).
std::uint64_t scanMinimumBytes(const TrafficShape& shape);
/// tonemap/<op>/apply: the frame read (W*H*frameBytesPerPixel) and the display image written (W*H*4).
std::uint64_t applyMinimumBytes(const TrafficShape& shape);

}  // namespace post
