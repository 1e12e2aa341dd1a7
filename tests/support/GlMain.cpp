#include "support/GlTestEnvironment.h"
#include "util/Log.h"

#include <gtest/gtest.h>

namespace {
class GlEnvironment : public ::testing::Environment
{
public:
    void SetUp() override { testing_support::glContext(); }
};
}  // namespace

int main(int argc, char** argv)
{
    ::testing::InitGoogleTest(&argc, argv);
    util::setLogLevel(util::LogLevel::Warning);
    ::testing::AddGlobalTestEnvironment(new GlEnvironment);
    return RUN_ALL_TESTS();
}
