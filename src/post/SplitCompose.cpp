#include "post/SplitCompose.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace post {

std::string_view splitModeName(SplitMode mode)
{
    switch (mode) {
        case SplitMode::SideBySide:
            return "side-by-side";
        case SplitMode::Difference:
            return "difference";
        case SplitMode::Off:
            break;
    }
    return "off";
}

std::optional<SplitMode> parseSplitMode(std::string_view text)
{
    for (SplitMode mode : {SplitMode::Off, SplitMode::SideBySide, SplitMode::Difference})
        if (text == splitModeName(mode))
            return mode;
    return std::nullopt;
}

int splitDividerX(int width, float position)
{
    const float x = std::floor(std::clamp(position, 0.0f, 1.0f) * float(width) + 0.5f);
    return std::clamp(int(x), 0, std::max(width, 0));
}

void SplitCompose::run(PassContext& ctx,
                       const gl::Texture& a,
                       const gl::Texture& b,
                       gl::Texture& output,
                       SplitMode mode,
                       float position,
                       float gain)
{
    if (mode == SplitMode::Off)
        throw std::invalid_argument("split compose: the split view is off");
    for (const gl::Texture* texture : {&a, &b, static_cast<const gl::Texture*>(&output)})
        if (texture->format() != GL_RGBA8 || texture->size() != output.size())
            throw std::invalid_argument("split compose: both sides and the output must be GL_RGBA8 of one size");
    if (!mProgram)
        mProgram = ctx.shaders.buildCompute("view.split", "post/SplitCompose.comp");
    const glm::ivec2 size = output.size();
    glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT | GL_SHADER_IMAGE_ACCESS_BARRIER_BIT);
    mProgram.use();
    glProgramUniform2i(mProgram.id(), 0, size.x, size.y);
    mProgram.set(1, mode == SplitMode::Difference ? 1 : 0);
    mProgram.set(2, splitDividerX(size.x, position));
    mProgram.set(3, std::clamp(gain, 0.0f, kMaxSplitGain));
    a.bindUnit(hd::kTextureUnitInput);
    b.bindUnit(hd::kTextureUnitAux);
    glBindSampler(hd::kTextureUnitInput, 0);
    glBindSampler(hd::kTextureUnitAux, 0);
    output.bindImage(hd::kImageUnitOutput, GL_WRITE_ONLY);
    glDispatchCompute(GLuint((size.x + 15) / 16), GLuint((size.y + 15) / 16), 1);
    glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT | GL_SHADER_IMAGE_ACCESS_BARRIER_BIT | GL_TEXTURE_UPDATE_BARRIER_BIT |
                    GL_FRAMEBUFFER_BARRIER_BIT);
}

}  // namespace post
