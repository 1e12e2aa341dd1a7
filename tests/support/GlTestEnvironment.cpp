#include "support/GlTestEnvironment.h"

#include "gl/Debug.h"
#include "support/TestPaths.h"

#include <memory>

namespace testing_support {
namespace {
std::unique_ptr<platform::GlContext> gContext;
std::unique_ptr<gl::ShaderLibrary> gShaders;
}  // namespace

platform::GlContext& glContext()
{
    if (!gContext) {
        platform::ContextOptions options;
        options.debug = true;
        gContext = platform::createHeadlessContext(options);
        gl::installDebugCallback(true);
    }
    return *gContext;
}

gl::ShaderLibrary& shaderLibrary()
{
    glContext();
    if (!gShaders)
        gShaders = std::make_unique<gl::ShaderLibrary>(sourceDir() / "shaders");
    return *gShaders;
}

void expectNoGlErrors(const char* where)
{
    int errors = gl::takeErrorCount();
    EXPECT_EQ(errors, 0) << "GL errors during " << where << ": " << gl::lastErrorMessage();
}

void GlTest::TearDown()
{
    expectNoGlErrors(::testing::UnitTest::GetInstance()->current_test_info()->name());
}

}  // namespace testing_support
