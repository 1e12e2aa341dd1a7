// GL wrapper tests: creation, labels, moves and no leaks (live-object counts), shader includes.
#include "gl/Buffer.h"
#include "gl/Debug.h"
#include "gl/Framebuffer.h"
#include "gl/Program.h"
#include "gl/Query.h"
#include "gl/Texture.h"
#include "gl/VertexArray.h"
#include "shared/HostDevice.h"
#include "support/GlTestEnvironment.h"

#include <set>
#include <type_traits>

using testing_support::GlTest;

namespace {

std::string labelOf(GLenum ns, GLuint name)
{
    char text[128] = {};
    GLsizei length = 0;
    glGetObjectLabel(ns, name, sizeof(text), &length, text);
    return std::string(text, std::size_t(length));
}

static_assert(!std::is_copy_constructible_v<gl::Buffer>);
static_assert(!std::is_copy_assignable_v<gl::Texture>);
static_assert(std::is_nothrow_move_constructible_v<gl::Buffer>);
static_assert(std::is_nothrow_move_assignable_v<gl::Program>);

class GlWrappers : public GlTest
{
};

TEST_F(GlWrappers, BufferCreatesLabelsAndRoundTrips)
{
    const std::vector<std::uint32_t> values{1, 2, 3, 5, 8};
    gl::Buffer buffer = gl::Buffer::fromSpan<std::uint32_t>("test.buffer", values);
    ASSERT_TRUE(buffer.valid());
    EXPECT_EQ(buffer.size(), values.size() * sizeof(std::uint32_t));
    EXPECT_EQ(labelOf(GL_BUFFER, buffer.id()), "test.buffer");
    EXPECT_EQ(buffer.readAll<std::uint32_t>(values.size()), values);
    buffer.clearUint(7u);
    EXPECT_EQ(buffer.readAll<std::uint32_t>(values.size()), std::vector<std::uint32_t>(values.size(), 7u));
}

TEST_F(GlWrappers, MovesTransferOwnershipAndLeakNothing)
{
    const int buffersBefore = gl::liveObjectCount(gl::ObjectKind::Buffer);
    const int texturesBefore = gl::liveObjectCount(gl::ObjectKind::Texture);
    {
        gl::Buffer a("a", 64);
        GLuint name = a.id();
        gl::Buffer b(std::move(a));
        EXPECT_FALSE(a.valid());
        EXPECT_EQ(b.id(), name);
        gl::Buffer c("c", 16);
        c = std::move(b);  // c's old buffer is deleted here
        EXPECT_EQ(c.id(), name);
        EXPECT_EQ(gl::liveObjectCount(gl::ObjectKind::Buffer), buffersBefore + 1);
        EXPECT_TRUE(glIsBuffer(name));

        gl::Texture t("t", GL_RGBA16F, {3, 5});
        gl::Texture u = std::move(t);
        EXPECT_EQ(u.size(), glm::ivec2(3, 5));
        EXPECT_EQ(gl::liveObjectCount(gl::ObjectKind::Texture), texturesBefore + 1);
    }
    EXPECT_EQ(gl::liveObjectCount(gl::ObjectKind::Buffer), buffersBefore);
    EXPECT_EQ(gl::liveObjectCount(gl::ObjectKind::Texture), texturesBefore);
}

TEST_F(GlWrappers, EveryKindCreatesAndDeletes)
{
    for (int kind = 0; kind < int(gl::ObjectKind::Count); ++kind)
        EXPECT_EQ(gl::liveObjectCount(gl::ObjectKind(kind)), 0) << "kind " << kind << " leaked before this test";
    {
        gl::Texture texture("tex", GL_RGBA16F, {7, 3});
        gl::Framebuffer framebuffer("fbo");
        framebuffer.attachTexture(GL_COLOR_ATTACHMENT0, texture);
        framebuffer.checkComplete("fbo");
        gl::Renderbuffer depth("depth", GL_DEPTH_COMPONENT32F, {7, 3});
        gl::Query query("query", GL_TIME_ELAPSED);
        gl::VertexArray vao("vao");
        gl::Sampler sampler("sampler", GL_NEAREST, GL_NEAREST, GL_CLAMP_TO_EDGE);
        gl::Program program = testing_support::shaderLibrary().buildCompute("test.noop", "test/Noop.comp");
        EXPECT_EQ(labelOf(GL_TEXTURE, texture.id()), "tex");
        EXPECT_EQ(labelOf(GL_FRAMEBUFFER, framebuffer.id()), "fbo");
        EXPECT_EQ(labelOf(GL_QUERY, query.id()), "query");
        EXPECT_EQ(labelOf(GL_VERTEX_ARRAY, vao.id()), "vao");
        EXPECT_EQ(labelOf(GL_PROGRAM, program.id()), "test.noop");
        EXPECT_EQ(gl::liveObjectCount(gl::ObjectKind::Program), 1);
        EXPECT_EQ(gl::liveObjectCount(gl::ObjectKind::Shader), 0) << "shader objects must be deleted after linking";
        EXPECT_EQ(gl::liveObjectCountTotal(), 7) << "texture, framebuffer, renderbuffer, query, vao, sampler, program";
    }
    for (int kind = 0; kind < int(gl::ObjectKind::Count); ++kind)
        EXPECT_EQ(gl::liveObjectCount(gl::ObjectKind(kind)), 0) << "kind " << kind;
    EXPECT_EQ(gl::liveObjectCountTotal(), 0);
}

TEST(GlObjectKinds, EveryKindHasItsOwnName)
{
    std::set<std::string_view> names;
    for (int kind = 0; kind < int(gl::ObjectKind::Count); ++kind) {
        std::string_view name = gl::toString(gl::ObjectKind(kind));
        EXPECT_NE(name, "unknown") << "kind " << kind;
        names.insert(name);
    }
    EXPECT_EQ(names.size(), std::size_t(gl::ObjectKind::Count));
}

TEST_F(GlWrappers, ShaderSeesSharedHeaderConstants)
{
    gl::Program program = testing_support::shaderLibrary().buildCompute("test.constants", "test/Constants.comp");
    gl::Buffer out("out", 4 * sizeof(std::uint32_t));
    out.bindBase(GL_SHADER_STORAGE_BUFFER, 0);
    program.use();
    glDispatchCompute(1, 1, 1);
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    auto values = out.readAll<std::uint32_t>(4);
    EXPECT_EQ(values[0], hd::kMaxHistogramBins);
    EXPECT_EQ(values[1], hd::kHistogramBufferWords);
    EXPECT_EQ(int(values[2]), hd::hdBinOf(1.0f, -4.0f, 4.0f, 8u, hd::kOutOfRangeClamp));
    EXPECT_EQ(values[3], hd::hdCounterOfCode(hd::kBinAbove));
}

TEST_F(GlWrappers, CompileErrorNamesTheFile)
{
    try {
        testing_support::shaderLibrary().buildCompute("test.broken", "test/Broken.comp");
        FAIL() << "a broken shader compiled";
    } catch (const std::runtime_error& error) {
        EXPECT_NE(std::string(error.what()).find("test/Broken.comp"), std::string::npos) << error.what();
    }
    gl::takeErrorCount();  // compile failures are reported through the log, not as GL errors
}

TEST_F(GlWrappers, DebugCallbackCountsErrors)
{
    gl::takeErrorCount();
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, 0xFFFFFFu);  // not a buffer name: GL_INVALID_OPERATION
    EXPECT_GE(gl::takeErrorCount(), 1);
}

}  // namespace
