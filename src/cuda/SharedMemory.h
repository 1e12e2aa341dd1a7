// SharedMemory.h: GL textures and buffers whose storage CUDA uses directly, ordered on the GPU by
// semaphores instead of cudaGraphicsMapResources / Unmap each frame.
//
// Technique: Vulkan allocates exportable memory and two binary semaphores (VulkanExporter.h); GL
// imports each allocation as a memory object and builds the texture or buffer on it
// (glTextureStorageMem2DEXT / glNamedBufferStorageMemEXT); CUDA imports the same allocation as a
// mipmapped array or a device pointer. A CUDA pass then runs as
//     GL: glSignalSemaphoreEXT(toCuda, objects) + glFlush     CUDA: wait(toCuda) on its stream
//     CUDA: kernels; signal(toGl)                             GL: glWaitSemaphoreEXT(toGl, objects)
// so the CPU never waits and GL's later passes queue behind CUDA's work on the GPU (InteropScope in
// GlInterop.h does this). Map/unmap, by contrast, makes the driver synchronise the GL context with
// the CUDA stream on every call, which cost the live frame 16-18 % on an H200 (docs/CUDA.md).
//
// Limits: needs GL_EXT_memory_object_fd + GL_EXT_semaphore_fd on the GL context, a Vulkan 1.1
// device with VK_KHR_external_memory_fd / _semaphore_fd on the same GPU (device UUIDs must match
// for GL, Vulkan and CUDA), and RGBA16F / RGBA32F textures (one level); other formats get plain GL
// storage. The allocator checks once, on a small texture and buffer, that GL and CUDA see the same
// bytes before anyone uses it, and refuses (with the reason) otherwise.
#pragma once

#include "cuda/ExternalImports.h"
#include "cuda/VulkanExporter.h"
#include "gl/ExternalObjects.h"

#include <cuda_runtime_api.h>

#include <memory>
#include <span>
#include <string>

namespace cuda {

/// The two semaphores of the GL <-> CUDA hand-over, each imported by both APIs.
class InteropSemaphores
{
public:
    explicit InteropSemaphores(const VulkanExporter& exporter);

    /// GL work issued so far (on the listed objects) completes before work issued next on `stream`.
    void handToCuda(std::span<const GLuint> buffers, std::span<const GLuint> textures, cudaStream_t stream) const;
    /// Work issued so far on `stream` completes before GL commands issued next.
    void handToGl(std::span<const GLuint> buffers, std::span<const GLuint> textures, cudaStream_t stream) const;

    /// A measurement, not a mode: from now on both hand-overs do nothing, so GL and CUDA run with no
    /// ordering at all and CUDA reads frames GL is still writing (wrong histograms). It shows what a
    /// CUDA stage costs the frame beyond any synchronisation (docs/CUDA.md, "switch cost").
    void dropSynchronisationForMeasurement() { mUnsynchronised = true; }

private:
    bool mUnsynchronised = false;
    std::unique_ptr<ExportedSemaphore> mToCudaExport;
    std::unique_ptr<ExportedSemaphore> mToGlExport;
    gl::Semaphore mToCudaGl;
    ExternalSemaphore mToCudaCuda;
    gl::Semaphore mToGlGl;
    ExternalSemaphore mToGlCuda;
};

/// The EGL context current when this was made (none with GLX). restore() makes it current again:
/// on an H200 the tests' EGL context (debug) was found not current after the shared-memory start
/// (cause not found yet), and every later GL call failed silently.
class EglCurrentContext
{
public:
    EglCurrentContext();
    /// Throws when the context was lost and cannot be made current again.
    void restore() const;

private:
    void* mDisplay = nullptr;  // EGLDisplay, EGLContext, EGLSurface (void* in EGL 1.5)
    void* mContext = nullptr;
    void* mDraw = nullptr;
    void* mRead = nullptr;
};

/// The Vulkan device and the semaphores every shared object of the process uses.
struct SharedDevice
{
    EglCurrentContext glContext;  ///< captured before Vulkan starts, restored before GL imports
    VulkanExporter exporter;
    InteropSemaphores semaphores;
    unsigned arrayFlags = 0;  ///< cudaArray* flags that gave CUDA the same texel layout as GL

    explicit SharedDevice(const VulkanExporter::Uuid& uuid)
        : exporter(uuid), semaphores((glContext.restore(), exporter))
    {
    }
};

/// One shared allocation as GL and CUDA see it. Owned (shared) by the gl::Texture / gl::Buffer built
/// on it and by the CUDA passes that track it, so neither view outlives the memory.
class SharedStorage final : public gl::ExternalStorage
{
public:
    /// An image: CUDA sees level 0 as array().
    SharedStorage(std::shared_ptr<SharedDevice> device, SharedImageFormat format, int width, int height);
    /// A buffer: CUDA sees it at pointer().
    SharedStorage(std::shared_ptr<SharedDevice> device, std::size_t bytes);
    /// Waits for the CUDA stream first, so no kernel still reads memory that is released.
    ~SharedStorage() override;

    const gl::MemoryObject& memory() const override { return mGlMemory; }
    cudaArray_t array() const { return mArray.level(); }
    void* pointer() const { return mPointer.get(); }
    const InteropSemaphores& semaphores() const { return mDevice->semaphores; }

private:
    std::shared_ptr<SharedDevice> mDevice;
    std::unique_ptr<ExportedMemory> mExported;
    gl::MemoryObject mGlMemory;
    ExternalMemory mCudaMemory;
    ExternalMipmappedArray mArray;
    ExternalBufferPointer mPointer;
};

/// The CUDA side's storage of a GL texture or buffer, when it has one.
const SharedStorage* sharedStorageOf(const gl::Texture& texture);
const SharedStorage* sharedStorageOf(const gl::Buffer& buffer);

class SharedAllocator final : public gl::SharedAllocator
{
public:
    /// An allocator on the CUDA context's device, or null with the reason in `whyNot`. Needs a
    /// current GL context on the CUDA device (cuda::probeCudaForGl said so). One Vulkan device per
    /// process: allocators made while another lives share it.
    static std::unique_ptr<SharedAllocator> create(std::string* whyNot);

    /// RGBA16F / RGBA32F: shared; other formats: plain GL storage.
    gl::Texture createTexture(std::string_view label, GLenum internalFormat, glm::ivec2 size) override;
    gl::Buffer createBuffer(std::string_view label, std::size_t bytes) override;
    /// "Vulkan-allocated memory on NVIDIA H200 (Vulkan 1.3.289), semaphores"
    std::string describe() const;

private:
    explicit SharedAllocator(std::shared_ptr<SharedDevice> device) : mDevice(std::move(device)) {}
    std::shared_ptr<SharedDevice> mDevice;
};

}  // namespace cuda
