// GlInterop.h: CUDA-OpenGL interop. GL objects are registered with CUDA once (registration is
// expensive) and re-registered only when the object changes (another name, size or format: a
// resize or recreation); each frame all resources of a pass are mapped in ONE
// cudaGraphicsMapResources call on the CUDA context's stream and unmapped after the pass's
// kernels. Map orders the GL work issued before it ahead of the stream's later CUDA work, unmap
// orders the CUDA work ahead of later GL work, so neither glFinish nor a device sync is needed.
// GL reuses the names of deleted objects, so a texture or buffer deleted and recreated at the same
// size would look unchanged and CUDA would keep writing the old storage. On registration the
// object's debug label gets a unique " [cuda N]" suffix appended; a later frame whose object's label
// lacks it (a recreated object gets a fresh label) re-registers. One glGetObjectLabel per resource
// per frame (client-side state, no GPU wait).
#pragma once

#include "gl/Buffer.h"
#include "gl/Texture.h"

#include "cuda/CudaRaii.h"

#include <cuda_gl_interop.h>

#include <cstddef>
#include <string>
#include <vector>

namespace cuda {

/// One registered GL object (texture or buffer); unregistered in the destructor.
class GlRegistration
{
public:
    enum class Access { ReadOnly, WriteDiscard, ReadWrite };

    GlRegistration() = default;
    ~GlRegistration() { reset(); }
    GlRegistration(GlRegistration&& other) noexcept
        : mResource(takeHandle(other.mResource)), mName(takeHandle(other.mName)), mBytes(takeHandle(other.mBytes)),
          mWidth(takeHandle(other.mWidth)), mHeight(takeHandle(other.mHeight)), mFormat(takeHandle(other.mFormat)),
          mTag(std::move(other.mTag))
    {
    }
    GlRegistration& operator=(GlRegistration&& other) noexcept;
    GlRegistration(const GlRegistration&) = delete;
    GlRegistration& operator=(const GlRegistration&) = delete;

    /// Registers `texture` (GL_TEXTURE_2D, read-only) unless it is the one already registered;
    /// true when it (re)registered.
    bool track(const gl::Texture& texture);
    /// Registers `buffer` with `access` unless it is the one already registered; true when it
    /// (re)registered.
    bool track(const gl::Buffer& buffer, Access access);

    cudaGraphicsResource_t resource() const { return mResource; }
    GLuint name() const { return mName; }
    void reset();

private:
    cudaGraphicsResource_t mResource = nullptr;
    GLuint mName = 0;
    std::size_t mBytes = 0;
    int mWidth = 0;
    int mHeight = 0;
    GLenum mFormat = 0;
    std::string mTag; ///< the label suffix that identifies the registered object
};

/// Maps a set of registrations in one call on `stream`; unmaps them (same stream) when destroyed,
/// also when the pass throws. Registrations naming the same GL object are mapped once.
class MappedResources
{
public:
    MappedResources(std::vector<const GlRegistration*> registrations, cudaStream_t stream);
    ~MappedResources();
    MappedResources(const MappedResources&) = delete;
    MappedResources& operator=(const MappedResources&) = delete;

    /// Device pointer and size of a mapped buffer.
    void* pointer(const GlRegistration& registration, std::size_t* bytes = nullptr) const;
    /// Level 0 of a mapped texture as a CUDA array (valid until unmapped).
    cudaArray_t array(const GlRegistration& registration) const;

private:
    std::vector<cudaGraphicsResource_t> mResources;
    cudaStream_t mStream = nullptr;
};

} // namespace cuda
