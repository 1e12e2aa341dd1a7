#include "cuda/SharedMemory.h"

#include "cuda/CudaContext.h"
#include "gl/Buffer.h"
#include "gl/Framebuffer.h"
#include "gl/Texture.h"
#include "util/Log.h"

#include <glad/egl.h>
#include <glm/vec4.hpp>

#include <cstdlib>
#include <cstring>
#include <exception>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <vector>

namespace cuda {

namespace {

cudaChannelFormatDesc channelFormat(SharedImageFormat format)
{
    const int bits = format == SharedImageFormat::Rgba16F ? 16 : 32;
    return cudaCreateChannelDesc(bits, bits, bits, bits, cudaChannelFormatKindFloat);
}

std::optional<SharedImageFormat> sharedFormatOf(GLenum internalFormat)
{
    switch (internalFormat) {
        case GL_RGBA16F:
            return SharedImageFormat::Rgba16F;
        case GL_RGBA32F:
            return SharedImageFormat::Rgba32F;
        default:
            return std::nullopt;
    }
}

std::string hexOf(const VulkanExporter::Uuid& uuid)
{
    static const char* digits = "0123456789abcdef";
    std::string text;
    for (std::uint8_t byte : uuid) {
        text += digits[byte >> 4];
        text += digits[byte & 15];
    }
    return text;
}

/// "" when one of the GL context's devices has `uuid` (GL_EXT_memory_object's UUID query), else
/// what GL reported.
std::string glDeviceMismatch(const VulkanExporter::Uuid& uuid)
{
    GLint count = 0;
    glGetIntegerv(GL_NUM_DEVICE_UUIDS_EXT, &count);
    std::string seen;
    for (GLint i = 0; i < count; ++i) {
        VulkanExporter::Uuid glUuid{};
        glGetUnsignedBytei_vEXT(GL_DEVICE_UUID_EXT, GLuint(i), glUuid.data());
        if (glUuid == uuid)
            return {};
        seen += (seen.empty() ? "" : ", ") + hexOf(glUuid);
    }
    return "GL reports device UUIDs [" + seen + "], CUDA " + hexOf(uuid);
}

/// The value of texel channel `c` at (x, y) in the self-check (finite half-float bit patterns).
std::uint16_t checkTexel(int x, int y, int c)
{
    const std::uint32_t hash =
        (std::uint32_t(x) * 73856093u) ^ (std::uint32_t(y) * 19349663u) ^ (std::uint32_t(c) * 83492791u);
    return std::uint16_t(hash & 0x7BFFu);  // exponent < 31: never Inf or NaN
}

/// Writes a small shared texture the ways the app does (a framebuffer clear, a scissored clear, an
/// upload) and a shared buffer from both sides, hands them over with the semaphores and compares
/// what the other API sees. "" when all agree, else what differed.
std::string checkSharedLayout(const std::shared_ptr<SharedDevice>& device)
{
    constexpr int kWidth = 197, kHeight = 133;     // odd sizes across several tiles
    constexpr glm::ivec4 kScissor{17, 9, 90, 60};  // x, y, width, height
    constexpr glm::ivec4 kUpload{120, 70, 64, 50};
    constexpr std::size_t kWords = 1024;
    const cudaStream_t stream = CudaContext::instance().stream();

    auto imageStorage = std::make_shared<SharedStorage>(device, SharedImageFormat::Rgba16F, kWidth, kHeight);
    gl::Texture texture("cuda.shared-check.texture", GL_RGBA16F, {kWidth, kHeight}, imageStorage);
    gl::Framebuffer framebuffer("cuda.shared-check.framebuffer");
    framebuffer.attachTexture(GL_COLOR_ATTACHMENT0, texture);
    framebuffer.setDrawBuffers({GL_COLOR_ATTACHMENT0});
    framebuffer.checkComplete("cuda.shared-check.framebuffer");
    const float background[4] = {1.0f, 2.0f, 0.5f, 1.0f};
    const float rectangle[4] = {-3.0f, 1024.0f, 0.25f, 0.0f};
    glDisable(GL_SCISSOR_TEST);
    glClearNamedFramebufferfv(framebuffer.id(), GL_COLOR, 0, background);
    glEnable(GL_SCISSOR_TEST);
    glScissor(kScissor.x, kScissor.y, kScissor.z, kScissor.w);
    glClearNamedFramebufferfv(framebuffer.id(), GL_COLOR, 0, rectangle);
    glDisable(GL_SCISSOR_TEST);
    std::vector<std::uint16_t> upload(std::size_t(kUpload.z) * kUpload.w * 4);
    for (int y = 0; y < kUpload.w; ++y)
        for (int x = 0; x < kUpload.z; ++x)
            for (int c = 0; c < 4; ++c)
                upload[(std::size_t(y) * kUpload.z + x) * 4 + c] = checkTexel(kUpload.x + x, kUpload.y + y, c);
    glTextureSubImage2D(texture.id(), 0, kUpload.x, kUpload.y, kUpload.z, kUpload.w, GL_RGBA, GL_HALF_FLOAT,
                        upload.data());

    auto bufferStorage = std::make_shared<SharedStorage>(device, kWords * sizeof(std::uint32_t));
    gl::Buffer buffer("cuda.shared-check.buffer", kWords * sizeof(std::uint32_t), bufferStorage);
    std::vector<std::uint32_t> fromGl(kWords), fromCuda(kWords / 2);
    for (std::size_t i = 0; i < kWords; ++i)
        fromGl[i] = std::uint32_t(i * 2654435761u);
    for (std::size_t i = 0; i < fromCuda.size(); ++i)
        fromCuda[i] = ~std::uint32_t(i * 40503u);
    buffer.update(std::span<const std::uint32_t>(fromGl));

    const GLuint buffers[] = {buffer.id()};
    const GLuint textures[] = {texture.id()};
    device->semaphores.handToCuda(buffers, textures, stream);
    std::vector<std::uint16_t> seen(std::size_t(kWidth) * kHeight * 4);
    std::vector<std::uint32_t> seenWords(kWords);
    CUDA_CHECK(cudaMemcpy2DFromArrayAsync(seen.data(), kWidth * 8, imageStorage->array(), 0, 0, kWidth * 8, kHeight,
                                          cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaMemcpyAsync(seenWords.data(), bufferStorage->pointer(), kWords * 4, cudaMemcpyDeviceToHost, stream));
    auto* upperHalf = static_cast<std::uint32_t*>(bufferStorage->pointer()) + kWords / 2;
    CUDA_CHECK(cudaMemcpyAsync(upperHalf, fromCuda.data(), fromCuda.size() * 4, cudaMemcpyHostToDevice, stream));
    device->semaphores.handToGl(buffers, textures, stream);
    CUDA_CHECK(cudaStreamSynchronize(stream));
    const auto glSees = buffer.readAll<std::uint32_t>(kWords);  // waits for GL, which waited for CUDA

    auto halfOf = [](float value) {
        // exact for the few values used above
        std::uint32_t bits;
        std::memcpy(&bits, &value, 4);
        const std::uint32_t sign = (bits >> 16) & 0x8000u;
        const int exponent = int((bits >> 23) & 0xFFu) - 127 + 15;
        const std::uint32_t mantissa = (bits >> 13) & 0x3FFu;
        return value == 0.0f ? std::uint16_t(sign) : std::uint16_t(sign | (std::uint32_t(exponent) << 10) | mantissa);
    };
    int wrongTexels = 0;
    for (int y = 0; y < kHeight; ++y) {
        for (int x = 0; x < kWidth; ++x) {
            for (int c = 0; c < 4; ++c) {
                std::uint16_t expected = halfOf(background[c]);
                if (x >= kScissor.x && x < kScissor.x + kScissor.z && y >= kScissor.y && y < kScissor.y + kScissor.w)
                    expected = halfOf(rectangle[c]);
                if (x >= kUpload.x && x < kUpload.x + kUpload.z && y >= kUpload.y && y < kUpload.y + kUpload.w)
                    expected = checkTexel(x, y, c);
                wrongTexels += seen[(std::size_t(y) * kWidth + x) * 4 + c] != expected;
            }
        }
    }
    int wrongWords = 0;
    for (std::size_t i = 0; i < kWords; ++i)
        wrongWords += seenWords[i] != fromGl[i];
    int wrongBack = 0;
    for (std::size_t i = 0; i < fromCuda.size(); ++i)
        wrongBack += glSees[kWords / 2 + i] != fromCuda[i];
    for (std::size_t i = 0; i < kWords / 2; ++i)
        wrongBack += glSees[i] != fromGl[i];
    if (wrongTexels == 0 && wrongWords == 0 && wrongBack == 0)
        return {};
    return std::to_string(wrongTexels) + " texel channels, " + std::to_string(wrongWords) + " buffer words GL->CUDA, " +
           std::to_string(wrongBack) + " words CUDA->GL differ";
}

}  // namespace

EglCurrentContext::EglCurrentContext()
{
    if (eglGetCurrentContext == nullptr)  // no EGL in this process (a GLX window): nothing to keep
        return;
    mDisplay = eglGetCurrentDisplay();
    mContext = eglGetCurrentContext();
    mDraw = eglGetCurrentSurface(EGL_DRAW);
    mRead = eglGetCurrentSurface(EGL_READ);
}

void EglCurrentContext::restore() const
{
    if (mContext == EGL_NO_CONTEXT || eglGetCurrentContext() == mContext)
        return;
    util::logWarning("CUDA-GL shared memory: the GL context is no longer current; making it current again");
    eglInitialize(mDisplay, nullptr, nullptr);  // in case the display was terminated
    if (!eglMakeCurrent(mDisplay, mDraw, mRead, mContext))
        throw std::runtime_error("the GL context is no longer current and cannot be made current again (EGL error " +
                                 std::to_string(eglGetError()) + ")");
}

InteropSemaphores::InteropSemaphores(const VulkanExporter& exporter)
    : mToCudaExport(exporter.createSemaphore()), mToGlExport(exporter.createSemaphore())
{
    mToCudaGl = gl::Semaphore::importFd(mToCudaExport->exportFd());
    mToCudaCuda = ExternalSemaphore::importFd(mToCudaExport->exportFd());
    mToGlGl = gl::Semaphore::importFd(mToGlExport->exportFd());
    mToGlCuda = ExternalSemaphore::importFd(mToGlExport->exportFd());
}

void InteropSemaphores::handToCuda(std::span<const GLuint> buffers,
                                   std::span<const GLuint> textures,
                                   cudaStream_t stream) const
{
    if (mUnsynchronised)
        return;
    mToCudaGl.signal(buffers, textures);
    glFlush();  // the signal must reach the GPU: CUDA's wait does not flush GL
    mToCudaCuda.wait(stream);
}

void InteropSemaphores::handToGl(std::span<const GLuint> buffers,
                                 std::span<const GLuint> textures,
                                 cudaStream_t stream) const
{
    if (mUnsynchronised)
        return;
    mToGlCuda.signal(stream);
    mToGlGl.wait(buffers, textures);
}

SharedStorage::SharedStorage(std::shared_ptr<SharedDevice> device, SharedImageFormat format, int width, int height)
    : mDevice(std::move(device)), mExported(mDevice->exporter.allocateImage(format, width, height))
{
    mGlMemory = gl::MemoryObject::importFd(mExported->exportFd(), mExported->allocationSize(), mExported->dedicated());
    mCudaMemory = ExternalMemory::importFd(mExported->exportFd(), mExported->allocationSize(), mExported->dedicated());
    mArray = ExternalMipmappedArray(mCudaMemory, channelFormat(format), width, height, mDevice->arrayFlags);
}

SharedStorage::SharedStorage(std::shared_ptr<SharedDevice> device, std::size_t bytes)
    : mDevice(std::move(device)), mExported(mDevice->exporter.allocateBuffer(bytes))
{
    mGlMemory = gl::MemoryObject::importFd(mExported->exportFd(), mExported->allocationSize(), false);
    mCudaMemory = ExternalMemory::importFd(mExported->exportFd(), mExported->allocationSize(), false);
    mPointer = ExternalBufferPointer(mCudaMemory, std::max<std::size_t>(bytes, 4));
}

SharedStorage::~SharedStorage()
{
    ignoreError(cudaStreamSynchronize(CudaContext::instance().stream()));
}

const SharedStorage* sharedStorageOf(const gl::Texture& texture)
{
    return dynamic_cast<const SharedStorage*>(texture.externalStorage().get());
}

const SharedStorage* sharedStorageOf(const gl::Buffer& buffer)
{
    return dynamic_cast<const SharedStorage*>(buffer.externalStorage().get());
}

std::unique_ptr<SharedAllocator> SharedAllocator::create(std::string* whyNot)
{
    auto refuse = [&](std::string reason) {
        if (whyNot)
            *whyNot = std::move(reason);
        return std::unique_ptr<SharedAllocator>();
    };
    if (const auto& reason = deviceUnavailableReason())
        return refuse(*reason);
    if (!gl::externalObjectsSupported())
        return refuse("the GL context lacks GL_EXT_memory_object_fd / GL_EXT_semaphore_fd");

    // However it ends, the caller's GL context is current afterwards: on an H200 the tests' context was
    // found not current after a refused attempt, and every later GL call failed silently.
    struct RestoreOnExit
    {
        EglCurrentContext context;
        ~RestoreOnExit()
        {
            try {
                context.restore();
            } catch (const std::exception& failure) {
                util::logError("CUDA-GL shared memory: {}", failure.what());
            }
        }
    } restoreOnExit;

    static std::mutex mutex;
    static std::weak_ptr<SharedDevice> existing;
    std::lock_guard lock(mutex);
    if (auto device = existing.lock())
        return std::unique_ptr<SharedAllocator>(new SharedAllocator(std::move(device)));

    try {
        const CudaContext& context = CudaContext::instance();
        VulkanExporter::Uuid uuid{};
        std::memcpy(uuid.data(), context.properties().uuid.bytes, uuid.size());
        // Seen on an H200 test context: GL reported no matching UUID although GL, CUDA and Vulkan share
        // the GPU. The self-check below is what decides; the mismatch is only logged.
        if (const std::string mismatch = glDeviceMismatch(uuid); !mismatch.empty())
            util::logInfo("CUDA-GL shared memory: {}; trying anyway (the self-check decides)", mismatch);
        auto device = std::make_shared<SharedDevice>(uuid);
        // CUDA must be told how the image is used to read GL's texel layout; check which flags do.
        std::string mismatches;
        for (unsigned flags :
             {unsigned(cudaArrayColorAttachment), 0u, unsigned(cudaArrayColorAttachment | cudaArraySurfaceLoadStore)}) {
            device->arrayFlags = flags;
            const std::string mismatch = checkSharedLayout(device);
            if (mismatch.empty()) {
                existing = device;
                util::logInfo("CUDA-GL shared memory: {} (cudaArray flags {})", device->exporter.description(), flags);
                if (const char* value = std::getenv("HDRLAB_INTEROP_UNSYNCHRONISED"); value && *value == '1') {
                    util::logWarning(
                        "HDRLAB_INTEROP_UNSYNCHRONISED=1: GL and CUDA run unordered, for measuring the "
                        "context-switch cost only; CUDA histograms are NOT valid");
                    device->semaphores.dropSynchronisationForMeasurement();
                }
                return std::unique_ptr<SharedAllocator>(new SharedAllocator(std::move(device)));
            }
            mismatches += (mismatches.empty() ? "" : "; ") + ("flags " + std::to_string(flags) + ": " + mismatch);
        }
        return refuse("GL and CUDA see different bytes in shared memory (" + mismatches + ")");
    } catch (const std::exception& failure) {
        (void)cudaGetLastError();
        return refuse(failure.what());
    }
}

gl::Texture SharedAllocator::createTexture(std::string_view label, GLenum internalFormat, glm::ivec2 size)
{
    const std::optional<SharedImageFormat> format = sharedFormatOf(internalFormat);
    if (!format)
        return gl::Texture(label, internalFormat, size);
    size = glm::max(size, glm::ivec2(1));
    return gl::Texture(label, internalFormat, size, std::make_shared<SharedStorage>(mDevice, *format, size.x, size.y));
}

gl::Buffer SharedAllocator::createBuffer(std::string_view label, std::size_t bytes)
{
    return gl::Buffer(label, bytes, std::make_shared<SharedStorage>(mDevice, bytes));
}

std::string SharedAllocator::describe() const
{
    return "memory allocated by Vulkan on " + mDevice->exporter.description() + ", ordered by semaphores";
}

}  // namespace cuda
