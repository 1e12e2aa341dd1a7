// Buffer.h: an immutable-storage GL buffer (glCreateBuffers + glNamedBufferStorage, or
// glNamedBufferStorageMemEXT on memory another API shares, see ExternalObjects.h).
#pragma once

#include "gl/Object.h"

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

namespace gl {

class ExternalStorage;

class Buffer : public Object<ObjectKind::Buffer>
{
public:
    Buffer() = default;
    /// Creates `bytes` of storage; `data` may be null. `flags` are glNamedBufferStorage flags;
    /// GL_DYNAMIC_STORAGE_BIT is always added so that update() works.
    Buffer(std::string_view label, std::size_t bytes, const void* data = nullptr, GLbitfield flags = 0);
    /// `bytes` whose storage is `storage`'s imported memory (offset 0); keeps `storage` alive.
    Buffer(std::string_view label, std::size_t bytes, std::shared_ptr<const ExternalStorage> storage);
    /// The buffer is deleted before the storage it lives in is released.
    ~Buffer() { reset(); }
    Buffer(Buffer&&) noexcept = default;
    Buffer& operator=(Buffer&&) noexcept = default;

    template <typename T>
    static Buffer fromSpan(std::string_view label, std::span<const T> values, GLbitfield flags = 0)
    {
        return Buffer(label, values.size_bytes(), values.data(), flags);
    }

    std::size_t size() const { return mBytes; }
    /// The shared memory this buffer lives in; null for ordinary GL storage.
    const std::shared_ptr<const ExternalStorage>& externalStorage() const { return mExternalStorage; }

    /// glNamedBufferSubData; on shared memory (no GL_DYNAMIC_STORAGE_BIT there) a copy from a small
    /// staging buffer, still ordered in the GL command stream.
    void update(std::size_t offset, std::size_t bytes, const void* data);
    template <typename T>
    void update(std::span<const T> values, std::size_t offsetBytes = 0)
    {
        update(offsetBytes, values.size_bytes(), values.data());
    }
    /// Fills the whole buffer with a 32-bit pattern (glClearNamedBufferData, stays on the GPU).
    void clearUint(std::uint32_t value = 0);
    void clearUintRange(std::size_t offset, std::size_t bytes, std::uint32_t value = 0);
    void copyTo(Buffer& dst, std::size_t srcOffset, std::size_t dstOffset, std::size_t bytes) const;

    void bindBase(GLenum target, GLuint index) const;
    void bindRange(GLenum target, GLuint index, std::size_t offset, std::size_t bytes) const;

    /// Synchronous readback: for tests, --verify and tools only, never the per-frame path.
    void read(std::size_t offset, std::size_t bytes, void* out) const;
    template <typename T>
    std::vector<T> readAll(std::size_t count, std::size_t offsetBytes = 0) const
    {
        std::vector<T> out(count);
        read(offsetBytes, count * sizeof(T), out.data());
        return out;
    }

private:
    std::size_t mBytes = 0;
    std::shared_ptr<const ExternalStorage> mExternalStorage;
};

}  // namespace gl
