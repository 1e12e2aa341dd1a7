// Query.h: GL query objects (timer, occlusion) created with glCreateQueries.
#pragma once

#include "gl/Object.h"

#include <cstdint>
#include <optional>
#include <string_view>

namespace gl {

class Query : public Object<ObjectKind::Query>
{
public:
    Query() = default;
    Query(std::string_view label, GLenum target);

    GLenum target() const { return mTarget; }
    void begin() const { glBeginQuery(mTarget, id()); }
    void end() const { glEndQuery(mTarget); }
    void timestamp() const { glQueryCounter(id(), GL_TIMESTAMP); }
    /// The result if it is available now; never waits.
    std::optional<std::uint64_t> tryResult() const;
    /// Waits for the result (the "classic" stalling readback some methods demonstrate).
    std::uint64_t waitResult() const;
    /// Writes the result into `buffer` at `offset` without a CPU round trip (ARB_query_buffer_object).
    void resultToBuffer(GLuint buffer, std::size_t offset, GLenum pname = GL_QUERY_RESULT) const;

private:
    GLenum mTarget = 0;
};

}  // namespace gl
