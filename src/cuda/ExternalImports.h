// ExternalImports.h: move-only owners of what CUDA imports from another API through file
// descriptors: external memory (cudaImportExternalMemory) with its device pointer
// (cudaExternalMemoryGetMappedBuffer) or mipmapped array (cudaExternalMemoryGetMappedMipmappedArray),
// and binary semaphores (cudaImportExternalSemaphore) signalled and waited on a stream. CUDA owns a
// descriptor once its import succeeded; on failure it is closed here and CUDA_CHECK throws.
#pragma once

#include "cuda/CudaRaii.h"

#include <cuda_runtime_api.h>
#include <unistd.h>

#include <cstdint>

namespace cuda {

class ExternalMemory
{
public:
    ExternalMemory() = default;
    static ExternalMemory importFd(int fd, std::uint64_t bytes, bool dedicated)
    {
        cudaExternalMemoryHandleDesc desc{};
        desc.type = cudaExternalMemoryHandleTypeOpaqueFd;
        desc.handle.fd = fd;
        desc.size = bytes;
        desc.flags = dedicated ? cudaExternalMemoryDedicated : 0;
        ExternalMemory memory;
        const cudaError_t error = cudaImportExternalMemory(&memory.mMemory, &desc);
        if (error != cudaSuccess)
            ::close(fd);
        CUDA_CHECK(error);
        return memory;
    }
    ~ExternalMemory()
    {
        if (mMemory)
            ignoreError(cudaDestroyExternalMemory(mMemory));
    }
    ExternalMemory(ExternalMemory&& other) noexcept : mMemory(takeHandle(other.mMemory)) {}
    ExternalMemory& operator=(ExternalMemory&& other) noexcept
    {
        std::swap(mMemory, other.mMemory);
        return *this;
    }
    ExternalMemory(const ExternalMemory&) = delete;
    ExternalMemory& operator=(const ExternalMemory&) = delete;
    cudaExternalMemory_t get() const { return mMemory; }

private:
    cudaExternalMemory_t mMemory = nullptr;
};

/// The device pointer of `bytes` at offset 0 of an external memory (freed with cudaFree).
class ExternalBufferPointer
{
public:
    ExternalBufferPointer() = default;
    ExternalBufferPointer(const ExternalMemory& memory, std::uint64_t bytes)
    {
        cudaExternalMemoryBufferDesc desc{};
        desc.offset = 0;
        desc.size = bytes;
        CUDA_CHECK(cudaExternalMemoryGetMappedBuffer(&mPointer, memory.get(), &desc));
    }
    ~ExternalBufferPointer()
    {
        if (mPointer)
            ignoreError(cudaFree(mPointer));
    }
    ExternalBufferPointer(ExternalBufferPointer&& other) noexcept : mPointer(takeHandle(other.mPointer)) {}
    ExternalBufferPointer& operator=(ExternalBufferPointer&& other) noexcept
    {
        std::swap(mPointer, other.mPointer);
        return *this;
    }
    ExternalBufferPointer(const ExternalBufferPointer&) = delete;
    ExternalBufferPointer& operator=(const ExternalBufferPointer&) = delete;
    void* get() const { return mPointer; }

private:
    void* mPointer = nullptr;
};

/// A one-level mipmapped array over an external image; level() is its level-0 array.
class ExternalMipmappedArray
{
public:
    ExternalMipmappedArray() = default;
    /// `flags`: cudaArray* flags describing how the exporter may use the image (colour attachment...).
    ExternalMipmappedArray(const ExternalMemory& memory,
                           const cudaChannelFormatDesc& format,
                           int width,
                           int height,
                           unsigned flags)
    {
        cudaExternalMemoryMipmappedArrayDesc desc{};
        desc.offset = 0;
        desc.formatDesc = format;
        desc.extent = cudaExtent{std::size_t(width), std::size_t(height), 0};  // depth 0: a 2-D image
        desc.flags = flags;
        desc.numLevels = 1;
        CUDA_CHECK(cudaExternalMemoryGetMappedMipmappedArray(&mArray, memory.get(), &desc));
        CUDA_CHECK(cudaGetMipmappedArrayLevel(&mLevel, mArray, 0));
    }
    ~ExternalMipmappedArray()
    {
        if (mArray)
            ignoreError(cudaFreeMipmappedArray(mArray));
    }
    ExternalMipmappedArray(ExternalMipmappedArray&& other) noexcept
        : mArray(takeHandle(other.mArray)), mLevel(takeHandle(other.mLevel))
    {
    }
    ExternalMipmappedArray& operator=(ExternalMipmappedArray&& other) noexcept
    {
        std::swap(mArray, other.mArray);
        std::swap(mLevel, other.mLevel);
        return *this;
    }
    ExternalMipmappedArray(const ExternalMipmappedArray&) = delete;
    ExternalMipmappedArray& operator=(const ExternalMipmappedArray&) = delete;
    cudaArray_t level() const { return mLevel; }

private:
    cudaMipmappedArray_t mArray = nullptr;
    cudaArray_t mLevel = nullptr;
};

class ExternalSemaphore
{
public:
    ExternalSemaphore() = default;
    static ExternalSemaphore importFd(int fd)
    {
        cudaExternalSemaphoreHandleDesc desc{};
        desc.type = cudaExternalSemaphoreHandleTypeOpaqueFd;
        desc.handle.fd = fd;
        ExternalSemaphore semaphore;
        const cudaError_t error = cudaImportExternalSemaphore(&semaphore.mSemaphore, &desc);
        if (error != cudaSuccess)
            ::close(fd);
        CUDA_CHECK(error);
        return semaphore;
    }
    ~ExternalSemaphore()
    {
        if (mSemaphore)
            ignoreError(cudaDestroyExternalSemaphore(mSemaphore));
    }
    ExternalSemaphore(ExternalSemaphore&& other) noexcept : mSemaphore(takeHandle(other.mSemaphore)) {}
    ExternalSemaphore& operator=(ExternalSemaphore&& other) noexcept
    {
        std::swap(mSemaphore, other.mSemaphore);
        return *this;
    }
    ExternalSemaphore(const ExternalSemaphore&) = delete;
    ExternalSemaphore& operator=(const ExternalSemaphore&) = delete;

    /// Work issued on `stream` after this waits until the other API signalled.
    void wait(cudaStream_t stream) const
    {
        cudaExternalSemaphoreWaitParams params{};
        CUDA_CHECK(cudaWaitExternalSemaphoresAsync(&mSemaphore, &params, 1, stream));
    }
    /// Signalled once the work issued on `stream` before this has completed.
    void signal(cudaStream_t stream) const
    {
        cudaExternalSemaphoreSignalParams params{};
        CUDA_CHECK(cudaSignalExternalSemaphoresAsync(&mSemaphore, &params, 1, stream));
    }

private:
    cudaExternalSemaphore_t mSemaphore = nullptr;
};

}  // namespace cuda
