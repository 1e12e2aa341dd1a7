#include "frames/FrameSequenceWriter.h"

#include "frames/FrameSequence.h"
#include "gl/Gl.h"
#include "image/HdrPng.h"
#include "image/ImageIo.h"
#include "scene/PreExposure.h"
#include "util/Log.h"

#include <cstring>
#include <stdexcept>
#include <vector>

namespace app {

FrameSequenceWriter::FrameSequenceWriter(std::filesystem::path pattern, Kind kind, std::string_view flag)
    : mPattern(std::move(pattern)), mKind(kind)
{
    checkOutputPattern(mPattern, flag);
    // Before the first frame renders, not at its first file (as every output, the folder must exist).
    const std::filesystem::path folder = mPattern.parent_path();
    std::error_code error;
    if (!folder.empty() && !std::filesystem::is_directory(folder, error))
        throw std::runtime_error(
            util::format("{} '{}': folder '{}' does not exist", flag, mPattern.string(), folder.string()));
}

FrameSequenceWriter::Slot* FrameSequenceWriter::oldestPending()
{
    Slot* oldest = nullptr;
    for (Slot& slot : mSlots)
        if (slot.fence.pending() && (!oldest || slot.sequence < oldest->sequence))
            oldest = &slot;
    return oldest;
}

void FrameSequenceWriter::enqueue(const gl::Texture& texture,
                                  long long number,
                                  std::optional<int> preExposure,
                                  std::optional<float> hdr10Peak)
{
    Slot* slot = nullptr;
    for (Slot& candidate : mSlots)
        if (!candidate.fence.pending())
            slot = &candidate;
    if (!slot) {  // every copy still in flight: this output keeps every frame, so wait for the oldest
        slot = oldestPending();
        slot->fence.waitFlushing();
        write(*slot);
    }
    const glm::ivec2 size = texture.size();
    if (mKind != Kind::DisplayPng || texture.format() != GL_RGBA32F)
        hdr10Peak.reset();
    const bool isFloat = mKind == Kind::HdrExr || hdr10Peak;
    const std::size_t bytes = std::size_t(size.x) * std::size_t(size.y) * 4u * (isFloat ? sizeof(float) : 1u);
    if (!slot->buffer.valid() || slot->buffer.size() < bytes)
        slot->buffer = gl::Buffer(mKind == Kind::HdrExr ? "sequence-out.exr" : "sequence-out.png", bytes);
    glMemoryBarrier(GL_TEXTURE_UPDATE_BARRIER_BIT | GL_FRAMEBUFFER_BARRIER_BIT | GL_PIXEL_BUFFER_BARRIER_BIT);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, slot->buffer.id());
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glGetTextureImage(texture.id(), 0, GL_RGBA, isFloat ? GL_FLOAT : GL_UNSIGNED_BYTE, GLsizei(bytes), nullptr);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    slot->fence = gl::Fence::insert();
    slot->sequence = ++mSequence;
    slot->number = number;
    slot->size = size;
    slot->storeHalf = texture.format() != GL_RGBA32F;  // Float still where a value would overflow half
    slot->preExposure = preExposure.value_or(0);
    slot->hdr10Peak = hdr10Peak;
}

void FrameSequenceWriter::poll()
{
    while (Slot* slot = oldestPending()) {
        if (!slot->fence.signalled())
            return;  // later copies wait for it: files are written in frame order
        write(*slot);
    }
}

void FrameSequenceWriter::finish()
{
    while (Slot* slot = oldestPending()) {
        slot->fence.waitFlushing();
        write(*slot);
    }
}

void FrameSequenceWriter::write(Slot& slot)
{
    slot.fence.reset();
    const std::filesystem::path path = numberedPath(mPattern, slot.number);
    const std::size_t pixels = std::size_t(slot.size.x) * std::size_t(slot.size.y);
    const std::size_t row = std::size_t(slot.size.x) * 4u;
    if (slot.hdr10Peak) {  // the HDR10 picture: cd/m^2, rows as the display PNG's
        std::vector<float> rgba(pixels * 4u);
        slot.buffer.read(0, rgba.size() * sizeof(float), rgba.data());
        image::ImageF out(slot.size.x, slot.size.y);
        for (int y = 0; y < slot.size.y; ++y)
            std::memcpy(out.at(0, y), rgba.data() + std::size_t(slot.size.y - 1 - y) * row, row * sizeof(float));
        image::writeHdr10Png(path, out, image::contentLightLevels(out, *slot.hdr10Peak));
    } else if (mKind == Kind::HdrExr) {
        std::vector<float> rgba(pixels * 4u);
        slot.buffer.read(0, rgba.size() * sizeof(float), rgba.data());
        scene::unexposePixels(rgba, slot.preExposure);
        image::ImageF out(slot.size.x, slot.size.y);
        for (int y = 0; y < slot.size.y; ++y)  // bottom-up (GL) to top-down (files)
            std::memcpy(out.at(0, y), rgba.data() + std::size_t(slot.size.y - 1 - y) * row, row * sizeof(float));
        image::writeExr(path, out, image::exrPixelTypeKeeping(slot.storeHalf, rgba));
    } else {
        std::vector<std::uint8_t> rgba(pixels * 4u);
        slot.buffer.read(0, rgba.size(), rgba.data());
        image::Image8 out(slot.size.x, slot.size.y, 3);
        for (int y = 0; y < slot.size.y; ++y) {
            const std::uint8_t* from = rgba.data() + std::size_t(slot.size.y - 1 - y) * row;
            std::uint8_t* to = out.at(0, y);
            for (int x = 0; x < slot.size.x; ++x)
                std::memcpy(to + 3 * x, from + 4 * x, 3);
        }
        image::writePng(path, out);
    }
    ++mWritten;
    if (!mFirst)
        mFirst = path;
    mLast = path;
}

std::string FrameSequenceWriter::summary() const
{
    if (mWritten == 0)
        return util::format("wrote no frame to {}", mPattern.string());
    return util::format("wrote {} frame{} to {} ({} .. {})", mWritten, mWritten == 1 ? "" : "s", mPattern.string(),
                        mFirst->filename().string(), mLast->filename().string());
}

}  // namespace app
