// Texture.h: immutable-storage 2D textures (glCreateTextures + glTextureStorage2D) and samplers.
#pragma once

#include "gl/Object.h"

#include <glm/common.hpp>
#include <glm/vec2.hpp>

#include <string_view>
#include <vector>

namespace gl {

class Texture : public Object<ObjectKind::Texture>
{
public:
    Texture() = default;
    /// A 2D texture of `levels` mip levels; linear filtering, clamp to edge.
    Texture(std::string_view label, GLenum internalFormat, glm::ivec2 size, int levels = 1);
    /// A depth texture for shadow maps and depth-buffer tricks (compare mode off).
    static Texture depth(std::string_view label, GLenum internalFormat, glm::ivec2 size);

    glm::ivec2 size() const { return mSize; }
    GLenum format() const { return mFormat; }
    int levels() const { return mLevels; }

    void upload(GLenum format, GLenum type, const void* pixels, int level = 0);
    void setFilter(GLenum minFilter, GLenum magFilter);
    void setWrap(GLenum wrap);
    void bindUnit(GLuint unit) const;
    void bindImage(GLuint unit, GLenum access, int level = 0) const;
    void bindImage(GLuint unit, GLenum access, GLenum format, int level) const;

    /// Synchronous readback of one level as RGBA float (tests, --verify, screenshots).
    std::vector<float> readRgbaFloat(int level = 0) const;
    /// Synchronous readback as RGBA8 (screenshots).
    std::vector<unsigned char> readRgba8(int level = 0) const;

private:
    glm::ivec2 mSize{0};
    GLenum mFormat = 0;
    int mLevels = 0;
};

class Sampler : public Object<ObjectKind::Sampler>
{
public:
    Sampler() = default;
    Sampler(std::string_view label, GLenum minFilter, GLenum magFilter, GLenum wrap);
    void bindUnit(GLuint unit) const { glBindSampler(unit, id()); }
};

/// Number of mip levels of a full chain for `size`.
int mipLevelCount(glm::ivec2 size);

} // namespace gl
