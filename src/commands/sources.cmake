# The subcommands, one folder each. The CUDA-only commands (equalize8, the CUDA bench suites, bench
# pipeline's CUDA streaming rates) have stand-ins that say CUDA is not built.
target_sources(hdrlab_core PRIVATE
  commands/tonemap/TonemapCommand.cpp
  commands/tonemap/TonemapAll.cpp
  commands/tonemap/ContactSheet.cpp
  commands/tonemap/TonemapSequence.cpp
  commands/compare/CompareCommand.cpp
  commands/bench/BenchPipelineCommand.cpp
  commands/bench/BenchFloors.cpp
  commands/bench/BenchBandwidthGl.cpp
  commands/bench/BenchLatency.cpp
  commands/bench/BenchFlickerCommand.cpp
  commands/bench/HistogramFactors.cpp)
if(HDRLAB_HAS_CUDA)
  target_sources(hdrlab_core PRIVATE
    commands/equalize8/Equalize8Command.cpp
    commands/bench/BenchCommand.cpp
    commands/bench/BenchBandwidthCuda.cpp)
else()
  target_sources(hdrlab_core PRIVATE commands/CudaCommandsFallback.cpp)
endif()
