target_sources(hdrlab_core PRIVATE
  platform/GlContext.cpp
  platform/EglContext.cpp
  platform/GlfwContext.cpp)
