# What the app runs on: the rendered scene, a still image, a tev display server's images, a sequence
# of frames (and its writer), and the pan/zoom of a picture in the viewport.
target_sources(hdrlab_core PRIVATE
  frames/SceneFrameSource.cpp
  frames/FrameStoreStatus.cpp
  frames/StillImageSource.cpp
  frames/TevFrameSource.cpp
  frames/FrameSequence.cpp
  frames/SequenceDecoder.cpp
  frames/SequenceSource.cpp
  frames/FrameSequenceWriter.cpp
  frames/PanZoom.cpp
  frames/ImageViewControls.cpp)
