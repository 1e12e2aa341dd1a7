target_sources(hdrlab_tests_gl PRIVATE profiling/ProfilerTest.cpp)
