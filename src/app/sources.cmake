# The live window app: context, frame loop, window events, the split view, the robustness modes.
target_sources(hdrlab_core PRIVATE
  app/App.cpp
  app/FrameLoop.cpp
  app/AppPanels.cpp
  app/AppKeys.cpp
  app/FileArgument.cpp
  app/RunOutputs.cpp
  app/AppSetup.cpp
  app/WindowEvents.cpp
  app/SplitView.cpp
  app/ResizeStorm.cpp
  app/ResourceReport.cpp)
