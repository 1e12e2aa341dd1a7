# ImGui panels (Dear ImGui 1.86 from the distribution). One file per line; other areas append their own lines.
target_sources(hdrlab_core PRIVATE ui/ImGuiLayer.cpp)
target_sources(hdrlab_core PRIVATE ui/FramePanel.cpp)
target_sources(hdrlab_core PRIVATE ui/PipelinePanel.cpp)
target_sources(hdrlab_core PRIVATE ui/HistogramView.cpp)
target_sources(hdrlab_core PRIVATE ui/TimingsPanel.cpp)
target_sources(hdrlab_core PRIVATE ui/CompareView.cpp)
target_sources(hdrlab_core PRIVATE ui/LogLogPlot.cpp)
target_sources(hdrlab_core PRIVATE ui/ViewPanel.cpp)
