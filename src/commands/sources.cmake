# The subcommands, one folder each: <Name>Command.h holds the options, the parser (the subcommand and
# its flags) and the run; the flag helpers they share are commands/CommandFlags. The CUDA-only runs
# (equalize8, the CUDA bench suites, bench pipeline's CUDA streaming rates, clahe's cuda backend) have
# stand-ins that say CUDA is not built.
target_sources(hdrlab_core PRIVATE
  commands/CommandFlags.cpp
  commands/view/ViewCommand.cpp
  commands/settings/SettingsCommand.cpp
  commands/tonemap/TonemapParser.cpp
  commands/tonemap/TonemapCommand.cpp
  commands/tonemap/TonemapAll.cpp
  commands/tonemap/ContactSheet.cpp
  commands/tonemap/TonemapSequence.cpp
  commands/compare/CompareCommand.cpp
  commands/equalize8/Equalize8Command.cpp
  commands/clahe/ClaheCommand.cpp
  commands/clahe/ClaheBackends.cpp
  commands/bench/BenchCommand.cpp
  commands/bench/BenchPipelineCommand.cpp
  commands/bench/BenchScopes.cpp
  commands/bench/BenchFloors.cpp
  commands/bench/BenchBandwidthGl.cpp
  commands/bench/BenchLatency.cpp
  commands/bench/BenchFlickerCommand.cpp
  commands/bench/HistogramFactors.cpp
  commands/bench/ReferenceChain.cpp
  commands/bench/ReferenceChainCpu.cpp
  commands/bench/ReferenceBench.cpp
  commands/bench/WardFactors.cpp
  commands/bench/ClaheBench.cpp
  commands/bench/FusionBench.cpp
  commands/bench/peers/PeerMetering.cpp
  commands/bench/peers/PeerBench.cpp
  commands/bench/peers/BevyPeer.cpp
  commands/bench/peers/UnrealPeer.cpp
  commands/bench/peers/HdrpPeer.cpp
  commands/bench/peers/GodotPeer.cpp)
if(HDRLAB_HAS_CUDA)
  target_sources(hdrlab_core PRIVATE
    commands/equalize8/Equalize8Cuda.cpp
    commands/clahe/ClaheCuda.cpp
    commands/bench/BenchCudaSuites.cpp
    commands/bench/BenchBandwidthCuda.cpp
    commands/bench/ReferenceChainCuda.cpp)
else()
  target_sources(hdrlab_core PRIVATE commands/CudaCommandsFallback.cpp)
endif()
