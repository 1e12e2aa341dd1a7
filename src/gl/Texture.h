// Texture.h: immutable-storage 2D textures (glCreateTextures + glTextureStorage2D, or
// glTextureStorageMem2DEXT on memory another API shares, see ExternalObjects.h) and samplers.
#pragma once

#include "gl/Object.h"

#include <glm/common.hpp>
#include <glm/vec2.hpp>

#include <memory>
#include <string_view>
#include <vector>

namespace gl {

class ExternalStorage;

class Texture : public Object<ObjectKind::Texture>
{
public:
    Texture() = default;
    /// A 2D texture of `levels` mip levels; linear filtering, clamp to edge.
    Texture(std::string_view label, GLenum internalFormat, glm::ivec2 size, int levels = 1);
    /// A depth texture for shadow maps and depth-buffer tricks (compare mode off).
    static Texture depth(std::string_view label, GLenum internalFormat, glm::ivec2 size);
    /// One level whose storage is `storage`'s imported memory (offset 0); keeps `storage` alive.
    Texture(std::string_view label,
            GLenum internalFormat,
            glm::ivec2 size,
            std::shared_ptr<const ExternalStorage> storage);
    /// The texture is deleted before the storage it lives in is released.
    ~Texture() { reset(); }
    Texture(Texture&&) noexcept = default;
    Texture& operator=(Texture&&) noexcept = default;

    glm::ivec2 size() const { return mSize; }
    GLenum format() const { return mFormat; }
    int levels() const { return mLevels; }
    /// The shared memory this texture lives in; null for ordinary GL storage.
    const std::shared_ptr<const ExternalStorage>& externalStorage() const { return mExternalStorage; }

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
    std::shared_ptr<const ExternalStorage> mExternalStorage;
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

}  // namespace gl
