# Image I/O (src/image). stb_image/stb_image_write: Debian's libstb-dev ships them prebuilt in
# libstb.so; link that when present, else compile them here (StbImplementation.cpp), never both.
target_sources(hdrlab_core PRIVATE
  image/ImageIo.cpp
  image/ImageLayout.cpp
  image/JpegCheck.cpp
  image/ExrReader.cpp
  image/ExrDeepReader.cpp
  image/DeepFlatten.cpp
  image/ExrWriter.cpp
  image/RadianceColour.cpp
  image/RadianceReader.cpp)

find_library(HDRLAB_STB_LIBRARY NAMES stb)
if(HDRLAB_STB_LIBRARY)
  target_link_libraries(hdrlab_core PUBLIC ${HDRLAB_STB_LIBRARY})
else()
  target_sources(hdrlab_core PRIVATE image/StbImplementation.cpp)
endif()
target_sources(hdrlab_core PRIVATE image/HdrPng.cpp)
