#include "gl/ExternalObjects.h"

#include "gl/Buffer.h"
#include "gl/Texture.h"

#include <unistd.h>

#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

namespace gl {

namespace {

/// "" when `call` raised no GL error, else a one-line message.
std::string errorAfter(const char* call)
{
    const GLenum error = glGetError();
    if (error == GL_NO_ERROR)
        return {};
    char text[128];
    std::snprintf(text, sizeof(text), "%s failed (GL error 0x%04X)", call, unsigned(error));
    return text;
}

void clearGlErrors()
{
    while (glGetError() != GL_NO_ERROR) {
    }
}

}  // namespace

bool externalObjectsSupported()
{
    return GLAD_GL_EXT_memory_object && GLAD_GL_EXT_memory_object_fd && GLAD_GL_EXT_semaphore &&
           GLAD_GL_EXT_semaphore_fd;
}

MemoryObject MemoryObject::importFd(int fd, std::uint64_t bytes, bool dedicated)
{
    if (!externalObjectsSupported()) {
        ::close(fd);
        throw std::runtime_error("GL_EXT_memory_object_fd is not supported by this GL context");
    }
    clearGlErrors();
    MemoryObject memory;
    GLuint name = 0;
    glCreateMemoryObjectsEXT(1, &name);
    memory.adopt(name);
    memory.mBytes = bytes;
    const GLint isDedicated = dedicated ? GL_TRUE : GL_FALSE;
    glMemoryObjectParameterivEXT(name, GL_DEDICATED_MEMORY_OBJECT_EXT, &isDedicated);
    glImportMemoryFdEXT(name, bytes, GL_HANDLE_TYPE_OPAQUE_FD_EXT, fd);
    if (std::string error = errorAfter("glImportMemoryFdEXT"); !error.empty()) {
        ::close(fd);  // a failed import leaves the descriptor with us
        throw std::runtime_error(error);
    }
    return memory;
}

Semaphore Semaphore::importFd(int fd)
{
    if (!externalObjectsSupported()) {
        ::close(fd);
        throw std::runtime_error("GL_EXT_semaphore_fd is not supported by this GL context");
    }
    clearGlErrors();
    Semaphore semaphore;
    GLuint name = 0;
    glGenSemaphoresEXT(1, &name);
    semaphore.adopt(name);
    glImportSemaphoreFdEXT(name, GL_HANDLE_TYPE_OPAQUE_FD_EXT, fd);
    if (std::string error = errorAfter("glImportSemaphoreFdEXT"); !error.empty()) {
        ::close(fd);
        throw std::runtime_error(error);
    }
    return semaphore;
}

void Semaphore::signal(std::span<const GLuint> buffers, std::span<const GLuint> textures) const
{
    const std::vector<GLenum> layouts(textures.size(), GL_LAYOUT_SHADER_READ_ONLY_EXT);
    glSignalSemaphoreEXT(id(), GLuint(buffers.size()), buffers.data(), GLuint(textures.size()), textures.data(),
                         layouts.data());
}

void Semaphore::wait(std::span<const GLuint> buffers, std::span<const GLuint> textures) const
{
    const std::vector<GLenum> layouts(textures.size(), GL_LAYOUT_SHADER_READ_ONLY_EXT);
    glWaitSemaphoreEXT(id(), GLuint(buffers.size()), buffers.data(), GLuint(textures.size()), textures.data(),
                       layouts.data());
}

Texture createTexture(SharedAllocator* allocator, std::string_view label, GLenum internalFormat, glm::ivec2 size)
{
    return allocator ? allocator->createTexture(label, internalFormat, size) : Texture(label, internalFormat, size);
}

Buffer createBuffer(SharedAllocator* allocator, std::string_view label, std::size_t bytes)
{
    return allocator ? allocator->createBuffer(label, bytes) : Buffer(label, bytes);
}

}  // namespace gl
