target_sources(hdrlab_core PRIVATE
  profiling/Profiler.cpp)
target_sources(hdrlab_core PRIVATE profiling/Capture.cpp)
