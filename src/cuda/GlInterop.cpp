#include "cuda/GlInterop.h"

#include "cuda/SharedMemory.h"
#include "util/Log.h"

#include <algorithm>
#include <exception>
#include <stdexcept>

namespace cuda {

namespace {

std::string objectLabel(GLenum identifier, GLuint name)
{
    if (!glGetObjectLabel)
        return {};
    char text[512];
    GLsizei length = 0;
    glGetObjectLabel(identifier, name, GLsizei(sizeof(text)), &length, text);
    return std::string(text, std::size_t(std::max<GLsizei>(length, 0)));
}

bool hasTag(GLenum identifier, GLuint name, const std::string& tag)
{
    if (!glGetObjectLabel || tag.empty())
        return true;  // cannot tell: trust name, size and format
    // "contains": several registrations (a histogram method, a scan) may tag the same object.
    return objectLabel(identifier, name).find(tag) != std::string::npos;
}

/// Appends a unique suffix to the object's label and returns it.
std::string tagObject(GLenum identifier, GLuint name)
{
    if (!glObjectLabel)
        return {};
    static unsigned long long counter = 0;
    std::string tag = " [cuda " + std::to_string(++counter) + "]";
    std::string label = objectLabel(identifier, name);
    // Labels are capped at GL_MAX_LABEL_LENGTH (NVIDIA: 256; a longer one is a GL error). Objects
    // re-registered many times (bench pipeline's sweep) drop their oldest tags first; a registration
    // whose tag is gone simply re-registers when it next checks.
    GLint maxLength = 256;
    glGetIntegerv(GL_MAX_LABEL_LENGTH, &maxLength);
    while (!label.empty() && label.size() + tag.size() >= std::size_t(std::max(maxLength, 1))) {
        std::size_t first = label.find(" [cuda ");
        std::size_t end = first == std::string::npos ? std::string::npos : label.find(']', first);
        if (end == std::string::npos)
            label.clear();
        else
            label.erase(first, end - first + 1);
    }
    label += tag;
    if (label.size() >= std::size_t(std::max(maxLength, 1)))
        return {};  // even the tag alone does not fit: leave the label as it is
    glObjectLabel(identifier, name, GLsizei(label.size()), label.c_str());
    return tag;
}

}  // namespace

GlRegistration& GlRegistration::operator=(GlRegistration&& other) noexcept
{
    if (this != &other) {
        reset();
        mResource = takeHandle(other.mResource);
        mName = takeHandle(other.mName);
        mBytes = takeHandle(other.mBytes);
        mWidth = takeHandle(other.mWidth);
        mHeight = takeHandle(other.mHeight);
        mFormat = takeHandle(other.mFormat);
        mIsTexture = takeHandle(other.mIsTexture);
        mTag = std::move(other.mTag);
        mShared = std::move(other.mShared);
    }
    return *this;
}

const SharedStorage* GlRegistration::shared() const
{
    return static_cast<const SharedStorage*>(mShared.get());  // only SharedStorage is ever kept
}

void GlRegistration::reset()
{
    if (mResource)
        ignoreError(cudaGraphicsUnregisterResource(mResource));
    mResource = nullptr;
    mName = 0;
    mBytes = 0;
    mWidth = mHeight = 0;
    mFormat = 0;
    mIsTexture = false;
    mTag.clear();
    mShared.reset();
}

bool GlRegistration::track(const gl::Texture& texture)
{
    if (!texture.valid())
        throw std::invalid_argument("CUDA interop: no GL texture");
    if (sharedStorageOf(texture)) {
        if (mShared == texture.externalStorage() && mName == texture.id())
            return false;
        reset();
        mShared = texture.externalStorage();
        mName = texture.id();
        mWidth = texture.size().x;
        mHeight = texture.size().y;
        mFormat = texture.format();
        mIsTexture = true;
        return true;
    }
    if (mResource && mName == texture.id() && mWidth == texture.size().x && mHeight == texture.size().y &&
        mFormat == texture.format() && hasTag(GL_TEXTURE, mName, mTag))
        return false;
    reset();
    CUDA_CHECK(cudaGraphicsGLRegisterImage(&mResource, texture.id(), GL_TEXTURE_2D, cudaGraphicsRegisterFlagsReadOnly));
    mName = texture.id();
    mWidth = texture.size().x;
    mHeight = texture.size().y;
    mFormat = texture.format();
    mIsTexture = true;
    mTag = tagObject(GL_TEXTURE, mName);
    return true;
}

bool GlRegistration::track(const gl::Buffer& buffer, Access access)
{
    if (!buffer.valid())
        throw std::invalid_argument("CUDA interop: no GL buffer");
    if (sharedStorageOf(buffer)) {
        if (mShared == buffer.externalStorage() && mName == buffer.id())
            return false;
        reset();
        mShared = buffer.externalStorage();
        mName = buffer.id();
        mBytes = buffer.size();
        return true;
    }
    if (mResource && mName == buffer.id() && mBytes == buffer.size() && hasTag(GL_BUFFER, mName, mTag))
        return false;
    reset();
    const unsigned flags = access == Access::ReadOnly       ? cudaGraphicsRegisterFlagsReadOnly
                           : access == Access::WriteDiscard ? cudaGraphicsRegisterFlagsWriteDiscard
                                                            : cudaGraphicsRegisterFlagsNone;
    CUDA_CHECK(cudaGraphicsGLRegisterBuffer(&mResource, buffer.id(), flags));
    mName = buffer.id();
    mBytes = buffer.size();
    mTag = tagObject(GL_BUFFER, mName);
    return true;
}

InteropScope::InteropScope(std::vector<const GlRegistration*> registrations, cudaStream_t stream) : mStream(stream)
{
    for (const GlRegistration* registration : registrations) {
        if (!registration || !registration->tracking())
            throw std::logic_error("CUDA interop: using an untracked GL object");
        if (const SharedStorage* shared = registration->shared()) {
            std::vector<GLuint>& names = registration->isTexture() ? mSharedTextures : mSharedBuffers;
            if (std::find(names.begin(), names.end(), registration->name()) == names.end())
                names.push_back(registration->name());
            mSemaphores = &shared->semaphores();
        } else if (std::find(mMapped.begin(), mMapped.end(), registration->resource()) == mMapped.end()) {
            mMapped.push_back(registration->resource());
        }
    }
    if (!mMapped.empty())
        CUDA_CHECK(cudaGraphicsMapResources(int(mMapped.size()), mMapped.data(), mStream));
    if (mSemaphores)
        mSemaphores->handToCuda(mSharedBuffers, mSharedTextures, mStream);
}

InteropScope::~InteropScope()
{
    if (mSemaphores) {
        try {
            mSemaphores->handToGl(mSharedBuffers, mSharedTextures, mStream);
        } catch (const std::exception& failure) {
            util::logError("CUDA interop: handing GL objects back failed: {}", failure.what());
        }
    }
    if (!mMapped.empty())
        ignoreError(cudaGraphicsUnmapResources(int(mMapped.size()), mMapped.data(), mStream));
}

void* InteropScope::pointer(const GlRegistration& registration, std::size_t* bytes) const
{
    if (const SharedStorage* shared = registration.shared()) {
        if (bytes)
            *bytes = registration.bytes();
        return shared->pointer();
    }
    void* pointer = nullptr;
    std::size_t size = 0;
    CUDA_CHECK(cudaGraphicsResourceGetMappedPointer(&pointer, &size, registration.resource()));
    if (bytes)
        *bytes = size;
    return pointer;
}

cudaArray_t InteropScope::array(const GlRegistration& registration) const
{
    if (const SharedStorage* shared = registration.shared())
        return shared->array();
    cudaArray_t array = nullptr;
    CUDA_CHECK(cudaGraphicsSubResourceGetMappedArray(&array, registration.resource(), 0, 0));
    return array;
}

}  // namespace cuda
