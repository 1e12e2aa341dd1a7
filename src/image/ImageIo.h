// ImageIo.h: loading and writing images. Loading: OpenEXR (OpenEXR 3, the reference library),
// Radiance .hdr (hdrlab's reader, image/RadianceReader.h) and PNG/JPEG/BMP/TGA/GIF (stb_image).
// Writing: PNG (stb_image_write) and OpenEXR (tinyexr), always through util::writeFileAtomically. The
// file type comes from the magic bytes; the extension only decides between "unsupported" and
// "damaged" in error messages, and picks TGA, which has no magic number.
// Limits: files up to kMaxFileBytes, images up to kMaxImageDimension on each side, deep OpenEXR
// pixels up to kMaxDeepSamplesPerPixel samples (flattened, DeepFlatten.h). Every failure
// throws ImageError with one line naming the file; see docs/IMAGE_IO.md.
#pragma once

#include "image/Image.h"

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>

namespace image {

/// Largest width or height accepted by any loader (and by the writers).
inline constexpr int kMaxImageDimension = 16384;
/// Most samples one pixel of a deep OpenEXR image may hold: real deep renders hold tens to
/// thousands; flattening an overlapping pixel needs memory in proportion.
inline constexpr std::uint32_t kMaxDeepSamplesPerPixel = std::uint32_t(1) << 18;
/// Largest file the loaders read into memory.
inline constexpr std::uintmax_t kMaxFileBytes = std::uintmax_t(1) << 30;

enum class FileKind { Unknown, OpenExr, RadianceHdr, Png, Jpeg, Bmp, Gif, Tga };

/// The kind of image in `path`, from its first bytes (TGA, which has none, from its extension).
/// Returns Unknown for unreadable files and unknown content; never throws.
FileKind detectFileKind(const std::filesystem::path& path);
/// The kind of image in a memory buffer; `pathForExtension` only serves the TGA case.
FileKind detectFileKind(const std::uint8_t* bytes,
                        std::size_t size,
                        const std::filesystem::path& pathForExtension = {});
const char* fileKindName(FileKind kind);

/// Loads any supported image as scene-linear RGBA float: EXR and .hdr as stored (a Radiance picture's
/// pixels as Radiance decodes them, in its own units; its header in ImageF::radiance), 8-bit formats
/// decoded from sRGB (alpha stays linear). Grey images are spread to R=G=B; missing alpha is 1.
/// `exrPart` picks the part, view or layer of an OpenEXR file ("" the first with colour; an
/// index, a part name, or a view/layer name); asking for one in another format is an error.
ImageF loadHdrImage(const std::filesystem::path& path, const std::string& exrPart = {});

/// Loads an 8-bit image (PNG, JPEG, BMP, TGA, GIF). desiredChannels 0 keeps the file's channel
/// count, 1..4 converts (stb rules: grey<->RGB, alpha added as 255 or dropped).
Image8 loadImage8(const std::filesystem::path& path, int desiredChannels = 0);

/// loadHdrImage and loadImage8 on a file's bytes already in memory (the load functions read the
/// file and call these; the fuzz targets call them directly). `name` stands for the file in error
/// messages and picks TGA by its extension. Same limits and errors as the load functions.
ImageF decodeHdrImage(std::span<const std::uint8_t> bytes,
                      const std::filesystem::path& name,
                      const std::string& exrPart = {});
Image8 decodeImage8(std::span<const std::uint8_t> bytes, const std::filesystem::path& name, int desiredChannels = 0);

/// sRGB transfer functions on one value (no clamping in decode; encode clamps to [0, 1]).
float srgbToLinear(float encoded);
float linearToSrgb(float linear);

/// Decodes an sRGB 8-bit image to linear RGBA float (grey spread to RGB, alpha /255, default 1).
ImageF decodeSrgb8(const Image8& encoded);
/// Encodes linear RGBA float to sRGB 8-bit with 3 (RGB) or 4 (RGBA) channels: values are clamped
/// to [0, 1] and NaN becomes 0; alpha is stored linearly.
Image8 encodeSrgb8(const ImageF& linear, int channels = 4);

/// Writes `image` as an 8-bit PNG. Throws ImageError (e.g. missing folder, empty image).
void writePng(const std::filesystem::path& path, const Image8& image);

enum class ExrPixelType { Half, Float };
/// Writes `image` as a ZIP-compressed RGBA OpenEXR file. Half stores values above 65504 as +Inf;
/// use Float to keep them. Throws ImageError.
void writeExr(const std::filesystem::path& path, const ImageF& image, ExrPixelType pixelType = ExrPixelType::Half);
/// The EXR pixel type that keeps a saved frame's data: Float for a 32-bit frame (RGBA32F, an image);
/// for a half-float frame (RGBA16F) Half, unless a finite value lies beyond half's range (|v| > 65504,
/// e.g. after undoing the pre-exposure), then Float, so no finite value becomes Inf.
ExrPixelType exrPixelTypeKeeping(bool halfFloatFrame, const std::vector<float>& values);

}  // namespace image
