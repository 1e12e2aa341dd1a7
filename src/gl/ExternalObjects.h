// ExternalObjects.h: GL's side of memory and semaphores that another API allocated
// (GL_EXT_memory_object(_fd), GL_EXT_semaphore(_fd)): a memory object imported from a file
// descriptor, textures and buffers whose storage lies in it, and binary semaphores that order GL
// work against the other API's work on the GPU, without a CPU wait.
//
// GL cannot allocate exportable memory or semaphores itself (EXT_external_objects issue 3): another
// API (here Vulkan, src/cuda/VulkanExporter.h) allocates, exports file descriptors, and GL and CUDA
// import them. Limits: a buffer on imported memory cannot be mapped (glNamedBufferSubData is
// replaced by a staged copy in gl::Buffer::update) and textures must match the allocating API's
// image (format, size, levels, tiling). Mesa's llvmpipe (22.3) lists neither extension.
#pragma once

#include "gl/Object.h"

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>

#include <glm/vec2.hpp>

namespace gl {

class Buffer;
class Texture;

/// True when the current context can import memory and semaphores from file descriptors.
bool externalObjectsSupported();

/// A GL memory object holding imported external memory (glCreateMemoryObjectsEXT).
class MemoryObject : public Object<ObjectKind::MemoryObject>
{
public:
    MemoryObject() = default;
    /// Imports `bytes` of memory from `fd` (an opaque POSIX handle); GL owns `fd` afterwards, also
    /// when the import fails (then it throws). `dedicated`: the memory was allocated for one image.
    static MemoryObject importFd(int fd, std::uint64_t bytes, bool dedicated);
    std::uint64_t size() const { return mBytes; }

private:
    std::uint64_t mBytes = 0;
};

/// A binary semaphore imported from a file descriptor (glGenSemaphoresEXT + glImportSemaphoreFdEXT).
/// signal() inserts a signal into the GL command stream after everything issued before it; wait()
/// makes later GL commands wait for the other API's signal. Both name the buffers and textures whose
/// memory the other API touches, so GL makes them available / visible.
class Semaphore : public Object<ObjectKind::Semaphore>
{
public:
    Semaphore() = default;
    /// GL owns `fd` afterwards, also when the import fails (then it throws).
    static Semaphore importFd(int fd);

    /// Textures are handed over in GL_LAYOUT_SHADER_READ_ONLY_EXT (the other API reads them).
    void signal(std::span<const GLuint> buffers, std::span<const GLuint> textures) const;
    void wait(std::span<const GLuint> buffers, std::span<const GLuint> textures) const;
};

/// Memory another API allocated and GL imported, kept alive by the textures and buffers that store
/// their data in it. Subclasses add the other API's view of the same memory (cuda::SharedStorage).
class ExternalStorage
{
public:
    virtual ~ExternalStorage() = default;
    /// The imported memory (storage for exactly one texture or buffer).
    virtual const MemoryObject& memory() const = 0;
};

/// Creates textures and buffers whose storage another API can use without copies or map/unmap.
/// Implemented by cuda::SharedAllocator; null where that is unavailable (then callers make plain
/// GL objects).
class SharedAllocator
{
public:
    virtual ~SharedAllocator() = default;
    virtual Texture createTexture(std::string_view label, GLenum internalFormat, glm::ivec2 size) = 0;
    virtual Buffer createBuffer(std::string_view label, std::size_t bytes) = 0;
};

/// A texture from `allocator` when there is one, else a plain texture (one level).
Texture createTexture(SharedAllocator* allocator, std::string_view label, GLenum internalFormat, glm::ivec2 size);
/// A buffer from `allocator` when there is one, else a plain buffer.
Buffer createBuffer(SharedAllocator* allocator, std::string_view label, std::size_t bytes);

}  // namespace gl
