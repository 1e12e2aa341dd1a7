#include "post/Downsample.h"

#include "gl/ExternalObjects.h"

#include <stdexcept>
#include <string>

namespace post {

glm::ivec2 Downsample::outputSize(glm::ivec2 input, int factor)
{
    return (glm::max(input, glm::ivec2(1)) + glm::ivec2(factor - 1)) / factor;
}

ImageInput Downsample::run(PassContext& ctx, const ImageInput& input, int factor)
{
    if (!isValidFactor(factor))
        throw std::invalid_argument("downsample factor must be 1, 2, 4 or 8, got " + std::to_string(factor));
    if (!mProgram)
        mProgram = ctx.shaders.buildCompute("histogram-input.downsample", "post/Downsample.comp");
    const glm::ivec2 size = outputSize(input.size, factor);
    if (!mOutput || mOutput.size() != size)
        mOutput = gl::createTexture(mAllocator, "histogram-input.downsampled", GL_RGBA32F, size);

    glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT | GL_SHADER_IMAGE_ACCESS_BARRIER_BIT);
    mProgram.use();
    glProgramUniform2i(mProgram.id(), 0, input.size.x, input.size.y);
    glProgramUniform2i(mProgram.id(), 1, size.x, size.y);
    mProgram.set(2, factor);
    input.texture.bindUnit(hd::kTextureUnitInput);
    glBindSampler(hd::kTextureUnitInput, 0);
    mOutput.bindImage(hd::kImageUnitOutput, GL_WRITE_ONLY);
    glDispatchCompute(GLuint((size.x + 7) / 8), GLuint((size.y + 7) / 8), 1);
    glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT | GL_SHADER_IMAGE_ACCESS_BARRIER_BIT | GL_TEXTURE_UPDATE_BARRIER_BIT);
    return ImageInput{mOutput, size};
}

}  // namespace post
