target_sources(hdrlab_core PRIVATE
  profiling/Profiler.cpp)
