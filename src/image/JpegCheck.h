// JpegCheck.h: internal to src/image. Walks a JPEG file's marker segments the way stb_image 2.27
// reads them, before stb does, and refuses Huffman tables (DHT) whose 16 code-length counts add up
// to more than 256 symbols: stb 2.27 writes one table entry per symbol into 257-entry arrays
// without checking (fixed in stb 2.28), so such a file overwrites the decoder's memory.
// It also refuses scans that use a Huffman table the file has not defined before them, and
// components dequantized with a quantization table it has not defined (before a baseline scan of the
// component; by the end of a progressive frame): stb 2.27 would decode them from uninitialised memory
// (not deterministic, and signed overflows in its IDCT; found by fuzzing).
// Limits: only the DHT counts, the scans' Huffman selectors and the components' quantization
// tables are checked; every other error is left to stb's messages. Entropy-coded data is skipped up
// to the next marker (0xFF not followed by 0x00 or a restart marker).
#pragma once

#include <cstdint>
#include <span>

namespace image::detail {

/// Throws FormatError ("damaged JPEG file: ...") for a Huffman table stb_image would overflow on,
/// or a scan or component using a Huffman or quantization table the file has not defined.
void checkJpegHuffmanTables(std::span<const std::uint8_t> bytes);

}  // namespace image::detail
