// VulkanExporter.h: Vulkan as the allocator of memory and semaphores that GL and CUDA share.
//
// Neither GL nor CUDA can create a semaphore another API imports, and GL cannot allocate memory
// another API imports (EXT_external_objects issue 3), so a Vulkan 1.1 device on the same GPU
// (matched by device UUID) allocates: images (optimal tiling, a dedicated allocation each, every
// usage GL may put them to, MUTABLE_FORMAT as the GL interop rules ask), buffers, and binary
// semaphores, all exportable as opaque POSIX file descriptors (VK_KHR_external_memory_fd,
// VK_KHR_external_semaphore_fd). Vulkan never records a command: it only allocates. The loader is
// glad's, opened at run time (libvulkan.so.1); without it, or without a matching device, the
// constructor throws the reason and hdrlab keeps CUDA's map/unmap interop.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace cuda {

/// Formats of exportable images (the HDR frame and other float targets).
enum class SharedImageFormat { Rgba16F, Rgba32F };

struct VulkanDevice;  // instance + device, shared by everything allocated from them

/// One exported allocation (an image with its dedicated memory, or a buffer with its memory).
/// Each importer gets its own descriptor from exportFd(); the Vulkan objects live as long as this.
class ExportedMemory
{
public:
    ~ExportedMemory();
    ExportedMemory(const ExportedMemory&) = delete;
    ExportedMemory& operator=(const ExportedMemory&) = delete;

    /// A new descriptor for one import; the importer takes ownership of it.
    int exportFd() const;
    std::uint64_t allocationSize() const { return mAllocationSize; }
    bool dedicated() const { return mDedicated; }

    struct Objects;  ///< the Vulkan handles (VulkanExporter.cpp), freed in its destructor

private:
    friend class VulkanExporter;
    explicit ExportedMemory(std::unique_ptr<Objects> objects, std::uint64_t allocationSize, bool dedicated);
    std::unique_ptr<Objects> mObjects;
    std::uint64_t mAllocationSize = 0;
    bool mDedicated = false;
};

/// One exported binary semaphore.
class ExportedSemaphore
{
public:
    ~ExportedSemaphore();
    ExportedSemaphore(const ExportedSemaphore&) = delete;
    ExportedSemaphore& operator=(const ExportedSemaphore&) = delete;
    /// A new descriptor for one import; the importer takes ownership of it.
    int exportFd() const;

    struct Objects;

private:
    friend class VulkanExporter;
    explicit ExportedSemaphore(std::unique_ptr<Objects> objects);
    std::unique_ptr<Objects> mObjects;
};

class VulkanExporter
{
public:
    using Uuid = std::array<std::uint8_t, 16>;

    /// Opens the Vulkan device whose UUID is `deviceUuid` (the CUDA device's); throws
    /// std::runtime_error with the reason when there is no loader, no such device or no export.
    explicit VulkanExporter(const Uuid& deviceUuid);
    ~VulkanExporter();
    VulkanExporter(const VulkanExporter&) = delete;
    VulkanExporter& operator=(const VulkanExporter&) = delete;

    std::unique_ptr<ExportedMemory> allocateImage(SharedImageFormat format, int width, int height) const;
    std::unique_ptr<ExportedMemory> allocateBuffer(std::size_t bytes) const;
    std::unique_ptr<ExportedSemaphore> createSemaphore() const;
    /// "NVIDIA H200 (Vulkan 1.3.289)"
    const std::string& description() const;

private:
    std::shared_ptr<VulkanDevice> mDevice;
};

}  // namespace cuda
