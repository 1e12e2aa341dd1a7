#include "gl/Query.h"

namespace gl {

Query::Query(std::string_view label, GLenum target) : mTarget(target)
{
    GLuint name = 0;
    glCreateQueries(target, 1, &name);
    adopt(name);
    setLabel(label);
}

std::optional<std::uint64_t> Query::tryResult() const
{
    GLint available = 0;
    glGetQueryObjectiv(id(), GL_QUERY_RESULT_AVAILABLE, &available);
    if (!available)
        return std::nullopt;
    GLuint64 value = 0;
    glGetQueryObjectui64v(id(), GL_QUERY_RESULT, &value);
    return value;
}

std::uint64_t Query::waitResult() const
{
    GLuint64 value = 0;
    glGetQueryObjectui64v(id(), GL_QUERY_RESULT, &value);
    return value;
}

void Query::resultToBuffer(GLuint buffer, std::size_t offset, GLenum pname) const
{
    glGetQueryBufferObjectui64v(id(), buffer, pname, GLintptr(offset));
}

}  // namespace gl
