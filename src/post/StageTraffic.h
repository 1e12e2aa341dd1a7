// StageTraffic.h: the least device-memory traffic each stage of the post chain must cause, whatever
// method runs it, as bytes read and bytes written. `hdrlab bench pipeline` turns them into each
// stage's floor with the measured rates (read bytes / read rate + written bytes / write rate,
// commands/bench/BenchFloors.h) and reports time / floor. A model, not a measurement: update it when a stage's
// work changes (e.g. the histogram pass also producing the operators' inputs). The tone curve's
// traffic depends on the operator and lives with it: ToneOperator::curveMinimumTraffic.
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

/// Bytes a stage must read and bytes it must write (reads and writes are priced at different rates).
struct Traffic
{
    std::uint64_t readBytes = 0;
    std::uint64_t writeBytes = 0;

    std::uint64_t total() const { return readBytes + writeBytes; }
    bool empty() const { return total() == 0; }
    Traffic& operator+=(const Traffic& other)
    {
        readBytes += other.readBytes;
        writeBytes += other.writeBytes;
        return *this;
    }
    friend Traffic operator+(Traffic a, const Traffic& b) { return a += b; }
    friend Traffic operator*(std::uint64_t times, Traffic t) { return {times * t.readBytes, times * t.writeBytes}; }
    friend bool operator==(const Traffic&, const Traffic&) = default;
};

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

/// scene: the frame written once (W*H*frameBytesPerPixel; rasterisation, depth and G-buffer are not
/// modelled).
Traffic sceneMinimumTraffic(const TrafficShape& shape);
/// range/auto: one read of the histogram image for its min/max (W*H*frameBytesPerPixel); binned in the
/// scene, the scene's min/max read and the range written (2 words each).
Traffic autoRangeMinimumTraffic(const TrafficShape& shape);
/// histogram/<id>: one read of the histogram image (W*H*frameBytesPerPixel), the bins written once;
/// binned in the scene, the scene's bins read and the histogram's written.
Traffic histogramMinimumTraffic(const TrafficShape& shape);
/// scan/<id>: the bins read and the CDF written (bins*4 each).
Traffic scanMinimumTraffic(const TrafficShape& shape);
/// tonemap/<op>/apply: the frame read (W*H*frameBytesPerPixel), the display image written (W*H*4).
Traffic applyMinimumTraffic(const TrafficShape& shape);

}  // namespace post
