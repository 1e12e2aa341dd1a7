// Program.cpp: building programs from shaders/ with their includes, and rebuilding them (Program.h).
#include "gl/Program.h"

#include "gl/ShaderLog.h"

#include <algorithm>
#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>

namespace gl {
namespace {

constexpr int kMaxIncludeDepth = 16;

class ShaderObject : public Object<ObjectKind::Shader>
{
public:
    explicit ShaderObject(GLenum stage) { adopt(glCreateShader(stage)); }
};

std::string readFile(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw std::runtime_error("cannot open shader file '" + path.string() + "'");
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

std::string stageName(GLenum stage)
{
    switch (stage) {
        case GL_VERTEX_SHADER:
            return "vertex";
        case GL_FRAGMENT_SHADER:
            return "fragment";
        case GL_COMPUTE_SHADER:
            return "compute";
        case GL_GEOMETRY_SHADER:
            return "geometry";
        default:
            return "shader";
    }
}

}  // namespace

Program::~Program()
{
    if (mLibrary)
        mLibrary->forget(this);
}

Program::Program(Program&& other) noexcept : Object(std::move(other)), mLibrary(std::exchange(other.mLibrary, nullptr))
{
    if (mLibrary)
        mLibrary->moved(&other, this);
}

Program& Program::operator=(Program&& other) noexcept
{
    if (this != &other) {
        if (mLibrary)
            mLibrary->forget(this);
        Object::operator=(std::move(other));
        mLibrary = std::exchange(other.mLibrary, nullptr);
        if (mLibrary)
            mLibrary->moved(&other, this);
    }
    return *this;
}

ShaderLibrary::ShaderLibrary(std::filesystem::path root) : mRoot(std::move(root))
{
}

ShaderLibrary::~ShaderLibrary()
{
    for (auto& [program, recipe] : mRecipes)
        const_cast<Program*>(program)->mLibrary = nullptr;
}

void ShaderLibrary::moved(const Program* from, Program* to) const
{
    auto node = mRecipes.extract(from);
    if (!node.empty()) {
        node.key() = to;
        mRecipes.insert(std::move(node));
    }
}

void ShaderLibrary::forget(const Program* program) const
{
    mRecipes.erase(program);
}

std::string ShaderLibrary::resolveIncludes(const std::string& source,
                                           const std::filesystem::path& file,
                                           int depth,
                                           std::vector<std::string>& files) const
{
    if (depth > kMaxIncludeDepth)
        throw std::runtime_error("shader includes nested too deeply at '" + file.string() + "'");
    static const std::regex quoted(R"(^\s*#\s*include\s+"([^"]+)\"\s*$)");
    static const std::regex angled(R"(^\s*#\s*include\s+<[^>]+>\s*$)");
    // Each file gets an index for the driver's log (#line LINE INDEX; gl/ShaderLog.h).
    const int index = int(files.size());
    files.push_back(file.lexically_relative(mRoot).generic_string());
    std::istringstream lines(source);
    std::ostringstream out;
    out << lineDirective(1, index);
    std::string line;
    int lineNumber = 0;
    while (std::getline(lines, line)) {
        ++lineNumber;
        std::smatch match;
        if (std::regex_match(line, match, quoted)) {
            std::filesystem::path included = mRoot / match[1].str();
            out << resolveIncludes(readFile(included), included, depth + 1, files)
                << lineDirective(lineNumber + 1, index);
        } else if (std::regex_match(line, angled)) {
            out << "\n";  // host-only (C++/CUDA) includes inside the shared header
        } else {
            out << line << "\n";
        }
    }
    return out.str();
}

std::string ShaderLibrary::loadSource(std::string_view relativePath) const
{
    std::filesystem::path file = mRoot / relativePath;
    std::vector<std::string> files;
    return resolveIncludes(readFile(file), file, 0, files);
}

Program ShaderLibrary::build(std::string_view label,
                             const std::vector<ShaderStageSource>& stages,
                             const ShaderDefines& defines) const
{
    std::vector<std::string> files;
    Program program = compile(label, stages, defines, files);
    program.mLibrary = this;
    mRecipes[&program] = Recipe{std::string(label), stages, defines, std::move(files)};
    return program;
}

ShaderReload ShaderLibrary::reload(const std::vector<std::string>& changedFiles) const
{
    ShaderReload result;
    for (auto& [program, recipe] : mRecipes) {
        const bool affected = std::any_of(recipe.files.begin(), recipe.files.end(), [&](const std::string& file) {
            return std::find(changedFiles.begin(), changedFiles.end(), file) != changedFiles.end();
        });
        if (!affected)
            continue;
        try {
            std::vector<std::string> files;
            Program fresh = compile(recipe.label, recipe.stages, recipe.defines, files);
            // The new GL program replaces the old one inside the same Program (the old is deleted).
            static_cast<Object<ObjectKind::Program>&>(*const_cast<Program*>(program)) = std::move(fresh);
            recipe.files = std::move(files);
            ++result.rebuilt;
        } catch (const std::exception& error) {
            result.errors.push_back(error.what());
        }
    }
    return result;
}

Program ShaderLibrary::compile(std::string_view label,
                               const std::vector<ShaderStageSource>& stages,
                               const ShaderDefines& defines,
                               std::vector<std::string>& files) const
{
    std::string header = "#version 450 core\n";
    for (const auto& [name, value] : defines)
        header += "#define " + name + " " + value + "\n";

    Program program;
    program.adopt(glCreateProgram());
    std::vector<ShaderObject> shaders;
    for (const ShaderStageSource& stage : stages) {
        const std::filesystem::path file = mRoot / stage.path;
        std::string source = header + resolveIncludes(readFile(file), file, 0, files);
        ShaderObject& shader = shaders.emplace_back(stage.stage);
        const char* text = source.c_str();
        glShaderSource(shader.id(), 1, &text, nullptr);
        glCompileShader(shader.id());
        GLint ok = GL_FALSE;
        glGetShaderiv(shader.id(), GL_COMPILE_STATUS, &ok);
        if (!ok) {
            GLint length = 0;
            glGetShaderiv(shader.id(), GL_INFO_LOG_LENGTH, &length);
            std::string log(std::size_t(std::max(length, 1)), '\0');
            glGetShaderInfoLog(shader.id(), length, nullptr, log.data());
            throw std::runtime_error("cannot compile " + stageName(stage.stage) + " shader '" + stage.path + "' for '" +
                                     std::string(label) + "':\n" + translateShaderLog(log, files));
        }
        glAttachShader(program.id(), shader.id());
    }
    glLinkProgram(program.id());
    GLint linked = GL_FALSE;
    glGetProgramiv(program.id(), GL_LINK_STATUS, &linked);
    for (const ShaderObject& shader : shaders)
        glDetachShader(program.id(), shader.id());
    if (!linked) {
        GLint length = 0;
        glGetProgramiv(program.id(), GL_INFO_LOG_LENGTH, &length);
        std::string log(std::size_t(std::max(length, 1)), '\0');
        glGetProgramInfoLog(program.id(), length, nullptr, log.data());
        throw std::runtime_error("cannot link program '" + std::string(label) + "':\n" + log);
    }
    program.setLabel(label);
    return program;
}

Program ShaderLibrary::buildCompute(std::string_view label, std::string_view path, const ShaderDefines& defines) const
{
    return build(label, {{GL_COMPUTE_SHADER, std::string(path)}}, defines);
}

Program ShaderLibrary::buildGraphics(std::string_view label,
                                     std::string_view vertexPath,
                                     std::string_view fragmentPath,
                                     const ShaderDefines& defines) const
{
    return build(label, {{GL_VERTEX_SHADER, std::string(vertexPath)}, {GL_FRAGMENT_SHADER, std::string(fragmentPath)}},
                 defines);
}

}  // namespace gl
