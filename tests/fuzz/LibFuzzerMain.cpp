// LibFuzzerMain.cpp: the libFuzzer entry of one fuzz target; HDRLAB_FUZZ_RUN (set per target in
// tests/fuzz/CMakeLists.txt) names its function in FuzzEntryPoints.h. A FuzzInvariantError is left
// uncaught on purpose: std::terminate aborts, and libFuzzer records the input as a crash.
#include "FuzzEntryPoints.h"

#include "util/Log.h"

extern "C" int LLVMFuzzerInitialize(int*, char***)
{
    // Decoders warn about oddities they accept (e.g. an unusable EXR display window); millions of
    // inputs would bury libFuzzer's own output.
    util::setLogLevel(util::LogLevel::Quiet);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    HDRLAB_FUZZ_RUN(fuzz::Bytes(data, size));
    return 0;
}
