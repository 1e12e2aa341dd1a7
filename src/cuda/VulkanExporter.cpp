#include "cuda/VulkanExporter.h"

#include <glad/vulkan.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace cuda {

namespace {

constexpr VkExternalMemoryHandleTypeFlagBits kMemoryHandle = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
constexpr VkExternalSemaphoreHandleTypeFlagBits kSemaphoreHandle = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT;

[[noreturn]] void fail(const std::string& what, VkResult result)
{
    throw std::runtime_error("Vulkan: " + what + " failed (VkResult " + std::to_string(int(result)) + ")");
}

void check(VkResult result, const char* what)
{
    if (result != VK_SUCCESS)
        fail(what, result);
}

VkFormat toVkFormat(SharedImageFormat format)
{
    switch (format) {
        case SharedImageFormat::Rgba16F:
            return VK_FORMAT_R16G16B16A16_SFLOAT;
        case SharedImageFormat::Rgba32F:
            return VK_FORMAT_R32G32B32A32_SFLOAT;
    }
    return VK_FORMAT_UNDEFINED;
}

/// Everything GL may do with a texture or buffer (EXT_external_objects issue 13: the Vulkan side
/// must name every usage of the GL object that aliases it).
constexpr VkImageUsageFlags kImageUsage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_STORAGE_BIT |
                                          VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                                          VK_IMAGE_USAGE_TRANSFER_DST_BIT;
constexpr VkBufferUsageFlags kBufferUsage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT |
                                            VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                                            VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT | VK_BUFFER_USAGE_VERTEX_BUFFER_BIT |
                                            VK_BUFFER_USAGE_INDEX_BUFFER_BIT;

}  // namespace

struct VulkanDevice
{
    VkInstance instance = VK_NULL_HANDLE;
    VkPhysicalDevice physical = VK_NULL_HANDLE;
    VkDevice device = VK_NULL_HANDLE;
    VkPhysicalDeviceMemoryProperties memory{};
    std::string description;

    ~VulkanDevice()
    {
        if (device)
            vkDestroyDevice(device, nullptr);
        if (instance)
            vkDestroyInstance(instance, nullptr);
    }

    std::uint32_t deviceLocalType(std::uint32_t allowedTypes) const
    {
        for (std::uint32_t i = 0; i < memory.memoryTypeCount; ++i)
            if ((allowedTypes & (1u << i)) &&
                (memory.memoryTypes[i].propertyFlags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT))
                return i;
        throw std::runtime_error("Vulkan: no device-local memory type for an exportable allocation");
    }

    int exportMemoryFd(VkDeviceMemory memoryHandle) const
    {
        VkMemoryGetFdInfoKHR info{VK_STRUCTURE_TYPE_MEMORY_GET_FD_INFO_KHR};
        info.memory = memoryHandle;
        info.handleType = kMemoryHandle;
        int fd = -1;
        check(vkGetMemoryFdKHR(device, &info, &fd), "vkGetMemoryFdKHR");
        return fd;
    }
};

struct ExportedMemory::Objects
{
    std::shared_ptr<VulkanDevice> device;
    VkImage image = VK_NULL_HANDLE;
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;

    ~Objects()
    {
        if (image)
            vkDestroyImage(device->device, image, nullptr);
        if (buffer)
            vkDestroyBuffer(device->device, buffer, nullptr);
        if (memory)
            vkFreeMemory(device->device, memory, nullptr);
    }
};

struct ExportedSemaphore::Objects
{
    std::shared_ptr<VulkanDevice> device;
    VkSemaphore semaphore = VK_NULL_HANDLE;

    ~Objects()
    {
        if (semaphore)
            vkDestroySemaphore(device->device, semaphore, nullptr);
    }
};

ExportedMemory::ExportedMemory(std::unique_ptr<Objects> objects, std::uint64_t allocationSize, bool dedicated)
    : mObjects(std::move(objects)), mAllocationSize(allocationSize), mDedicated(dedicated)
{
}

ExportedMemory::~ExportedMemory() = default;

int ExportedMemory::exportFd() const
{
    return mObjects->device->exportMemoryFd(mObjects->memory);
}

