# Every dependency is a Debian/Ubuntu package (scripts/setup.sh installs them); nothing is downloaded.
find_package(PkgConfig REQUIRED)
find_package(Threads REQUIRED)
# GL and EGL need no link-time libraries: glad loads libEGL/libGL (glvnd) at run time.
find_package(glfw3 3.3 REQUIRED)
find_package(glm REQUIRED)
find_package(CLI11 REQUIRED)
find_package(nlohmann_json 3.10 REQUIRED)
find_package(tinyexr REQUIRED)  # writing EXR (--screenshot-exr)
pkg_check_modules(IMGUI REQUIRED IMPORTED_TARGET imgui)

find_path(STB_INCLUDE_DIR stb_image.h PATH_SUFFIXES stb REQUIRED)
add_library(hdrlab_stb INTERFACE)
target_include_directories(hdrlab_stb SYSTEM INTERFACE ${STB_INCLUDE_DIR})

if(TARGET tinyexr::tinyexr)
  set(HDRLAB_TINYEXR_TARGET tinyexr::tinyexr)
else()
  find_library(TINYEXR_LIBRARY tinyexr REQUIRED)
  add_library(hdrlab_tinyexr INTERFACE)
  target_link_libraries(hdrlab_tinyexr INTERFACE ${TINYEXR_LIBRARY})
  set(HDRLAB_TINYEXR_TARGET hdrlab_tinyexr)
endif()

# OpenEXR 3 (reading EXR: the reference implementation; libopenexr-dev) through its pkg-config file,
# not its CMake package: that one loads Debian's Imath package, whose target list names the Python
# binding Imath::PyImath_Python3_11, a library shipped by python3-imath (which libimath-dev does not
# need), so every configure printed "The imported target ... references the file ... but this file
# does not exist". OpenEXR.pc gives the same headers and libraries (OpenEXR, OpenEXRCore, Iex,
# IlmThread, and Imath through its Requires); its -pthread compile flag is left to Threads::Threads
# (it would reach nvcc through hdrlab_core's CUDA sources otherwise).
pkg_check_modules(OPENEXR REQUIRED OpenEXR>=3)
add_library(hdrlab_openexr INTERFACE)
target_include_directories(hdrlab_openexr SYSTEM INTERFACE ${OPENEXR_INCLUDE_DIRS})
target_link_libraries(hdrlab_openexr INTERFACE ${OPENEXR_LINK_LIBRARIES} Threads::Threads)

# Dear ImGui from libimgui-dev: a static library with the GLFW and OpenGL3 backends built in.
add_library(hdrlab_imgui INTERFACE)
target_link_libraries(hdrlab_imgui INTERFACE PkgConfig::IMGUI ${CMAKE_DL_LIBS})
target_include_directories(hdrlab_imgui SYSTEM INTERFACE ${IMGUI_INCLUDE_DIRS})

