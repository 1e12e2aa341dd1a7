#include "gl/VertexArray.h"

namespace gl {

VertexArray::VertexArray(std::string_view label)
{
    GLuint name = 0;
    glCreateVertexArrays(1, &name);
    adopt(name);
    setLabel(label);
}

void VertexArray::setVertexBuffer(GLuint binding, const Buffer& buffer, std::size_t offset, GLsizei stride)
{
    glVertexArrayVertexBuffer(id(), binding, buffer.id(), GLintptr(offset), stride);
}

void VertexArray::setIndexBuffer(const Buffer& buffer)
{
    glVertexArrayElementBuffer(id(), buffer.id());
}

void VertexArray::setAttribute(GLuint location, GLuint binding, int components, GLuint relativeOffset)
{
    glEnableVertexArrayAttrib(id(), location);
    glVertexArrayAttribFormat(id(), location, components, GL_FLOAT, GL_FALSE, relativeOffset);
    glVertexArrayAttribBinding(id(), location, binding);
}

}  // namespace gl
