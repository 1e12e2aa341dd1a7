#include "gl/Framebuffer.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

namespace gl {

Renderbuffer::Renderbuffer(std::string_view label, GLenum internalFormat, glm::ivec2 size)
{
    GLuint name = 0;
    glCreateRenderbuffers(1, &name);
    adopt(name);
    glNamedRenderbufferStorage(name, internalFormat, std::max(size.x, 1), std::max(size.y, 1));
    setLabel(label);
}

Framebuffer::Framebuffer(std::string_view label)
{
    GLuint name = 0;
    glCreateFramebuffers(1, &name);
    adopt(name);
    setLabel(label);
}

void Framebuffer::attachTexture(GLenum attachment, const Texture& texture, int level)
{
    glNamedFramebufferTexture(id(), attachment, texture.id(), level);
}

void Framebuffer::attachRenderbuffer(GLenum attachment, const Renderbuffer& renderbuffer)
{
    glNamedFramebufferRenderbuffer(id(), attachment, GL_RENDERBUFFER, renderbuffer.id());
}

void Framebuffer::setDrawBuffers(std::initializer_list<GLenum> buffers)
{
    std::vector<GLenum> list(buffers);
    glNamedFramebufferDrawBuffers(id(), GLsizei(list.size()), list.data());
}

void Framebuffer::checkComplete(std::string_view label) const
{
    GLenum status = glCheckNamedFramebufferStatus(id(), GL_FRAMEBUFFER);
    if (status != GL_FRAMEBUFFER_COMPLETE)
        throw std::runtime_error("framebuffer '" + std::string(label) + "' is incomplete (status 0x" +
                                 std::to_string(status) + ")");
}

}  // namespace gl
