#include "gl/Object.h"

#include <atomic>

namespace gl {
namespace {
std::array<std::atomic<int>, std::size_t(ObjectKind::Count)> gLiveObjects{};
}

int liveObjectCount(ObjectKind kind)
{
    return gLiveObjects[std::size_t(kind)].load(std::memory_order_relaxed);
}

int liveObjectCountTotal()
{
    int total = 0;
    for (const std::atomic<int>& count : gLiveObjects)
        total += count.load(std::memory_order_relaxed);
    return total;
}

std::string_view toString(ObjectKind kind)
{
    switch (kind) {
        case ObjectKind::Buffer:
            return "buffer";
        case ObjectKind::Texture:
            return "texture";
        case ObjectKind::Framebuffer:
            return "framebuffer";
        case ObjectKind::Renderbuffer:
            return "renderbuffer";
        case ObjectKind::Program:
            return "program";
        case ObjectKind::Shader:
            return "shader";
        case ObjectKind::Query:
            return "query";
        case ObjectKind::VertexArray:
            return "vertex-array";
        case ObjectKind::Sampler:
            return "sampler";
        case ObjectKind::MemoryObject:
            return "memory-object";
        case ObjectKind::Semaphore:
            return "semaphore";
        case ObjectKind::Count:
            break;
    }
    return "unknown";
}

namespace detail {

void trackCreated(ObjectKind kind)
{
    gLiveObjects[std::size_t(kind)].fetch_add(1, std::memory_order_relaxed);
}

void trackDestroyed(ObjectKind kind)
{
    gLiveObjects[std::size_t(kind)].fetch_sub(1, std::memory_order_relaxed);
}

void deleteObject(ObjectKind kind, GLuint name)
{
    switch (kind) {
        case ObjectKind::Buffer:
            glDeleteBuffers(1, &name);
            break;
        case ObjectKind::Texture:
            glDeleteTextures(1, &name);
            break;
        case ObjectKind::Framebuffer:
            glDeleteFramebuffers(1, &name);
            break;
        case ObjectKind::Renderbuffer:
            glDeleteRenderbuffers(1, &name);
            break;
        case ObjectKind::Program:
            glDeleteProgram(name);
            break;
        case ObjectKind::Shader:
            glDeleteShader(name);
            break;
        case ObjectKind::Query:
            glDeleteQueries(1, &name);
            break;
        case ObjectKind::VertexArray:
            glDeleteVertexArrays(1, &name);
            break;
        case ObjectKind::Sampler:
            glDeleteSamplers(1, &name);
            break;
        case ObjectKind::MemoryObject:
            glDeleteMemoryObjectsEXT(1, &name);
            break;
        case ObjectKind::Semaphore:
            glDeleteSemaphoresEXT(1, &name);
            break;
        case ObjectKind::Count:
            break;
    }
}

GLenum labelNamespace(ObjectKind kind)
{
    switch (kind) {
        case ObjectKind::Buffer:
            return GL_BUFFER;
        case ObjectKind::Texture:
            return GL_TEXTURE;
        case ObjectKind::Framebuffer:
            return GL_FRAMEBUFFER;
        case ObjectKind::Renderbuffer:
            return GL_RENDERBUFFER;
        case ObjectKind::Program:
            return GL_PROGRAM;
        case ObjectKind::Shader:
            return GL_SHADER;
        case ObjectKind::Query:
            return GL_QUERY;
        case ObjectKind::VertexArray:
            return GL_VERTEX_ARRAY;
        case ObjectKind::Sampler:
            return GL_SAMPLER;
        case ObjectKind::MemoryObject:
            return GL_NONE;  // KHR_debug has no namespace for these
        case ObjectKind::Semaphore:
            return GL_NONE;
        case ObjectKind::Count:
            break;
    }
    return GL_BUFFER;
}

}  // namespace detail
}  // namespace gl
