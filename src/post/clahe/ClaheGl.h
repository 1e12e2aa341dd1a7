// ClaheGl.h: OpenCV's CLAHE (contrast-limited adaptive histogram equalization, Zuiderveld, "Contrast
// Limited Adaptive Histogram Equalization", Graphics Gems IV, 1994; as OpenCV's
// modules/imgproc/src/clahe.cpp computes it on x86-64) with GL compute, bit-exact against the CPU
// reference (reference/Clahe.h) and so against OpenCV. Three passes (8-bit: two, the LUTs folded
// into the histogram pass's last workgroup of each tile; ClaheGlVariant), each arithmetic step
// shaders/shared/Clahe.h's:
//  1. histogram (shaders/clahe/ClaheHistogram.comp): the padded image's tile histograms, each tile
//     split into slabs of rows, one workgroup per (slab, tile), so an 8x8 grid still fills a large GPU
//     (OpenCV's OpenCL/CUDA versions run one workgroup per tile: 64 workgroups);
//  2. lut (ClaheLut.comp): per tile, the clip, the batch + residual redistribution, the running sum
//     and the float LUT scale, one workgroup per tile;
//  3. blend (ClaheBlend.comp): the bilinear blend of four LUTs per pixel, as separate float multiplies
//     and adds (GLSL `precise`: no FMA), over the original image; at 8 bits (widths a multiple of 4)
//     each workgroup first packs the four LUT values of the cells it covers into shared words.
// The host computes every float OpenCV computes once (LUT scale, inverse tile sizes; hd::claheGeometry)
// and uploads its bits: no pass divides a float. Upload and readback are outside the timed passes;
// each pass is bracketed by GL timestamps and a debug group.
// Limits: single-channel 8-bit (256 bins) and 16-bit (65536 bins) images of 1..kMaxSide pixels a side,
// grids of 1..64 tiles a side, tiles x bins <= kMaxHistogramWords (16-bit: 512 tiles, e.g. 16x32),
// buffers within GL_MAX_SHADER_STORAGE_BLOCK_SIZE.
#pragma once

#include "gl/Buffer.h"
#include "gl/Program.h"
#include "gl/Query.h"
#include "shared/Clahe.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace post {

/// The passes' times of one run, from GL timestamps (ms).
struct ClaheGlTimings
{
    double histogramMs = 0.0;  ///< including the clear of the tile histograms
    double lutMs = 0.0;
    double blendMs = 0.0;
    double totalMs() const { return histogramMs + lutMs + blendMs; }
};

/// Why CLAHE cannot run on a `width` x `height` image with this grid and clip limit (empty sides, a
/// grid outside 1..64, a negative or non-finite clip limit, an image or histogram too large), or
/// nothing. `bins`: 256 or 65536. Every backend's parameters are checked with this.
std::optional<std::string> claheParameterError(int width,
                                               int height,
                                               int tilesX,
                                               int tilesY,
                                               double clipLimit,
                                               int bins);

/// Experiment switches, so that variants can be compared on one GPU in one run; every variant gives
/// the same bytes (the GL tests run each). fromEnvironment() reads HDRLAB_CLAHE_GL_LUT (`separate`:
/// the 8-bit LUTs in a pass of their own, after a cleared histogram; otherwise, the default, folded
/// into the histogram pass: 7.6 us less at 4K on the H200) and HDRLAB_CLAHE_GL_HIST16 (`chunked`:
/// 16-bit counts in chunked 16-bit shared counters, slower on the H200; otherwise, the default, one
/// global atomic per run of equal 16-bit samples). The blend has no variant: the conversion-free
/// arithmetic that the CUDA blend may use (shared/Clahe.h) gave other bytes than the reference under
/// NVIDIA's GLSL compiler, and no speed (docs/PERF.md).
struct ClaheGlVariant
{
    bool foldLut = true;
    bool chunkedHistogram16 = false;  ///< 16-bit: shared counters for a quarter of the bins a workgroup
    static ClaheGlVariant fromEnvironment();
    std::string describe() const;  ///< "lut=folded hist16=global"
};

class ClaheGl
{
public:
    static constexpr int kMaxSide = 16384;

    explicit ClaheGl(const ClaheGlVariant& variant = ClaheGlVariant::fromEnvironment()) : mVariant(variant) {}
    const ClaheGlVariant& variant() const { return mVariant; }
    static constexpr std::size_t kMaxHistogramWords = std::size_t(1) << 25;  ///< tiles x bins

    /// Uploads the samples (geometry.width x geometry.height, rows packed), runs the three passes and
    /// reads the result back; fills `timings` when given (waits for the timestamps). geometry.bins
    /// must be 256 for run8 and 65536 for run16; throws std::invalid_argument on bad geometry.
    std::vector<std::uint8_t> run8(gl::ShaderLibrary& shaders,
                                   const std::uint8_t* samples,
                                   const hd::ClaheGeometry& geometry,
                                   ClaheGlTimings* timings = nullptr);
    std::vector<std::uint16_t> run16(gl::ShaderLibrary& shaders,
                                     const std::uint16_t* samples,
                                     const hd::ClaheGeometry& geometry,
                                     ClaheGlTimings* timings = nullptr);

    /// Runs the passes `runs` times more on the last uploaded image, back to back (the timestamps are
    /// read after the last run), and gives each run's timings (benchmarks: no transfers).
    std::vector<ClaheGlTimings> rerun(int runs);

    /// The last run's tile histograms (tileCount x bins) and LUTs (tileCount x bins) (tests).
    std::vector<std::uint32_t> readTileHistograms() const;
    std::vector<std::uint16_t> readLuts() const;

private:
    void prepare(gl::ShaderLibrary& shaders, const hd::ClaheGeometry& geometry, const void* samples);
    bool folded() const { return !mSixteenBit && mVariant.foldLut; }  ///< 8-bit LUTs in the histogram pass
    bool chunked16() const { return mSixteenBit && mVariant.chunkedHistogram16; }
    void dispatchPasses(const gl::Query* stamps);
    std::vector<ClaheGlTimings> readTimings(const std::vector<gl::Query>& stamps, int runs) const;

    ClaheGlVariant mVariant;
    hd::ClaheGeometry mGeometry;
    bool mSixteenBit = false;
    bool mHaveImage = false;
    int mSlabRows = 1;
    std::size_t mWords = 0;                                              ///< packed words of the image
    gl::Program mHistogramProgram[2], mLutProgram[2], mBlendProgram[2];  ///< [sixteenBit]
    gl::Program mBlendCellsProgram;    ///< 8-bit images whose width is a multiple of 4 (ClaheBlend.comp, CELLS 1)
    gl::Program mHistogramLutProgram;  ///< 8-bit, foldLut: ClaheHistogram.comp with FOLD_LUT 1
    gl::Buffer mParams, mInput, mOutput, mTileHistograms, mLuts;
    gl::Buffer mAccumulator;  ///< foldLut: tileCount x 256 counts, then tileCount tickets; zero between passes
};

}  // namespace post
