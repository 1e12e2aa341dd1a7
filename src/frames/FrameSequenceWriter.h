// FrameSequenceWriter.h: numbered per-frame output files of a run: the display image of every frame
// as PNG (`tonemap SEQUENCE -o out.%04d.png`) or the HDR frame as OpenEXR (`--hdr-sequence-out
// frame.%04d.exr`: a rendered sequence that `view` and `tonemap` take back).
//
// Technique: a ring of pixel-pack buffers. enqueue() has the GPU copy the texture into a free
// buffer (glGetTextureImage into a bound GL_PIXEL_PACK_BUFFER) and puts a fence behind it; poll()
// writes, in frame order, the copies whose fence has signalled (asked with a zero timeout), so the
// frame loop does not wait for the GPU to finish a frame. When every buffer is still in flight,
// enqueue() waits for the oldest: an output of every frame may not drop one. finish() waits for
// the rest. Files: PNG = the display image (sRGB RGBA8) as RGB; EXR = the HDR frame, half floats from
// an RGBA16F frame, 32-bit floats from an RGBA32F one (half would turn a sun above 65504 into +Inf)
// and from a pre-exposed frame, whose values are written times 2^-k (the scene's own cd/m^2);
// rows flipped to top-down, written through image::writePng / writeExr (atomically). Limits: the
// files are encoded on the frame loop's thread (CPU time the frame pays); kRingSize frames of
// pixels are held on the GPU. With display.target hdr10 a display PNG is the HDR10 picture instead,
// as the screenshot is: enqueue() with the peak and the apply pass's RGBA32F cd/m^2 image, written
// as a 16-bit PQ BT.2020 PNG with cICP, mDCV and cLLI (image/HdrPng.h).
#pragma once

#include "gl/Buffer.h"
#include "gl/Fence.h"
#include "gl/Texture.h"

#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace app {

class FrameSequenceWriter
{
public:
    enum class Kind { DisplayPng, HdrExr };
    static constexpr int kRingSize = 3;

    /// `pattern`'s file name holds one frame number (FrameSequence.h checkOutputPattern) and its
    /// folder exists; throws std::runtime_error naming `flag` otherwise.
    FrameSequenceWriter(std::filesystem::path pattern, Kind kind, std::string_view flag);
    FrameSequenceWriter(const FrameSequenceWriter&) = delete;
    FrameSequenceWriter& operator=(const FrameSequenceWriter&) = delete;

    /// Queues a copy of `texture` (level 0) for the file numbered `number`; `preExposure`: the frame
    /// is pre-exposed by 2^k (scene/PreExposure.h) and its EXR is written times 2^-k in 32-bit floats.
    /// `hdr10Peak` (display PNGs): `texture` is the HDR10 output (RGBA32F cd/m^2, BT.2020) for a display
    /// of that peak, written as a 16-bit PQ PNG.
    void enqueue(const gl::Texture& texture,
                 long long number,
                 std::optional<int> preExposure = {},
                 std::optional<float> hdr10Peak = {});
    /// Writes the finished copies, oldest first; never waits.
    void poll();
    /// Waits for every queued copy and writes it.
    void finish();

    std::size_t written() const { return mWritten; }
    /// "wrote 48 frames to out.%04d.png (out.0001.png .. out.0048.png)", or that none was written.
    std::string summary() const;

private:
    struct Slot
    {
        gl::Buffer buffer;
        gl::Fence fence;
        std::uint64_t sequence = 0;  ///< enqueue order
        long long number = 0;
        glm::ivec2 size{0};
        bool storeHalf = true;           ///< EXR: half floats (an RGBA16F frame, unless a value overflows half)
        int preExposure = 0;             ///< EXR: written times 2^-preExposure
        std::optional<float> hdr10Peak;  ///< PNG: the HDR10 picture for this peak (float pixels)
    };
    Slot* oldestPending();
    void write(Slot& slot);

    std::filesystem::path mPattern;
    Kind mKind;
    std::array<Slot, kRingSize> mSlots;
    std::uint64_t mSequence = 0;
    std::size_t mWritten = 0;
    std::optional<std::filesystem::path> mFirst, mLast;
};

}  // namespace app
