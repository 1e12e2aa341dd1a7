// Debug.h: KHR_debug output and debug groups.
//
// installDebugCallback routes driver messages to the log; with `errorsAreFatal` (tests and debug
// builds) a GL_DEBUG_TYPE_ERROR message is recorded and makes checkNoErrors() throw, so a GL error
// anywhere fails the test that caused it. DebugGroup brackets a pass for RenderDoc/Nsight.
#pragma once

#include "gl/Gl.h"

#include <string>
#include <string_view>

namespace gl {

void installDebugCallback(bool errorsAreFatal);
/// Number of GL error messages seen since the last call (and resets it); also drains glGetError.
int takeErrorCount();
/// The most recent GL error message, if any.
std::string lastErrorMessage();
/// Throws std::runtime_error with the last message if any GL error was reported.
void checkNoErrors(std::string_view where);

class DebugGroup
{
public:
    explicit DebugGroup(std::string_view name);
    ~DebugGroup();
    DebugGroup(const DebugGroup&) = delete;
    DebugGroup& operator=(const DebugGroup&) = delete;
};

}  // namespace gl
