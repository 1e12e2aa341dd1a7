target_sources(hdrlab_tests_gl PRIVATE profiling/ProfilerTest.cpp)
target_sources(hdrlab_tests_gl PRIVATE profiling/TimingRowsTest.cpp profiling/TimingsPanelTest.cpp)
