# The tev display server: the protocol's parser (pure), the images clients send, the listener thread.
target_sources(hdrlab_core PRIVATE
  net/TevProtocol.cpp
  net/TevImageStore.cpp
  net/TevServer.cpp)
