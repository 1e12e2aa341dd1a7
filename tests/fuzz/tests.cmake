# Fuzz corpus replay (tests/fuzz): every corpus file through the fuzz entry points, in the CPU test
# program. The libFuzzer targets themselves are a separate clang build (HDRLAB_FUZZ, CMakeLists.txt).
target_sources(hdrlab_tests_cpu PRIVATE fuzz/FuzzEntryPoints.cpp fuzz/FuzzSequence.cpp fuzz/FuzzCorpusTest.cpp)
