// FuzzEntryPoints.h: one function per hdrlab parser that takes arbitrary bytes, runs them through
// the parser's public in-memory entry point and checks the promise "no input crashes us": the
// input either parses into a consistent result or is refused with the parser's own error type and
// a one-line message. Anything else (another exception, a broken invariant) throws
// FuzzInvariantError, which libFuzzer sees as a crash and the corpus test as a failure.
// The same functions back the libFuzzer targets (LibFuzzerMain.cpp, clang) and the corpus replay
// test (FuzzCorpusTest.cpp, any compiler). No GL context is needed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string_view>

namespace fuzz {

/// A parser broke its promise on this input (crash-worthy).
class FuzzInvariantError : public std::logic_error
{
public:
    using std::logic_error::logic_error;
};

using Bytes = std::span<const std::uint8_t>;

/// Scene JSON (scene::parseScene), then what the app does with a scene on the CPU: the mesh and
/// camera path evaluation.
void runScene(Bytes input);
/// OpenEXR through image::decodeHdrImage (our header validation, then tinyexr).
void runExr(Bytes input);
/// Radiance .hdr through image::decodeHdrImage (stb_image).
void runHdr(Bytes input);
/// PNG (and the other 8-bit formats stb_image reads: JPEG, BMP, GIF) through image::decodeHdrImage
/// and image::decodeImage8.
void runPng(Bytes input);

/// glTF 2.0 (.gltf JSON or .glb) through scene::importGltfFromMemory with no file access (external
/// buffers and images must be refused cleanly), then the scene mesh the renderer would upload.
void runGltf(Bytes input);

/// A settings Points list ("X:Y,X:Y", percentile.compensation_curve) through post::parsePoints: a list
/// it takes is within the key's ranges, x strictly increasing, and reads back the same from its
/// formatPoints text; a refused one says why in one line.
void runPoints(Bytes input);
/// The HDR10 PNG writer (image::writeHdr10Png): an image made of the input's bytes (width, height,
/// then floats, NaN and Inf included) is written and read back; every sample is the PQ code of its value.
void runHdrPng(Bytes input);
/// A stream of tev display-server packets (net/TevProtocol.h), cut and parsed as the server does and
/// applied to an image store (no sockets; OpenImage and ReloadImage, which read files, are parsed
/// only); each image the frame source would copy is copied.
void runTev(Bytes input);
/// A sequence of frames with cuts made from the input (FuzzSequence.cpp): written as EXR files, listed
/// (pattern, folder or glob, with a gap), decoded on the worker thread, then the cut detection and the
/// flicker figure within shots on the CPU.
void runSequence(Bytes input);

struct Target
{
    std::string_view name;  ///< also the corpus folder: tests/fuzz/corpus/<name>/
    void (*run)(Bytes input);
};

inline constexpr Target kTargets[] = {
    {"scene", runScene},   {"exr", runExr},       {"hdr", runHdr}, {"png", runPng},           {"gltf", runGltf},
    {"points", runPoints}, {"hdrpng", runHdrPng}, {"tev", runTev}, {"sequence", runSequence},
};

}  // namespace fuzz
