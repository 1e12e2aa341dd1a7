// Object.h: a move-only owner of one GL object name, the base of every wrapper in src/gl.
//
// Each wrapper creates its object with DSA (glCreate*), labels it for debuggers (glObjectLabel) and
// deletes it in its destructor. A process-wide live-object count per kind lets tests prove that
// moves and destruction leak nothing.
#pragma once

#include "gl/Gl.h"

#include <array>
#include <cstddef>
#include <string_view>
#include <utility>

namespace gl {

enum class ObjectKind {
    Buffer,
    Texture,
    Framebuffer,
    Renderbuffer,
    Program,
    Shader,
    Query,
    VertexArray,
    Sampler,
    MemoryObject,  ///< GL_EXT_memory_object (no debug label namespace)
    Semaphore,     ///< GL_EXT_semaphore (no debug label namespace)
    Count
};

/// Number of live objects of a kind created through these wrappers (leak tests, --resource-report).
/// One relaxed atomic per kind, changed only at creation and destruction: free in the frame loop.
int liveObjectCount(ObjectKind kind);
/// Sum of liveObjectCount over every kind.
int liveObjectCountTotal();
/// Short lowercase name of a kind ("buffer", "vertex-array"), for reports.
std::string_view toString(ObjectKind kind);

namespace detail {
void trackCreated(ObjectKind kind);
void trackDestroyed(ObjectKind kind);
void deleteObject(ObjectKind kind, GLuint name);
GLenum labelNamespace(ObjectKind kind);
}  // namespace detail

template <ObjectKind Kind>
class Object
{
public:
    Object() = default;
    ~Object() { reset(); }
    Object(const Object&) = delete;
    Object& operator=(const Object&) = delete;
    Object(Object&& other) noexcept : mName(std::exchange(other.mName, 0u)) {}
    Object& operator=(Object&& other) noexcept
    {
        if (this != &other) {
            reset();
            mName = std::exchange(other.mName, 0u);
        }
        return *this;
    }

    GLuint id() const { return mName; }
    bool valid() const { return mName != 0u; }
    explicit operator bool() const { return valid(); }

    /// Names the object for debuggers and the KHR_debug log.
    void setLabel(std::string_view label) const
    {
        if (mName != 0u && glObjectLabel && detail::labelNamespace(Kind) != GL_NONE)
            glObjectLabel(detail::labelNamespace(Kind), mName, GLsizei(label.size()), label.data());
    }

    void reset()
    {
        if (mName != 0u) {
            detail::deleteObject(Kind, mName);
            detail::trackDestroyed(Kind);
            mName = 0u;
        }
    }

protected:
    /// Takes ownership of a freshly created name.
    void adopt(GLuint name)
    {
        reset();
        mName = name;
        if (name != 0u)
            detail::trackCreated(Kind);
    }

private:
    GLuint mName = 0u;
};

}  // namespace gl
