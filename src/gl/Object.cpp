#include "gl/Object.h"

#include <atomic>

namespace gl {
namespace {
std::array<std::atomic<int>, std::size_t(ObjectKind::Count)> gLiveObjects{};
}

int liveObjectCount(ObjectKind kind)
{
    return gLiveObjects[std::size_t(kind)].load();
}

namespace detail {

void trackCreated(ObjectKind kind)
{
    ++gLiveObjects[std::size_t(kind)];
}

void trackDestroyed(ObjectKind kind)
{
    --gLiveObjects[std::size_t(kind)];
}

void deleteObject(ObjectKind kind, GLuint name)
{
    switch (kind) {
    case ObjectKind::Buffer: glDeleteBuffers(1, &name); break;
    case ObjectKind::Texture: glDeleteTextures(1, &name); break;
    case ObjectKind::Framebuffer: glDeleteFramebuffers(1, &name); break;
    case ObjectKind::Renderbuffer: glDeleteRenderbuffers(1, &name); break;
    case ObjectKind::Program: glDeleteProgram(name); break;
    case ObjectKind::Shader: glDeleteShader(name); break;
    case ObjectKind::Query: glDeleteQueries(1, &name); break;
    case ObjectKind::VertexArray: glDeleteVertexArrays(1, &name); break;
    case ObjectKind::Sampler: glDeleteSamplers(1, &name); break;
    case ObjectKind::MemoryObject: glDeleteMemoryObjectsEXT(1, &name); break;
    case ObjectKind::Semaphore: glDeleteSemaphoresEXT(1, &name); break;
    case ObjectKind::Count: break;
    }
}

GLenum labelNamespace(ObjectKind kind)
{
    switch (kind) {
    case ObjectKind::Buffer: return GL_BUFFER;
    case ObjectKind::Texture: return GL_TEXTURE;
    case ObjectKind::Framebuffer: return GL_FRAMEBUFFER;
    case ObjectKind::Renderbuffer: return GL_RENDERBUFFER;
    case ObjectKind::Program: return GL_PROGRAM;
    case ObjectKind::Shader: return GL_SHADER;
    case ObjectKind::Query: return GL_QUERY;
    case ObjectKind::VertexArray: return GL_VERTEX_ARRAY;
    case ObjectKind::Sampler: return GL_SAMPLER;
    case ObjectKind::MemoryObject: return GL_NONE; // KHR_debug has no namespace for these
    case ObjectKind::Semaphore: return GL_NONE;
    case ObjectKind::Count: break;
    }
    return GL_BUFFER;
}

} // namespace detail
} // namespace gl
