target_sources(hdrlab_core PRIVATE
  gl/Object.cpp
  gl/Buffer.cpp
  gl/Texture.cpp
  gl/ExternalObjects.cpp
  gl/Framebuffer.cpp
  gl/Query.cpp
  gl/Fence.cpp
  gl/VertexArray.cpp
  gl/Program.cpp
  gl/ShaderLog.cpp
  gl/Debug.cpp
  gl/FramePacer.cpp
  gl/GlInfo.cpp)
