# Every histogram method and scan run on one frame against the CPU reference (the `compare`
# subcommand and the live app's Compare all).
target_sources(hdrlab_core PRIVATE
  compare/CompareMethods.cpp
  compare/CompareScans.cpp)
