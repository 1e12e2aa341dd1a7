// CudaRaii.h: small move-only owners of CUDA runtime objects (device memory and scratch, streams, events,
// arrays, texture objects, GL interop registrations). Each frees its object in the destructor and
// never throws there; creation failures throw through CUDA_CHECK. Device allocations (DeviceBuffer,
// CudaArray) are counted while alive, so a soak can prove that a long run allocates nothing new.
#pragma once

#include "cuda/CudaCheck.h"

#include <cuda_runtime_api.h>

#include <atomic>
#include <cstddef>
#include <utility>

namespace cuda {

/// Device allocations (cudaMalloc, cudaMallocArray) made through these owners and not yet freed.
/// Inline, so one counter serves every translation unit, .cu and .cpp alike.
inline std::atomic<int>& deviceAllocationCounter()
{
    static std::atomic<int> count{0};
    return count;
}

/// Moves a handle out, leaving the default ("none") value behind.
template <typename Handle>
Handle takeHandle(Handle& handle)
{
    return std::exchange(handle, Handle{});
}

/// `count` elements of T in device memory (cudaMalloc; contents undefined until written).
template <typename T>
class DeviceBuffer
{
public:
    DeviceBuffer() = default;
    explicit DeviceBuffer(std::size_t count) { resize(count); }
    ~DeviceBuffer() { release(); }
    DeviceBuffer(DeviceBuffer&& other) noexcept : mData(takeHandle(other.mData)), mCount(takeHandle(other.mCount)) {}
    DeviceBuffer& operator=(DeviceBuffer&& other) noexcept
    {
        if (this != &other) {
            release();
            mData = takeHandle(other.mData);
            mCount = takeHandle(other.mCount);
        }
        return *this;
    }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;

    /// Reallocates (contents lost) when `count` differs from the current size.
    void resize(std::size_t count)
    {
        if (count == mCount)
            return;
        release();
        if (count > 0) {
            void* data = nullptr;
            CUDA_CHECK(cudaMalloc(&data, count * sizeof(T)));
            mData = static_cast<T*>(data);
            mCount = count;
            deviceAllocationCounter().fetch_add(1, std::memory_order_relaxed);
        }
    }
    /// Grows (contents lost) when smaller than `count`; never shrinks.
    void reserve(std::size_t count)
    {
        if (count > mCount)
            resize(count);
    }

    T* data() { return mData; }
    const T* data() const { return mData; }
    std::size_t size() const { return mCount; }
    std::size_t bytes() const { return mCount * sizeof(T); }

private:
    void release()
    {
        if (mData) {
            ignoreError(cudaFree(mData));
            deviceAllocationCounter().fetch_sub(1, std::memory_order_relaxed);
        }
        mData = nullptr;
        mCount = 0;
    }
    T* mData = nullptr;
    std::size_t mCount = 0;
};

/// Device scratch memory that grows on demand and never shrinks: the workspace of the multi-tile
/// scans (tile totals per level, CUB temporary storage) and of the integral images (scratch images,
/// segment totals). Growing calls cudaMalloc, which synchronises: keep one per caller and reuse it,
/// so steady-state calls allocate nothing.
class DeviceScratch
{
public:
    /// At least `bytes` bytes of device scratch, 256-byte aligned (cudaMalloc's alignment); the
    /// contents are undefined after a call that grows it.
    void* reserve(std::size_t bytes)
    {
        mBytes.reserve(bytes);
        return mBytes.data();
    }

private:
    DeviceBuffer<unsigned char> mBytes;
};

class Stream
{
public:
    Stream() = default;
    static Stream createNonBlocking()
    {
        Stream stream;
        CUDA_CHECK(cudaStreamCreateWithFlags(&stream.mStream, cudaStreamNonBlocking));
        return stream;
    }
    ~Stream()
    {
        if (mStream)
            ignoreError(cudaStreamDestroy(mStream));
    }
    Stream(Stream&& other) noexcept : mStream(takeHandle(other.mStream)) {}
    Stream& operator=(Stream&& other) noexcept
    {
        std::swap(mStream, other.mStream);
        return *this;
    }
    Stream(const Stream&) = delete;
    Stream& operator=(const Stream&) = delete;
    cudaStream_t get() const { return mStream; }

private:
    cudaStream_t mStream = nullptr;
};

class Event
{
public:
    Event() = default;
    static Event create(unsigned flags = cudaEventDefault)
    {
        Event event;
        CUDA_CHECK(cudaEventCreateWithFlags(&event.mEvent, flags));
        return event;
    }
    ~Event()
    {
        if (mEvent)
            ignoreError(cudaEventDestroy(mEvent));
    }
    Event(Event&& other) noexcept : mEvent(takeHandle(other.mEvent)) {}
    Event& operator=(Event&& other) noexcept
    {
        std::swap(mEvent, other.mEvent);
        return *this;
    }
    Event(const Event&) = delete;
    Event& operator=(const Event&) = delete;
    cudaEvent_t get() const { return mEvent; }

private:
    cudaEvent_t mEvent = nullptr;
};

/// A 2D CUDA array (cudaMallocArray), e.g. the RGBA16F frame for texture-path tests and benchmarks.
class CudaArray
{
public:
    CudaArray() = default;
    CudaArray(const cudaChannelFormatDesc& format, std::size_t width, std::size_t height)
    {
        CUDA_CHECK(cudaMallocArray(&mArray, &format, width, height));
        deviceAllocationCounter().fetch_add(1, std::memory_order_relaxed);
    }
    ~CudaArray()
    {
        if (mArray) {
            ignoreError(cudaFreeArray(mArray));
            deviceAllocationCounter().fetch_sub(1, std::memory_order_relaxed);
        }
    }
    CudaArray(CudaArray&& other) noexcept : mArray(takeHandle(other.mArray)) {}
    CudaArray& operator=(CudaArray&& other) noexcept
    {
        std::swap(mArray, other.mArray);
        return *this;
    }
    CudaArray(const CudaArray&) = delete;
    CudaArray& operator=(const CudaArray&) = delete;
    cudaArray_t get() const { return mArray; }

private:
    cudaArray_t mArray = nullptr;
};

/// A texture object over a CUDA array: point sampling, unnormalised coordinates, clamp, element
/// type reads (a half-float array reads as float4).
class TextureObject
{
public:
    TextureObject() = default;
    explicit TextureObject(cudaArray_t array)
    {
        cudaResourceDesc resource{};
        resource.resType = cudaResourceTypeArray;
        resource.res.array.array = array;
        cudaTextureDesc texture{};
        texture.addressMode[0] = cudaAddressModeClamp;
        texture.addressMode[1] = cudaAddressModeClamp;
        texture.filterMode = cudaFilterModePoint;
        texture.readMode = cudaReadModeElementType;
        texture.normalizedCoords = 0;
        CUDA_CHECK(cudaCreateTextureObject(&mTexture, &resource, &texture, nullptr));
    }
    ~TextureObject()
    {
        if (mTexture)
            ignoreError(cudaDestroyTextureObject(mTexture));
    }
    TextureObject(TextureObject&& other) noexcept : mTexture(takeHandle(other.mTexture)) {}
    TextureObject& operator=(TextureObject&& other) noexcept
    {
        std::swap(mTexture, other.mTexture);
        return *this;
    }
    TextureObject(const TextureObject&) = delete;
    TextureObject& operator=(const TextureObject&) = delete;
    cudaTextureObject_t get() const { return mTexture; }

private:
    cudaTextureObject_t mTexture = 0;
};

}  // namespace cuda