ExportedSemaphore::ExportedSemaphore(std::unique_ptr<Objects> objects) : mObjects(std::move(objects))
{
}

ExportedSemaphore::~ExportedSemaphore() = default;

int ExportedSemaphore::exportFd() const
{
    VkSemaphoreGetFdInfoKHR info{VK_STRUCTURE_TYPE_SEMAPHORE_GET_FD_INFO_KHR};
    info.semaphore = mObjects->semaphore;
    info.handleType = kSemaphoreHandle;
    int fd = -1;
    check(vkGetSemaphoreFdKHR(mObjects->device->device, &info, &fd), "vkGetSemaphoreFdKHR");
    return fd;
}

VulkanExporter::VulkanExporter(const Uuid& deviceUuid) : mDevice(std::make_shared<VulkanDevice>())
{
    if (!gladLoaderLoadVulkan(VK_NULL_HANDLE, VK_NULL_HANDLE, VK_NULL_HANDLE) || !vkCreateInstance)
        throw std::runtime_error("no Vulkan loader (libvulkan.so.1) to allocate shared memory");

    VkApplicationInfo application{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    application.pApplicationName = "hdrlab shared memory";
    application.apiVersion = VK_API_VERSION_1_1;
    VkInstanceCreateInfo instanceInfo{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    instanceInfo.pApplicationInfo = &application;
    check(vkCreateInstance(&instanceInfo, nullptr, &mDevice->instance), "vkCreateInstance");
    if (!gladLoaderLoadVulkan(mDevice->instance, VK_NULL_HANDLE, VK_NULL_HANDLE) || !vkGetPhysicalDeviceProperties2)
        throw std::runtime_error("Vulkan: the instance offers no Vulkan 1.1");

    std::uint32_t count = 0;
    check(vkEnumeratePhysicalDevices(mDevice->instance, &count, nullptr), "vkEnumeratePhysicalDevices");
    std::vector<VkPhysicalDevice> physicals(count);
    check(vkEnumeratePhysicalDevices(mDevice->instance, &count, physicals.data()), "vkEnumeratePhysicalDevices");
    for (VkPhysicalDevice candidate : physicals) {
        VkPhysicalDeviceIDProperties ids{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES};
        VkPhysicalDeviceProperties2 properties{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
        properties.pNext = &ids;
        vkGetPhysicalDeviceProperties2(candidate, &properties);
        if (std::memcmp(ids.deviceUUID, deviceUuid.data(), deviceUuid.size()) == 0) {
            mDevice->physical = candidate;
            const std::uint32_t version = properties.properties.apiVersion;
            mDevice->description = std::string(properties.properties.deviceName) + " (Vulkan " +
                                   std::to_string(VK_VERSION_MAJOR(version)) + "." +
                                   std::to_string(VK_VERSION_MINOR(version)) + "." +
                                   std::to_string(VK_VERSION_PATCH(version)) + ")";
            break;
        }
    }
    if (!mDevice->physical)
        throw std::runtime_error("Vulkan: none of the " + std::to_string(count) +
                                 " Vulkan devices is the CUDA device (no matching device UUID)");

    // Loads the device's extension flags (GLAD_VK_KHR_*) for this physical device.
    gladLoaderLoadVulkan(mDevice->instance, mDevice->physical, VK_NULL_HANDLE);
    if (!GLAD_VK_KHR_external_memory_fd || !GLAD_VK_KHR_external_semaphore_fd)
        throw std::runtime_error("Vulkan: " + mDevice->description +
                                 " lacks VK_KHR_external_memory_fd or VK_KHR_external_semaphore_fd");

    VkPhysicalDeviceExternalSemaphoreInfo semaphoreInfo{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_SEMAPHORE_INFO};
    semaphoreInfo.handleType = kSemaphoreHandle;
    VkExternalSemaphoreProperties semaphoreProperties{VK_STRUCTURE_TYPE_EXTERNAL_SEMAPHORE_PROPERTIES};
    vkGetPhysicalDeviceExternalSemaphoreProperties(mDevice->physical, &semaphoreInfo, &semaphoreProperties);
    if (!(semaphoreProperties.externalSemaphoreFeatures & VK_EXTERNAL_SEMAPHORE_FEATURE_EXPORTABLE_BIT))
        throw std::runtime_error("Vulkan: binary semaphores cannot be exported as file descriptors on " +
                                 mDevice->description);

    // A device needs one queue; nothing is ever submitted to it.
    const float priority = 1.0f;
    VkDeviceQueueCreateInfo queue{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    queue.queueFamilyIndex = 0;
    queue.queueCount = 1;
    queue.pQueuePriorities = &priority;
    const char* extensions[] = {"VK_KHR_external_memory_fd", "VK_KHR_external_semaphore_fd"};
    VkDeviceCreateInfo deviceInfo{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    deviceInfo.queueCreateInfoCount = 1;
    deviceInfo.pQueueCreateInfos = &queue;
    deviceInfo.enabledExtensionCount = 2;
    deviceInfo.ppEnabledExtensionNames = extensions;
    check(vkCreateDevice(mDevice->physical, &deviceInfo, nullptr, &mDevice->device), "vkCreateDevice");
    if (!gladLoaderLoadVulkan(mDevice->instance, mDevice->physical, mDevice->device) || !vkGetMemoryFdKHR ||
        !vkGetSemaphoreFdKHR)
        throw std::runtime_error("Vulkan: vkGetMemoryFdKHR / vkGetSemaphoreFdKHR not found");
    vkGetPhysicalDeviceMemoryProperties(mDevice->physical, &mDevice->memory);
}

VulkanExporter::~VulkanExporter() = default;

const std::string& VulkanExporter::description() const
{
    return mDevice->description;
}

std::unique_ptr<ExportedMemory> VulkanExporter::allocateImage(SharedImageFormat format, int width, int height) const
{
    VulkanDevice& d = *mDevice;
    const VkFormat vkFormat = toVkFormat(format);

    VkPhysicalDeviceExternalImageFormatInfo externalInfo{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_IMAGE_FORMAT_INFO};
    externalInfo.handleType = kMemoryHandle;
    VkPhysicalDeviceImageFormatInfo2 formatInfo{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_FORMAT_INFO_2};
    formatInfo.pNext = &externalInfo;
    formatInfo.format = vkFormat;
    formatInfo.type = VK_IMAGE_TYPE_2D;
    formatInfo.tiling = VK_IMAGE_TILING_OPTIMAL;
    formatInfo.usage = kImageUsage;
    formatInfo.flags = VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT;
    VkExternalImageFormatProperties externalProperties{VK_STRUCTURE_TYPE_EXTERNAL_IMAGE_FORMAT_PROPERTIES};
    VkImageFormatProperties2 formatProperties{VK_STRUCTURE_TYPE_IMAGE_FORMAT_PROPERTIES_2};
    formatProperties.pNext = &externalProperties;
    check(vkGetPhysicalDeviceImageFormatProperties2(d.physical, &formatInfo, &formatProperties),
          "vkGetPhysicalDeviceImageFormatProperties2 (exportable float image)");
    if (!(externalProperties.externalMemoryProperties.externalMemoryFeatures &
          VK_EXTERNAL_MEMORY_FEATURE_EXPORTABLE_BIT))
        throw std::runtime_error("Vulkan: float images cannot be exported as file descriptors");

    auto objects = std::make_unique<ExportedMemory::Objects>();
    objects->device = mDevice;
    VkExternalMemoryImageCreateInfo externalImage{VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_IMAGE_CREATE_INFO};
    externalImage.handleTypes = kMemoryHandle;
    VkImageCreateInfo imageInfo{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    imageInfo.pNext = &externalImage;
    imageInfo.flags = VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT;
    imageInfo.imageType = VK_IMAGE_TYPE_2D;
    imageInfo.format = vkFormat;
    imageInfo.extent = {std::uint32_t(std::max(width, 1)), std::uint32_t(std::max(height, 1)), 1};
    imageInfo.mipLevels = 1;
    imageInfo.arrayLayers = 1;
    imageInfo.samples = VK_SAMPLE_COUNT_1_BIT;
    imageInfo.tiling = VK_IMAGE_TILING_OPTIMAL;
    imageInfo.usage = kImageUsage;
    imageInfo.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    imageInfo.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    check(vkCreateImage(d.device, &imageInfo, nullptr, &objects->image), "vkCreateImage");

    VkImageMemoryRequirementsInfo2 requirementsInfo{VK_STRUCTURE_TYPE_IMAGE_MEMORY_REQUIREMENTS_INFO_2};
    requirementsInfo.image = objects->image;
    VkMemoryRequirements2 requirements{VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2};
    vkGetImageMemoryRequirements2(d.device, &requirementsInfo, &requirements);

    // A dedicated allocation per image: the driver may keep layout metadata with it, which GL
    // (GL_DEDICATED_MEMORY_OBJECT_EXT) and CUDA (cudaExternalMemoryDedicated) are told about.
    VkMemoryDedicatedAllocateInfo dedicated{VK_STRUCTURE_TYPE_MEMORY_DEDICATED_ALLOCATE_INFO};
    dedicated.image = objects->image;
    VkExportMemoryAllocateInfo exportInfo{VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO};
    exportInfo.pNext = &dedicated;
    exportInfo.handleTypes = kMemoryHandle;
    VkMemoryAllocateInfo allocateInfo{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    allocateInfo.pNext = &exportInfo;
    allocateInfo.allocationSize = requirements.memoryRequirements.size;
    allocateInfo.memoryTypeIndex = d.deviceLocalType(requirements.memoryRequirements.memoryTypeBits);
    check(vkAllocateMemory(d.device, &allocateInfo, nullptr, &objects->memory), "vkAllocateMemory (image)");
    check(vkBindImageMemory(d.device, objects->image, objects->memory, 0), "vkBindImageMemory");
    return std::unique_ptr<ExportedMemory>(
        new ExportedMemory(std::move(objects), requirements.memoryRequirements.size, true));
}

std::unique_ptr<ExportedMemory> VulkanExporter::allocateBuffer(std::size_t bytes) const
{
    VulkanDevice& d = *mDevice;
    auto objects = std::make_unique<ExportedMemory::Objects>();
    objects->device = mDevice;
    VkExternalMemoryBufferCreateInfo externalBuffer{VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO};
    externalBuffer.handleTypes = kMemoryHandle;
    VkBufferCreateInfo bufferInfo{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bufferInfo.pNext = &externalBuffer;
    bufferInfo.size = std::max<std::size_t>(bytes, 4);
    bufferInfo.usage = kBufferUsage;
    bufferInfo.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    check(vkCreateBuffer(d.device, &bufferInfo, nullptr, &objects->buffer), "vkCreateBuffer");
    VkMemoryRequirements requirements{};
    vkGetBufferMemoryRequirements(d.device, objects->buffer, &requirements);

    VkExportMemoryAllocateInfo exportInfo{VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO};
    exportInfo.handleTypes = kMemoryHandle;
    VkMemoryAllocateInfo allocateInfo{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    allocateInfo.pNext = &exportInfo;
    allocateInfo.allocationSize = requirements.size;
    allocateInfo.memoryTypeIndex = d.deviceLocalType(requirements.memoryTypeBits);
    check(vkAllocateMemory(d.device, &allocateInfo, nullptr, &objects->memory), "vkAllocateMemory (buffer)");
    check(vkBindBufferMemory(d.device, objects->buffer, objects->memory, 0), "vkBindBufferMemory");
    return std::unique_ptr<ExportedMemory>(new ExportedMemory(std::move(objects), requirements.size, false));
}

std::unique_ptr<ExportedSemaphore> VulkanExporter::createSemaphore() const
{
    auto objects = std::make_unique<ExportedSemaphore::Objects>();
    objects->device = mDevice;
    VkExportSemaphoreCreateInfo exportInfo{VK_STRUCTURE_TYPE_EXPORT_SEMAPHORE_CREATE_INFO};
    exportInfo.handleTypes = kSemaphoreHandle;
    VkSemaphoreCreateInfo info{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
    info.pNext = &exportInfo;
    check(vkCreateSemaphore(mDevice->device, &info, nullptr, &objects->semaphore), "vkCreateSemaphore");
    return std::unique_ptr<ExportedSemaphore>(new ExportedSemaphore(std::move(objects)));
}

}  // namespace cuda
