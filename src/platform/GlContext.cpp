#include "platform/GlContext.h"

#include "gl/Gl.h"

#include <algorithm>
#include <cctype>

namespace platform {

namespace {
std::string glString(GLenum name)
{
    const GLubyte* text = glGetString(name);
    return text ? reinterpret_cast<const char*>(text) : "";
}
}  // namespace

void GlContext::queryInfo(const std::string& platformName)
{
    mInfo.vendor = glString(GL_VENDOR);
    mInfo.renderer = glString(GL_RENDERER);
    mInfo.version = glString(GL_VERSION);
    mInfo.glslVersion = glString(GL_SHADING_LANGUAGE_VERSION);
    mInfo.platform = platformName;
    GLint count = 0;
    glGetIntegerv(GL_NUM_EXTENSIONS, &count);
    for (GLint i = 0; i < count; ++i) {
        const GLubyte* name = glGetStringi(GL_EXTENSIONS, GLuint(i));
        if (name)
            mInfo.extensions.insert(reinterpret_cast<const char*>(name));
    }
}

}  // namespace platform
