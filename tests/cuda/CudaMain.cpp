// Entry point of hdrlab_tests_cuda. No GL context is made up front: only the interop tests create
// the headless one (testing_support::glContext()), after checking for a CUDA device.
#include "util/Log.h"

#include <gtest/gtest.h>

int main(int argc, char** argv)
{
    ::testing::InitGoogleTest(&argc, argv);
    util::setLogLevel(util::LogLevel::Warning);
    return RUN_ALL_TESTS();
}
