// VertexArray.h: vertex array objects set up with DSA (glVertexArrayVertexBuffer/AttribFormat).
#pragma once

#include "gl/Buffer.h"
#include "gl/Object.h"

#include <string_view>

namespace gl {

class VertexArray : public Object<ObjectKind::VertexArray>
{
public:
    VertexArray() = default;
    explicit VertexArray(std::string_view label);

    void setVertexBuffer(GLuint binding, const Buffer& buffer, std::size_t offset, GLsizei stride);
    void setIndexBuffer(const Buffer& buffer);
    /// Float attribute `location` of `components` floats at `relativeOffset` in `binding`.
    void setAttribute(GLuint location, GLuint binding, int components, GLuint relativeOffset);
    void bind() const { glBindVertexArray(id()); }
};

}  // namespace gl
