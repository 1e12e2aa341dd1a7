# Application shell: command line, frame loop. One file per line; other areas append their own lines.
target_sources(hdrlab_core PRIVATE app/Cli.cpp)
target_sources(hdrlab_core PRIVATE app/App.cpp)
target_sources(hdrlab_core PRIVATE app/AppSetup.cpp)
target_sources(hdrlab_core PRIVATE app/TonemapCommand.cpp)
target_sources(hdrlab_core PRIVATE app/CompareMethods.cpp)
target_sources(hdrlab_core PRIVATE app/CompareCommand.cpp)
target_sources(hdrlab_core PRIVATE app/ResourceReport.cpp)
target_sources(hdrlab_core PRIVATE app/ResizeStorm.cpp)
