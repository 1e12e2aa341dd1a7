// Program.h: linked GLSL programs, and ShaderLibrary, which loads shader sources from shaders/.
//
// Shader files are plain GLSL without a #version line; the library prepends `#version 450 core`,
// the caller's defines and the resolved `#include "..."` files (paths relative to shaders/, so every
// shader can include shared/HostDevice.h). Compile and link errors throw with the file name and the
// driver's log, whose lines name the file and line of each error (gl/ShaderLog.h).
//
// Reload: the library remembers how it built each live Program (its stages, defines and every file
// read, includes too) and follows it through moves. reload(changedFiles) rebuilds the programs that
// read one of the files and swaps each new GL program into the existing Program object, so every
// owner keeps using it unchanged; a program that fails keeps its last good version and its error
// is returned. Uniforms are set at explicit locations (layout(location = N)), which a relink keeps.
#pragma once

#include "gl/Object.h"

#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gl {

class ShaderLibrary;

class Program : public Object<ObjectKind::Program>
{
public:
    Program() = default;
    ~Program();
    Program(Program&& other) noexcept;
    Program& operator=(Program&& other) noexcept;
    void use() const { glUseProgram(id()); }
    /// Location of a uniform, looked up once at link time by the caller (never per frame).
    GLint uniformLocation(const char* name) const { return glGetUniformLocation(id(), name); }

    // DSA uniform setters (glProgramUniform*), so no program needs to be bound to set them.
    void set(GLint location, float v) const { glProgramUniform1f(id(), location, v); }
    void set(GLint location, int v) const { glProgramUniform1i(id(), location, v); }
    void set(GLint location, unsigned v) const { glProgramUniform1ui(id(), location, v); }

    friend class ShaderLibrary;

private:
    const ShaderLibrary* mLibrary = nullptr;  ///< the library that rebuilds it on reload
};

/// One `#define NAME VALUE` line added after #version.
using ShaderDefines = std::vector<std::pair<std::string, std::string>>;

struct ShaderStageSource
{
    GLenum stage = 0;
    std::string path;  ///< relative to the shaders root, e.g. "histogram/SharedAtomic.comp"
};

/// What a reload did: the programs rebuilt, and one message per program that failed (kept as it was).
struct ShaderReload
{
    int rebuilt = 0;
    std::vector<std::string> errors;  ///< "cannot compile ...: path:LINE:COL: error: ..."
};

class ShaderLibrary
{
public:
    explicit ShaderLibrary(std::filesystem::path root);
    ~ShaderLibrary();
    ShaderLibrary(const ShaderLibrary&) = delete;
    ShaderLibrary& operator=(const ShaderLibrary&) = delete;

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

    /// Rebuilds the live programs that read any of `changedFiles` (paths relative to the root, '/'
    /// separated, e.g. "tonemap/Apply.comp"); see the file comment.
    ShaderReload reload(const std::vector<std::string>& changedFiles) const;
    /// Live programs the library can rebuild.
    std::size_t trackedPrograms() const { return mRecipes.size(); }

private:
    struct Recipe
    {
        std::string label;
        std::vector<ShaderStageSource> stages;
        ShaderDefines defines;
        std::vector<std::string> files;  ///< every file read, includes too
    };
    /// Builds without tracking; `files` collects what was read.
    Program compile(std::string_view label,
                    const std::vector<ShaderStageSource>& stages,
                    const ShaderDefines& defines,
                    std::vector<std::string>& files) const;
    std::string resolveIncludes(const std::string& source,
                                const std::filesystem::path& file,
                                int depth,
                                std::vector<std::string>& files) const;
    friend class Program;
    void moved(const Program* from, Program* to) const;
    void forget(const Program* program) const;

    std::filesystem::path mRoot;
    mutable std::map<const Program*, Recipe> mRecipes;  ///< the GL thread's: no lock
};

}  // namespace gl
