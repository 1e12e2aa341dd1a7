// TinyexrImplementation.cpp: tinyexr's implementation, compiled from Debian's tinyexr.h for the
// fuzz build only (the app links Debian's prebuilt libtinyexr.so, built from the same header with
// the same defaults: zlib for ZIP, PIZ on, no threads, no OpenMP).
#define TINYEXR_IMPLEMENTATION
#include <tinyexr.h>
