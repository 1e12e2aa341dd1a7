// GlInterop.h: CUDA access to GL objects for the duration of one CUDA pass, in one of two ways.
//
// 1. Shared memory (SharedMemory.h): textures and buffers built on memory GL and CUDA both imported
//    are used in place; the pass hands them to CUDA with a GL-signalled semaphore the stream waits
//    on, and back with a CUDA-signalled semaphore GL waits on. Nothing waits on the CPU and the
//    driver does not synchronise the two APIs beyond those two points.
// 2. Map/unmap, for every other GL object: registered with CUDA once (registration is expensive),
//    re-registered only when the object changes (another name, size or format: a resize or
//    recreation); all of a pass's resources are mapped in ONE cudaGraphicsMapResources call on the
//    CUDA context's stream and unmapped after the pass's kernels. Map orders the GL work issued
//    before it ahead of the stream's later CUDA work, unmap orders the CUDA work ahead of later GL
//    work. The driver implements this by synchronising GL with CUDA on each call, which costs the
//    frame far more than the kernels (docs/CUDA.md).
// A pass mixing both kinds does both (map for the first, semaphores for the second).
// GL reuses the names of deleted objects, so a texture or buffer deleted and recreated at the same
// size would look unchanged and CUDA would keep writing the old storage. On registration the
// object's debug label gets a unique " [cuda N]" suffix appended; a later frame whose object's label
// lacks it (a recreated object gets a fresh label) re-registers. One glGetObjectLabel per resource
// per frame (client-side state, no GPU wait). A shared object is recognised by its storage, which the
// registration keeps alive, so it cannot be mistaken for a later one.
#pragma once

#include "gl/Buffer.h"
#include "gl/Texture.h"

#include "cuda/CudaRaii.h"

#include <cuda_gl_interop.h>

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace gl {
class ExternalStorage;
}

namespace cuda {

class SharedStorage;
class InteropSemaphores;

/// One GL object (texture or buffer) a CUDA pass uses: its shared storage, or its CUDA registration
/// (unregistered in the destructor).
class GlRegistration
{
public:
    enum class Access { ReadOnly, WriteDiscard, ReadWrite };

    GlRegistration() = default;
    ~GlRegistration() { reset(); }
    GlRegistration(GlRegistration&& other) noexcept
        : mResource(takeHandle(other.mResource)),
          mName(takeHandle(other.mName)),
          mBytes(takeHandle(other.mBytes)),
          mWidth(takeHandle(other.mWidth)),
          mHeight(takeHandle(other.mHeight)),
          mFormat(takeHandle(other.mFormat)),
          mIsTexture(takeHandle(other.mIsTexture)),
          mTag(std::move(other.mTag)),
          mShared(std::move(other.mShared))
    {
    }
    GlRegistration& operator=(GlRegistration&& other) noexcept;
    GlRegistration(const GlRegistration&) = delete;
    GlRegistration& operator=(const GlRegistration&) = delete;

    /// Tracks `texture` (GL_TEXTURE_2D, read-only): its shared storage, or a registration, unless it
    /// is the one already tracked; true when it changed.
    bool track(const gl::Texture& texture);
    /// Tracks `buffer` (accessed with `access`) likewise; true when it changed.
    bool track(const gl::Buffer& buffer, Access access);

    /// The CUDA registration; null for a shared object.
    cudaGraphicsResource_t resource() const { return mResource; }
    /// The shared storage; null for a registered object.
    const SharedStorage* shared() const;
    bool tracking() const { return mResource != nullptr || mShared != nullptr; }
    bool isTexture() const { return mIsTexture; }
    GLuint name() const { return mName; }
    std::size_t bytes() const { return mBytes; }
    void reset();

private:
    cudaGraphicsResource_t mResource = nullptr;
    GLuint mName = 0;
    std::size_t mBytes = 0;
    int mWidth = 0;
    int mHeight = 0;
    GLenum mFormat = 0;
    bool mIsTexture = false;
    std::string mTag;  ///< the label suffix that identifies the registered object
    std::shared_ptr<const gl::ExternalStorage> mShared;
};

/// CUDA access to a pass's tracked GL objects on `stream`, from construction to destruction (also
/// when the pass throws): shared objects are handed over with the semaphores, the others mapped in
/// one call and unmapped. Objects named twice are handed over or mapped once.
class InteropScope
{
public:
    InteropScope(std::vector<const GlRegistration*> registrations, cudaStream_t stream);
    ~InteropScope();
    InteropScope(const InteropScope&) = delete;
    InteropScope& operator=(const InteropScope&) = delete;

    /// Device pointer and size of a buffer.
    void* pointer(const GlRegistration& registration, std::size_t* bytes = nullptr) const;
    /// Level 0 of a texture as a CUDA array (valid during the scope; a shared one for its lifetime).
    cudaArray_t array(const GlRegistration& registration) const;
    /// True when nothing was mapped (every object shared).
    bool withoutMap() const { return mMapped.empty(); }

private:
    std::vector<cudaGraphicsResource_t> mMapped;
    std::vector<GLuint> mSharedBuffers;
    std::vector<GLuint> mSharedTextures;
    const InteropSemaphores* mSemaphores = nullptr;
    cudaStream_t mStream = nullptr;
};

using MappedResources = InteropScope;  // TEMPORARY until the adapters are renamed after the layout merge

}  // namespace cuda
