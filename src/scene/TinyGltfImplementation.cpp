// TinyGltfImplementation.cpp: compiles tinygltf's implementation into hdrlab (configured as in
// scene/TinyGltf.h) instead of linking Debian's prebuilt libtinygltf.so, which is built with
// stb_image and the default file system callbacks that hdrlab must not use. Also lets the fuzz
// build instrument it.
#include <fstream>  // tinygltf 2.7 writes files with std::ofstream even under TINYGLTF_NO_FS

#define TINYGLTF_IMPLEMENTATION
#include "scene/TinyGltf.h"
