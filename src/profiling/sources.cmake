target_sources(hdrlab_core PRIVATE
  profiling/Profiler.cpp
  profiling/TimingRows.cpp)
target_sources(hdrlab_core PRIVATE profiling/Capture.cpp)
