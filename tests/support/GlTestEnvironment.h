// GlTestEnvironment.h: one headless GL 4.5 context (EGL) shared by every test of hdrlab_tests_gl,
// with the KHR_debug callback installed so that GL errors fail the test that caused them.
#pragma once

#include "gl/Program.h"
#include "platform/GlContext.h"

#include <gtest/gtest.h>

namespace testing_support {

platform::GlContext& glContext();
gl::ShaderLibrary& shaderLibrary();

/// Fails the current test if GL reported an error since the last check.
void expectNoGlErrors(const char* where);

/// Base fixture for GL tests: checks for GL errors after each test.
class GlTest : public ::testing::Test
{
protected:
    void TearDown() override;
};

}  // namespace testing_support
