// StbImplementation.cpp: compiles stb_image and stb_image_write into hdrlab_core. Only built when
// the system has no prebuilt libstb (Debian's libstb-dev ships one, which sources.cmake links
// instead), so the implementation never exists twice in one program.
#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image.h>
#include <stb_image_write.h>
