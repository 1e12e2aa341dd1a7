// Program.h: linked GLSL programs, and ShaderLibrary, which loads shader sources from shaders/.
//
// Shader files are plain GLSL without a #version line; the library prepends `#version 450 core`,
// the caller's defines and the resolved `#include "..."` files (paths relative to shaders/, so every
// shader can include shared/HostDevice.h). Compile and link errors throw with the file name and the
// driver's log.
#pragma once

#include "gl/Object.h"

#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gl {

class Program : public Object<ObjectKind::Program>
{
public:
    Program() = default;
    void use() const { glUseProgram(id()); }
    /// Location of a uniform, looked up once at link time by the caller (never per frame).
    GLint uniformLocation(const char* name) const { return glGetUniformLocation(id(), name); }

    // DSA uniform setters (glProgramUniform*), so no program needs to be bound to set them.
    void set(GLint location, float v) const { glProgramUniform1f(id(), location, v); }
    void set(GLint location, int v) const { glProgramUniform1i(id(), location, v); }
    void set(GLint location, unsigned v) const { glProgramUniform1ui(id(), location, v); }

    friend class ShaderLibrary;
};

/// One `#define NAME VALUE` line added after #version.
using ShaderDefines = std::vector<std::pair<std::string, std::string>>;

struct ShaderStageSource
{
    GLenum stage = 0;
    std::string path;  ///< relative to the shaders root, e.g. "histogram/SharedAtomic.comp"
};

class ShaderLibrary
{
public:
    explicit ShaderLibrary(std::filesystem::path root);

    const std::filesystem::path& root() const { return mRoot; }

    /// Reads a file under the root and resolves its includes (no #version added).
    std::string loadSource(std::string_view relativePath) const;
    /// Builds a program from the given stages; `label` names it for debuggers and errors.
    Program build(std::string_view label,
                  const std::vector<ShaderStageSource>& stages,
                  const ShaderDefines& defines = {}) const;
    Program buildCompute(std::string_view label, std::string_view path, const ShaderDefines& defines = {}) const;
    Program buildGraphics(std::string_view label,
                          std::string_view vertexPath,
                          std::string_view fragmentPath,
                          const ShaderDefines& defines = {}) const;

private:
    std::string resolveIncludes(const std::string& source, const std::filesystem::path& file, int depth) const;

    std::filesystem::path mRoot;
};

}  // namespace gl
