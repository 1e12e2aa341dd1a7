#include "gl/Buffer.h"

#include "gl/ExternalObjects.h"

namespace gl {

Buffer::Buffer(std::string_view label, std::size_t bytes, const void* data, GLbitfield flags) : mBytes(bytes)
{
    GLuint name = 0;
    glCreateBuffers(1, &name);
    adopt(name);
    glNamedBufferStorage(name, GLsizeiptr(bytes == 0 ? 4 : bytes), data, flags | GL_DYNAMIC_STORAGE_BIT);
    setLabel(label);
}

Buffer::Buffer(std::string_view label, std::size_t bytes, std::shared_ptr<const ExternalStorage> storage)
    : mBytes(bytes), mExternalStorage(std::move(storage))
{
    GLuint name = 0;
    glCreateBuffers(1, &name);
    adopt(name);
    glNamedBufferStorageMemEXT(name, GLsizeiptr(bytes == 0 ? 4 : bytes), mExternalStorage->memory().id(), 0);
    setLabel(label);
}

void Buffer::update(std::size_t offset, std::size_t bytes, const void* data)
{
    if (bytes == 0)
        return;
    if (!mExternalStorage) {
        glNamedBufferSubData(id(), GLintptr(offset), GLsizeiptr(bytes), data);
        return;
    }
    // Deleting the staging buffer right away is safe: GL keeps its storage until the copy ran.
    const Buffer staging("gl.update-staging", bytes, data);
    staging.copyTo(*this, 0, offset, bytes);
}

void Buffer::clearUint(std::uint32_t value)
{
    glClearNamedBufferData(id(), GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, &value);
}

void Buffer::clearUintRange(std::size_t offset, std::size_t bytes, std::uint32_t value)
{
    glClearNamedBufferSubData(id(), GL_R32UI, GLintptr(offset), GLsizeiptr(bytes), GL_RED_INTEGER, GL_UNSIGNED_INT,
                              &value);
}

void Buffer::copyTo(Buffer& dst, std::size_t srcOffset, std::size_t dstOffset, std::size_t bytes) const
{
    glCopyNamedBufferSubData(id(), dst.id(), GLintptr(srcOffset), GLintptr(dstOffset), GLsizeiptr(bytes));
}

void Buffer::bindBase(GLenum target, GLuint index) const
{
    glBindBufferBase(target, index, id());
}

void Buffer::bindRange(GLenum target, GLuint index, std::size_t offset, std::size_t bytes) const
{
    glBindBufferRange(target, index, id(), GLintptr(offset), GLsizeiptr(bytes));
}

void Buffer::read(std::size_t offset, std::size_t bytes, void* out) const
{
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    glGetNamedBufferSubData(id(), GLintptr(offset), GLsizeiptr(bytes), out);
}

}  // namespace gl
