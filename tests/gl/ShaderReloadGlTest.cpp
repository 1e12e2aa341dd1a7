// Shader reload (gl::ShaderLibrary::reload, util::FolderWatcher; the window app's --watch-shaders):
// a program that includes a changed file is rebuilt in place and its owner sees the new output; a
// file that no longer compiles keeps the last good program and reports file:line; programs are
// followed through moves; and the post pipeline, run on shaders in a temporary data folder, shows
// an edit of its apply pass on its next run.
#include "gl/Buffer.h"
#include "gl/Program.h"
#include "gl/ShaderLog.h"
#include "gl/Texture.h"
#include "post/PostPipeline.h"
#include "support/GlTestEnvironment.h"
#include "support/HistogramTestSupport.h"
#include "support/TestPaths.h"
#include "util/FolderWatcher.h"
#include "util/Log.h"

#include <fstream>
#include <regex>
#include <sstream>
#include <thread>

namespace ts = testing_support;
namespace fs = std::filesystem;

namespace {

void write(const fs::path& path, const std::string& text)
{
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << text;
}

std::string read(const fs::path& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

/// Runs `program` (one invocation writing kValue to binding 0) and returns what it wrote.
float runValue(const gl::Program& program)
{
    const std::vector<float> initial{-1.0f};
    gl::Buffer buffer = gl::Buffer::fromSpan<float>("test.reload-out", initial);
    buffer.bindBase(GL_SHADER_STORAGE_BUFFER, 0);
    program.use();
    glDispatchCompute(1, 1, 1);
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    return buffer.readAll<float>(1)[0];
}

class ShaderReload : public ts::GlTest
{
protected:
    fs::path dir = ts::scratchDir("shader-reload");
};

TEST_F(ShaderReload, RebuildsWhatIncludesTheFileAndKeepsTheLastGoodProgram)
{
    write(dir / "inc/Value.glsl", "// the value\nconst float kValue = 1.0;\n");
    write(dir / "Write.comp",
          "layout(local_size_x = 1) in;\nlayout(std430, binding = 0) buffer Out { float result[]; };\n"
          "#include \"inc/Value.glsl\"\nvoid main() { result[0] = kValue; }\n");
    write(dir / "Other.comp", "layout(local_size_x = 1) in;\nvoid main() {}\n");
    gl::ShaderLibrary library(dir);
    util::FolderWatcher watcher(dir, std::chrono::milliseconds(0));
    gl::Program built = library.buildCompute("test.reload", "Write.comp");
    gl::Program program = std::move(built);  // followed through moves
    const gl::Program other = library.buildCompute("test.other", "Other.comp");
    EXPECT_EQ(library.trackedPrograms(), 2u);
    EXPECT_EQ(runValue(program), 1.0f);

    // Saved seconds apart in real life; a different size marks the change for the watcher here.
    write(dir / "inc/Value.glsl", "// the value\nconst float kValue = 2.50;\n");
    const std::vector<std::string> changed = watcher.poll();
    EXPECT_EQ(changed, std::vector<std::string>{"inc/Value.glsl"});
    gl::ShaderReload reload = library.reload(changed);
    EXPECT_EQ(reload.rebuilt, 1);  // Other.comp does not include it
    EXPECT_TRUE(reload.errors.empty());
    EXPECT_EQ(runValue(program), 2.5f);

    write(dir / "inc/Value.glsl", "// the value\nconst float kValue = ;\n");
    reload = library.reload(watcher.poll());
    EXPECT_EQ(reload.rebuilt, 0);
    ASSERT_EQ(reload.errors.size(), 1u);
    EXPECT_NE(reload.errors[0].find("inc/Value.glsl:2"), std::string::npos) << reload.errors[0];
    EXPECT_NE(reload.errors[0].find("'Write.comp' for 'test.reload'"), std::string::npos) << reload.errors[0];
    EXPECT_EQ(runValue(program), 2.5f);  // the last good program runs

    write(dir / "inc/Value.glsl", "// the value\nconst float kValue = 4.0;\n");
    EXPECT_EQ(library.reload(watcher.poll()).rebuilt, 1);
    EXPECT_EQ(runValue(program), 4.0f);
    EXPECT_TRUE(watcher.poll().empty());
    {
        gl::Program temporary = library.buildCompute("test.temporary", "Other.comp");
        EXPECT_EQ(library.trackedPrograms(), 3u);
    }
    EXPECT_EQ(library.trackedPrograms(), 2u);
    ts::expectNoGlErrors("reload");
}

TEST_F(ShaderReload, AnErrorInTheMainFileNamesIt)
{
    write(dir / "Broken.comp", "layout(local_size_x = 1) in;\nvoid main()\n{\n    undeclared = 1;\n}\n");
    gl::ShaderLibrary library(dir);
    try {
        library.buildCompute("test.broken", "Broken.comp");
        FAIL() << "a broken shader compiled";
    } catch (const std::runtime_error& error) {
        EXPECT_NE(std::string(error.what()).find("Broken.comp:4"), std::string::npos) << error.what();
    }
    EXPECT_EQ(library.trackedPrograms(), 0u);
}

TEST(ShaderLog, TranslatesMesaAndNvidiaPrefixes)
{
    const std::vector<std::string> files{"a.comp", "inc/b.glsl"};
    EXPECT_EQ(gl::translateShaderLog("1:12(5): error: x\n0(3) : error C0000: y\nplain\n", files),
              "inc/b.glsl:12:5: error: x\na.comp:3 : error C0000: y\nplain\n");
    EXPECT_EQ(gl::translateShaderLog("7:1(1): error\n", files), "source 7:1:1: error\n");
    EXPECT_EQ(gl::lineDirective(12, 3), "#line 12 3\n");
}

TEST_F(ShaderReload, ThePipelineShowsAnEditOfItsApplyPass)
{
    const fs::path data = dir / "data";
    fs::create_directories(data);
    fs::copy(ts::sourceDir() / "shaders", data / "shaders", fs::copy_options::recursive);
    gl::ShaderLibrary library(data / "shaders");
    util::FolderWatcher watcher(data / "shaders", std::chrono::milliseconds(0));
    post::PostPipeline pipeline(library, ts::testProfiler(), ts::testGpuCaps());
    const glm::ivec2 size{64, 32};
    std::vector<float> pixels(std::size_t(size.x * size.y) * 4, 0.5f);
    gl::Texture frame("test.reload-frame", GL_RGBA32F, size);
    frame.upload(GL_RGBA, GL_FLOAT, pixels.data());
    auto firstPixel = [&] {
        const gl::Texture& display = pipeline.run({frame, size, 0}, 1.0 / 60.0, 60.0f);
        const std::vector<unsigned char> rgba = display.readRgba8();
        return glm::ivec3(rgba[0], rgba[1], rgba[2]);
    };
    const glm::ivec3 before = firstPixel();
    ASSERT_NE(before, glm::ivec3(255, 0, 255));

    const fs::path apply = data / "shaders" / "tonemap" / "Apply.comp";
    const std::string original = read(apply);
    const std::string magenta =
        std::regex_replace(original, std::regex(R"(void main\(\)\s*\{)"),
                           "void main()\n{\n    imageStore(uOutput, ivec2(gl_GlobalInvocationID.xy), vec4(1.0, 0.0, "
                           "1.0, 1.0));\n    return;");
    ASSERT_NE(magenta, original);
    write(apply, magenta);
    gl::ShaderReload reload = library.reload(watcher.poll());
    EXPECT_GE(reload.rebuilt, 1);
    EXPECT_TRUE(reload.errors.empty()) << (reload.errors.empty() ? "" : reload.errors[0]);
    EXPECT_EQ(firstPixel(), glm::ivec3(255, 0, 255));

    // A broken include keeps the magenta program and names the file and line.
    const fs::path pixel = data / "shaders" / "tonemap" / "ApplyPixel.glsl";
    const std::string pixelSource = read(pixel);
    write(pixel, "this is not GLSL;\n" + pixelSource);
    reload = library.reload(watcher.poll());
    ASSERT_FALSE(reload.errors.empty());
    EXPECT_NE(reload.errors[0].find("tonemap/ApplyPixel.glsl:1"), std::string::npos) << reload.errors[0];
    EXPECT_EQ(firstPixel(), glm::ivec3(255, 0, 255));

    write(pixel, pixelSource);
    write(apply, original);
    reload = library.reload(watcher.poll());
    EXPECT_TRUE(reload.errors.empty());
    EXPECT_EQ(firstPixel(), before);
    ts::expectNoGlErrors("pipeline reload");
}

}  // namespace
