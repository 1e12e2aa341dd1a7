// Framebuffer.h: framebuffer objects (glCreateFramebuffers) and renderbuffers.
#pragma once

#include "gl/Object.h"
#include "gl/Texture.h"

#include <initializer_list>
#include <string_view>

namespace gl {

class Renderbuffer : public Object<ObjectKind::Renderbuffer>
{
public:
    Renderbuffer() = default;
    Renderbuffer(std::string_view label, GLenum internalFormat, glm::ivec2 size);
};

class Framebuffer : public Object<ObjectKind::Framebuffer>
{
public:
    Framebuffer() = default;
    explicit Framebuffer(std::string_view label);

    void attachTexture(GLenum attachment, const Texture& texture, int level = 0);
    void attachRenderbuffer(GLenum attachment, const Renderbuffer& renderbuffer);
    void setDrawBuffers(std::initializer_list<GLenum> buffers);
    /// Throws std::runtime_error naming the label when the framebuffer is incomplete.
    void checkComplete(std::string_view label) const;
    void bind() const { glBindFramebuffer(GL_FRAMEBUFFER, id()); }
};

}  // namespace gl
