// TinyGltf.h: includes tinygltf (Debian's libtinygltf-dev header) configured the one way hdrlab uses
// it: no stb_image (images decode through image::decodeImage8, see GltfFileAccess.cpp), no image
// writing and no built-in file system access (GltfFileAccess supplies callbacks that read only files
// inside the glTF's folder). Every file that includes tinygltf includes it through this header, so
// the class layout is the same everywhere; TinyGltfImplementation.cpp compiles the implementation.
#pragma once

#define TINYGLTF_NO_STB_IMAGE
#define TINYGLTF_NO_STB_IMAGE_WRITE
#define TINYGLTF_NO_FS
#define TINYGLTF_NO_EXTERNAL_IMAGE
#include <tiny_gltf.h>
