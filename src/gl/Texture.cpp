#include "gl/Texture.h"

#include "gl/ExternalObjects.h"

#include <algorithm>
#include <bit>

namespace gl {

Texture::Texture(std::string_view label, GLenum internalFormat, glm::ivec2 size, int levels)
    : mSize(glm::max(size, glm::ivec2(1))), mFormat(internalFormat), mLevels(std::max(levels, 1))
{
    GLuint name = 0;
    glCreateTextures(GL_TEXTURE_2D, 1, &name);
    adopt(name);
    glTextureStorage2D(name, mLevels, internalFormat, mSize.x, mSize.y);
    glTextureParameteri(name, GL_TEXTURE_MIN_FILTER, mLevels > 1 ? GL_LINEAR_MIPMAP_LINEAR : GL_LINEAR);
    glTextureParameteri(name, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTextureParameteri(name, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTextureParameteri(name, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    setLabel(label);
}

Texture::Texture(std::string_view label,
                 GLenum internalFormat,
                 glm::ivec2 size,
                 std::shared_ptr<const ExternalStorage> storage)
    : mSize(glm::max(size, glm::ivec2(1))), mFormat(internalFormat), mLevels(1), mExternalStorage(std::move(storage))
{
    GLuint name = 0;
    glCreateTextures(GL_TEXTURE_2D, 1, &name);
    adopt(name);
    glTextureParameteri(name, GL_TEXTURE_TILING_EXT, GL_OPTIMAL_TILING_EXT);  // as the exporter's image
    glTextureStorageMem2DEXT(name, 1, internalFormat, mSize.x, mSize.y, mExternalStorage->memory().id(), 0);
    glTextureParameteri(name, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTextureParameteri(name, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTextureParameteri(name, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTextureParameteri(name, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    setLabel(label);
}

Texture Texture::depth(std::string_view label, GLenum internalFormat, glm::ivec2 size)
{
    Texture texture(label, internalFormat, size, 1);
    texture.setFilter(GL_NEAREST, GL_NEAREST);
    return texture;
}

void Texture::upload(GLenum format, GLenum type, const void* pixels, int level)
{
    glm::ivec2 levelSize = glm::max(mSize >> level, glm::ivec2(1));
    glTextureSubImage2D(id(), level, 0, 0, levelSize.x, levelSize.y, format, type, pixels);
}

void Texture::setFilter(GLenum minFilter, GLenum magFilter)
{
    glTextureParameteri(id(), GL_TEXTURE_MIN_FILTER, GLint(minFilter));
    glTextureParameteri(id(), GL_TEXTURE_MAG_FILTER, GLint(magFilter));
}

void Texture::setWrap(GLenum wrap)
{
    glTextureParameteri(id(), GL_TEXTURE_WRAP_S, GLint(wrap));
    glTextureParameteri(id(), GL_TEXTURE_WRAP_T, GLint(wrap));
}

void Texture::bindUnit(GLuint unit) const
{
    glBindTextureUnit(unit, id());
}

void Texture::bindImage(GLuint unit, GLenum access, int level) const
{
    glBindImageTexture(unit, id(), level, GL_FALSE, 0, access, mFormat);
}

void Texture::bindImage(GLuint unit, GLenum access, GLenum format, int level) const
{
    glBindImageTexture(unit, id(), level, GL_FALSE, 0, access, format);
}

std::vector<float> Texture::readRgbaFloat(int level) const
{
    glm::ivec2 levelSize = glm::max(mSize >> level, glm::ivec2(1));
    std::vector<float> pixels(std::size_t(levelSize.x) * std::size_t(levelSize.y) * 4u);
    glMemoryBarrier(GL_TEXTURE_UPDATE_BARRIER_BIT | GL_FRAMEBUFFER_BARRIER_BIT);
    glGetTextureImage(id(), level, GL_RGBA, GL_FLOAT, GLsizei(pixels.size() * sizeof(float)), pixels.data());
    return pixels;
}

std::vector<unsigned char> Texture::readRgba8(int level) const
{
    glm::ivec2 levelSize = glm::max(mSize >> level, glm::ivec2(1));
    std::vector<unsigned char> pixels(std::size_t(levelSize.x) * std::size_t(levelSize.y) * 4u);
    glMemoryBarrier(GL_TEXTURE_UPDATE_BARRIER_BIT | GL_FRAMEBUFFER_BARRIER_BIT);
    glGetTextureImage(id(), level, GL_RGBA, GL_UNSIGNED_BYTE, GLsizei(pixels.size()), pixels.data());
    return pixels;
}

Sampler::Sampler(std::string_view label, GLenum minFilter, GLenum magFilter, GLenum wrap)
{
    GLuint name = 0;
    glCreateSamplers(1, &name);
    adopt(name);
    glSamplerParameteri(name, GL_TEXTURE_MIN_FILTER, GLint(minFilter));
    glSamplerParameteri(name, GL_TEXTURE_MAG_FILTER, GLint(magFilter));
    glSamplerParameteri(name, GL_TEXTURE_WRAP_S, GLint(wrap));
    glSamplerParameteri(name, GL_TEXTURE_WRAP_T, GLint(wrap));
    setLabel(label);
}

int mipLevelCount(glm::ivec2 size)
{
    unsigned largest = unsigned(std::max(std::max(size.x, size.y), 1));
    return int(std::bit_width(largest));
}

}  // namespace gl
