#include "gl/Debug.h"

#include "util/Log.h"

#include <atomic>
#include <mutex>
#include <stdexcept>

namespace gl {
namespace {

std::atomic<int> gErrorCount{0};
std::mutex gMessageMutex;
std::string gLastError;

void GLAPIENTRY onDebugMessage(GLenum source,
                               GLenum type,
                               GLuint id,
                               GLenum severity,
                               GLsizei length,
                               const GLchar* message,
                               const void*)
{
    (void)id;
    std::string text(message, length < 0 ? std::char_traits<char>::length(message) : std::size_t(length));
    // The compiler's errors reach the caller as the ShaderLibrary's exception, with file and line
    // (a shader reload keeps the last good program): not a GL error of the frame.
    if (type == GL_DEBUG_TYPE_ERROR && source == GL_DEBUG_SOURCE_SHADER_COMPILER) {
        util::logDebug("GL shader compiler: {}", text);
    } else if (type == GL_DEBUG_TYPE_ERROR) {
        ++gErrorCount;
        {
            std::lock_guard lock(gMessageMutex);
            gLastError = text;
        }
        util::logError("GL error: {}", text);
    } else if (severity == GL_DEBUG_SEVERITY_HIGH || severity == GL_DEBUG_SEVERITY_MEDIUM) {
        if (type != GL_DEBUG_TYPE_PUSH_GROUP && type != GL_DEBUG_TYPE_POP_GROUP)
            util::logDebug("GL: {}", text);
    }
}

}  // namespace

void installDebugCallback(bool errorsAreFatal)
{
    if (!glDebugMessageCallback)
        return;
    (void)errorsAreFatal;
    glEnable(GL_DEBUG_OUTPUT);
    glEnable(GL_DEBUG_OUTPUT_SYNCHRONOUS);
    glDebugMessageCallback(onDebugMessage, nullptr);
    glDebugMessageControl(GL_DONT_CARE, GL_DONT_CARE, GL_DEBUG_SEVERITY_NOTIFICATION, 0, nullptr, GL_FALSE);
}

int takeErrorCount()
{
    while (glGetError() != GL_NO_ERROR)
        ++gErrorCount;
    return gErrorCount.exchange(0);
}

std::string lastErrorMessage()
{
    std::lock_guard lock(gMessageMutex);
    return gLastError;
}

void checkNoErrors(std::string_view where)
{
    if (takeErrorCount() > 0)
        throw std::runtime_error("GL error during " + std::string(where) + ": " + lastErrorMessage());
}

DebugGroup::DebugGroup(std::string_view name)
{
    if (glPushDebugGroup)
        glPushDebugGroup(GL_DEBUG_SOURCE_APPLICATION, 0, GLsizei(name.size()), name.data());
}

DebugGroup::~DebugGroup()
{
    if (glPopDebugGroup)
        glPopDebugGroup();
}

}  // namespace gl
