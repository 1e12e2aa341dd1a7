# Application shell: command line, frame loop. One file per line; other areas append their own lines.
target_sources(hdrlab_core PRIVATE app/Cli.cpp)
target_sources(hdrlab_core PRIVATE app/App.cpp)
target_sources(hdrlab_core PRIVATE app/AppSetup.cpp)
target_sources(hdrlab_core PRIVATE app/TonemapCommand.cpp)
target_sources(hdrlab_core PRIVATE app/CompareMethods.cpp)
target_sources(hdrlab_core PRIVATE app/CompareCommand.cpp)
target_sources(hdrlab_core PRIVATE app/BenchPipelineCommand.cpp)
# The CUDA-only commands (equalize8, the CUDA bench suites); without the CUDA backend, stand-ins
# that say it is not built.
if(HDRLAB_HAS_CUDA)
  target_sources(hdrlab_core PRIVATE app/Equalize8Command.cpp)
  target_sources(hdrlab_core PRIVATE app/BenchCommand.cpp)
else()
  target_sources(hdrlab_core PRIVATE app/CudaCommandsFallback.cpp)
endif()
target_sources(hdrlab_core PRIVATE app/ResourceReport.cpp)
target_sources(hdrlab_core PRIVATE app/ResizeStorm.cpp)
