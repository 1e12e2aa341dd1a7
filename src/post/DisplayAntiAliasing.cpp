#include "post/DisplayAntiAliasing.h"

#include <stdexcept>

namespace post {

std::string_view antiAliasingName(AntiAliasing mode)
{
    return mode == AntiAliasing::Fxaa ? "fxaa" : "off";
}

std::optional<AntiAliasing> parseAntiAliasing(std::string_view text)
{
    for (AntiAliasing mode : {AntiAliasing::Off, AntiAliasing::Fxaa})
        if (text == antiAliasingName(mode))
            return mode;
    return std::nullopt;
}

void DisplayAntiAliasing::run(PassContext& ctx, const gl::Texture& input, gl::Texture& output)
{
    if (input.format() != GL_RGBA8 || output.format() != GL_RGBA8 || input.size() != output.size())
        throw std::invalid_argument("display anti-aliasing: input and output must be GL_RGBA8 of one size");
    if (input.id() == output.id())
        throw std::invalid_argument("display anti-aliasing: the output cannot be the input");
    if (!mProgram)
        mProgram = ctx.shaders.buildCompute("display.fxaa", "post/DisplayFxaa.comp");
    const glm::ivec2 size = output.size();
    glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT | GL_SHADER_IMAGE_ACCESS_BARRIER_BIT);
    mProgram.use();
    glProgramUniform2i(mProgram.id(), 0, size.x, size.y);
    input.bindUnit(hd::kTextureUnitInput);
    glBindSampler(hd::kTextureUnitInput, 0);
    output.bindImage(hd::kImageUnitOutput, GL_WRITE_ONLY);
    glDispatchCompute(GLuint((size.x + 15) / 16), GLuint((size.y + 15) / 16), 1);
    glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT | GL_SHADER_IMAGE_ACCESS_BARRIER_BIT | GL_TEXTURE_UPDATE_BARRIER_BIT |
                    GL_FRAMEBUFFER_BARRIER_BIT);
}

}  // namespace post
