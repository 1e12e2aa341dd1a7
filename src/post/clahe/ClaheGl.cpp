// ClaheGl.cpp: the GL compute backend of CLAHE (post/clahe/ClaheGl.h): the geometry checks, the
// buffers (recreated only when a size changes), the three dispatches and their timestamps.
#include "post/clahe/ClaheGl.h"

#include "gl/Debug.h"
#include "shared/HostDevice.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace post {

namespace {

/// Padded pixels one histogram workgroup reads (256 invocations, 16 each): 8x8 tiles of a 4K image
/// give 64 x 30 workgroups, of a 1080p image 64 x 8.
constexpr int kSlabPixels = 4096;
/// The chunked 16-bit histogram (ClaheHistogram.comp, CHUNKED16; an experiment, off by default: on
/// the H200 it took 822 us at 4K against 658 for the global atomics): slabs of at most this many
/// padded pixels (its shared counters are 16-bit), each read by kChunks16 workgroups (a quarter of
/// the bins each); 8x8 tiles of a 4K image give 4 slabs a tile, 1024 workgroups.
constexpr int kChunkedSlabPixels = 32768;
constexpr int kChunks16 = 4;
/// The 8-bit histogram's shared-memory copies: 8 where a workgroup reads a full slab, 1 for tiles so
/// small (tiny images, fine grids) that clearing and merging 8 copies would cost more than it saves.
constexpr int kMaxCopies = 8;
constexpr int kCopiesFromArea = 2048;
constexpr GLuint kBlendGroupSize = 256;
/// The 8-bit cell blend's block (BLOCK_WORDS x 4 columns, BLOCK_ROWS rows in ClaheBlend.comp).
constexpr int kCellBlockWidth = 128;
constexpr int kCellBlockHeight = 32;
constexpr GLuint kMaxGroups = 65535;

/// ClaheParams in shaders/clahe/ClaheCommon.glsl (std430: twelve 4-byte words).
struct ParamsWords
{
    std::int32_t width, height, tilesX, tilesY, tileWidth, tileHeight, slabRows, clipLimit;
    float lutScale, inverseTileWidth, inverseTileHeight;
    std::int32_t copies;
};
static_assert(sizeof(ParamsWords) == 48);

std::size_t maxStorageBlockBytes()
{
    GLint64 bytes = 0;
    glGetInteger64v(GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &bytes);
    return std::size_t(std::max<GLint64>(bytes, 0));
}

void checkStorageSize(const char* what, std::size_t bytes)
{
    const std::size_t limit = maxStorageBlockBytes();
    if (bytes > limit)
        throw std::invalid_argument(std::string("clahe: the ") + what + " needs " + std::to_string(bytes) +
                                    " bytes, more than this GL's largest storage buffer (" + std::to_string(limit) +
                                    " bytes); use a smaller image or grid");
}

void barrierAll()
{
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
}

}  // namespace

std::optional<std::string> claheParameterError(int width,
                                               int height,
                                               int tilesX,
                                               int tilesY,
                                               double clipLimit,
                                               int bins)
{
    if (bins != hd::kClaheBins8 && bins != hd::kClaheBins16)
        return "CLAHE takes 8-bit or 16-bit samples (256 or 65536 bins), not " + std::to_string(bins) + " bins";
    if (width < 1 || height < 1)
        return std::string("the image is empty");
    if (width > ClaheGl::kMaxSide || height > ClaheGl::kMaxSide)
        return "the image is " + std::to_string(width) + "x" + std::to_string(height) + ": at most " +
               std::to_string(ClaheGl::kMaxSide) + " pixels a side";
    if (tilesX < 1 || tilesY < 1 || tilesX > hd::kClaheMaxTiles || tilesY > hd::kClaheMaxTiles)
        return "the tile grid " + std::to_string(tilesX) + "x" + std::to_string(tilesY) + " is outside 1x1.." +
               std::to_string(hd::kClaheMaxTiles) + "x" + std::to_string(hd::kClaheMaxTiles);
    if (!std::isfinite(clipLimit) || clipLimit < 0.0)
        return "the clip limit must be a finite number >= 0 (0: no clipping), not " + std::to_string(clipLimit);
    if (std::size_t(tilesX) * std::size_t(tilesY) * std::size_t(bins) > ClaheGl::kMaxHistogramWords)
        return "a " + std::to_string(tilesX) + "x" + std::to_string(tilesY) + " grid of " + std::to_string(bins) +
               "-bin histograms is too large: tiles x bins must be at most " +
               std::to_string(ClaheGl::kMaxHistogramWords) + " (16-bit: 512 tiles)";
    return std::nullopt;
}

ClaheGlVariant ClaheGlVariant::fromEnvironment()
{
    const auto environment = [](const char* name) {
        const char* value = std::getenv(name);
        return value ? std::string(value) : std::string();
    };
    ClaheGlVariant v;
    v.foldLut = environment("HDRLAB_CLAHE_GL_LUT") != "separate";
    v.chunkedHistogram16 = environment("HDRLAB_CLAHE_GL_HIST16") == "chunked";
    return v;
}

std::string ClaheGlVariant::describe() const
{
    return std::string("lut=") + (foldLut ? "folded" : "separate") +
           " hist16=" + (chunkedHistogram16 ? "chunked" : "global");
}

void ClaheGl::prepare(gl::ShaderLibrary& shaders, const hd::ClaheGeometry& g, const void* samples)
{
    if (auto error = claheParameterError(g.width, g.height, g.tilesX, g.tilesY, double(g.clipLimit), g.bins))
        throw std::invalid_argument("clahe: " + *error);
    mSixteenBit = g.bins == hd::kClaheBins16;
    const int sixteen = mSixteenBit ? 1 : 0;
    if (!mHistogramProgram[sixteen]) {
        const gl::ShaderDefines defines{{"SIXTEEN_BIT", std::to_string(sixteen)}};
        const std::string suffix = mSixteenBit ? ".16" : ".8";
        mHistogramProgram[sixteen] =
            shaders.buildCompute("clahe.histogram" + suffix, "clahe/ClaheHistogram.comp",
                                 {{"SIXTEEN_BIT", std::to_string(sixteen)}, {"CHUNKED16", chunked16() ? "1" : "0"}});
        mLutProgram[sixteen] = shaders.buildCompute("clahe.lut" + suffix, "clahe/ClaheLut.comp", defines);
        mBlendProgram[sixteen] = shaders.buildCompute("clahe.blend" + suffix, "clahe/ClaheBlend.comp", defines);
    }
    if (!mSixteenBit && !mBlendCellsProgram)
        mBlendCellsProgram = shaders.buildCompute("clahe.blend.8.cells", "clahe/ClaheBlend.comp",
                                                  {{"SIXTEEN_BIT", "0"}, {"CELLS", "1"}});
    if (!mSixteenBit && mVariant.foldLut && !mHistogramLutProgram)
        mHistogramLutProgram = shaders.buildCompute("clahe.histogram-lut.8", "clahe/ClaheHistogram.comp",
                                                    {{"SIXTEEN_BIT", "0"}, {"FOLD_LUT", "1"}});
    const std::size_t count = std::size_t(g.width) * std::size_t(g.height);
    const std::size_t perWord = mSixteenBit ? 2 : 4;
    const std::size_t words = (count + perWord - 1) / perWord;
    const std::size_t histogramWords = std::size_t(g.tileCount()) * std::size_t(g.bins);
    checkStorageSize("image", words * 4);
    checkStorageSize("tile histograms", histogramWords * 4);

    mGeometry = g;
    mWords = words;
    mSlabRows = chunked16() ? std::clamp(kChunkedSlabPixels / g.tileWidth, 1, g.tileHeight)  // <= 65535 pixels
                            : std::clamp((kSlabPixels + g.tileWidth - 1) / g.tileWidth, 1, g.tileHeight);
    const ParamsWords params{g.width,
                             g.height,
                             g.tilesX,
                             g.tilesY,
                             g.tileWidth,
                             g.tileHeight,
                             mSlabRows,
                             g.clipLimit,
                             g.lutScale,
                             g.inverseTileWidth,
                             g.inverseTileHeight,
                             g.tileArea() >= kCopiesFromArea ? kMaxCopies : 1};
    if (!mParams)
        mParams = gl::Buffer("clahe.params", sizeof(ParamsWords));
    mParams.update(0, sizeof(params), &params);
    if (mInput.size() != words * 4) {
        mInput = gl::Buffer("clahe.input", words * 4);
        mOutput = gl::Buffer("clahe.output", words * 4);
    }
    // The last word's unused samples are zero: never counted, and cut from the result.
    std::vector<std::uint32_t> packed(words, 0u);
    std::memcpy(packed.data(), samples, count * (mSixteenBit ? 2 : 1));  // little-endian, as the passes read
    mInput.update(0, words * 4, packed.data());
    if (mTileHistograms.size() != histogramWords * 4) {
        mTileHistograms = gl::Buffer("clahe.tileHistograms", histogramWords * 4);
        mLuts = gl::Buffer("clahe.luts", histogramWords * 2);  // 16-bit values
    }
    if (folded()) {  // the accumulator and tickets start at zero; every folded pass leaves them so
        const std::size_t accumulatorWords = histogramWords + std::size_t(g.tileCount());
        if (mAccumulator.size() != accumulatorWords * 4)
            mAccumulator = gl::Buffer("clahe.accumulator", accumulatorWords * 4);
        mAccumulator.clearUint(0u);
        barrierAll();
    }
    mHaveImage = true;
}

void ClaheGl::dispatchPasses(const gl::Query* stamps)
{
    const hd::ClaheGeometry& g = mGeometry;
    const int sixteen = mSixteenBit ? 1 : 0;
    const GLuint slabs = GLuint((g.tileHeight + mSlabRows - 1) / mSlabRows);
    mParams.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingHistogramParams);
    if (stamps)
        stamps[0].timestamp();
    if (folded()) {
        gl::DebugGroup group("clahe/histogram+lut");
        mHistogramLutProgram.use();
        mInput.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingScratch0);
        mTileHistograms.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingHistogram);
        mAccumulator.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingScratch2);
        mLuts.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingCurve);
        glDispatchCompute(slabs, GLuint(g.tileCount()), 1);
        barrierAll();
    } else {
        gl::DebugGroup group("clahe/histogram");
        mTileHistograms.clearUint(0u);
        barrierAll();
        mHistogramProgram[sixteen].use();
        mInput.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingScratch0);
        mTileHistograms.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingHistogram);
        glDispatchCompute(slabs * (chunked16() ? GLuint(kChunks16) : 1u), GLuint(g.tileCount()), 1);
        barrierAll();
    }
    if (stamps)
        stamps[1].timestamp();
    if (!folded()) {  // folded: no LUT pass, its time is 0
        gl::DebugGroup group("clahe/lut");
        mLutProgram[sixteen].use();
        mTileHistograms.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingHistogram);
        mLuts.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingCurve);
        glDispatchCompute(GLuint(g.tileCount()), 1, 1);
        barrierAll();
    }
    if (stamps)
        stamps[2].timestamp();
    {
        gl::DebugGroup group("clahe/blend");
        mInput.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingScratch0);
        mLuts.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingCurve);
        mOutput.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingScratch1);
        if (!mSixteenBit && g.width % 4 == 0) {  // every row starts a word: blocks of 128 x 32 pixels
            mBlendCellsProgram.use();
            glDispatchCompute(GLuint((g.width + kCellBlockWidth - 1) / kCellBlockWidth),
                              GLuint((g.height + kCellBlockHeight - 1) / kCellBlockHeight), 1);
        } else {
            mBlendProgram[sixteen].use();
            const GLuint groups = GLuint((mWords + kBlendGroupSize - 1) / kBlendGroupSize);
            glDispatchCompute(std::min(groups, kMaxGroups), (groups + kMaxGroups - 1) / kMaxGroups, 1);
        }
        barrierAll();
    }
    if (stamps)
        stamps[3].timestamp();
}

std::vector<ClaheGlTimings> ClaheGl::readTimings(const std::vector<gl::Query>& stamps, int runs) const
{
    std::vector<ClaheGlTimings> timings(static_cast<std::size_t>(runs));
    for (std::size_t run = 0; run < timings.size(); ++run) {
        std::array<std::uint64_t, 4> t{};
        for (std::size_t i = 0; i < 4; ++i)
            t[i] = stamps[run * 4 + i].waitResult();
        timings[run].histogramMs = double(t[1] - t[0]) * 1e-6;
        timings[run].lutMs = double(t[2] - t[1]) * 1e-6;
        timings[run].blendMs = double(t[3] - t[2]) * 1e-6;
    }
    return timings;
}

std::vector<std::uint8_t> ClaheGl::run8(gl::ShaderLibrary& shaders,
                                        const std::uint8_t* samples,
                                        const hd::ClaheGeometry& geometry,
                                        ClaheGlTimings* timings)
{
    if (geometry.bins != hd::kClaheBins8)
        throw std::invalid_argument("clahe: run8 needs a geometry of 256 bins");
    prepare(shaders, geometry, samples);
    if (timings)
        *timings = rerun(1).front();
    else
        dispatchPasses(nullptr);
    std::vector<std::uint8_t> result(mWords * 4);
    mOutput.read(0, result.size(), result.data());
    result.resize(std::size_t(geometry.width) * std::size_t(geometry.height));
    return result;
}

std::vector<std::uint16_t> ClaheGl::run16(gl::ShaderLibrary& shaders,
                                          const std::uint16_t* samples,
                                          const hd::ClaheGeometry& geometry,
                                          ClaheGlTimings* timings)
{
    if (geometry.bins != hd::kClaheBins16)
        throw std::invalid_argument("clahe: run16 needs a geometry of 65536 bins");
    prepare(shaders, geometry, samples);
    if (timings)
        *timings = rerun(1).front();
    else
        dispatchPasses(nullptr);
    std::vector<std::uint16_t> result(mWords * 2);
    mOutput.read(0, result.size() * 2, result.data());
    result.resize(std::size_t(geometry.width) * std::size_t(geometry.height));
    return result;
}

std::vector<ClaheGlTimings> ClaheGl::rerun(int runs)
{
    if (!mHaveImage)
        throw std::logic_error("clahe: rerun before any run");
    runs = std::max(runs, 1);
    std::vector<gl::Query> stamps;
    stamps.reserve(std::size_t(runs) * 4);
    for (int i = 0; i < runs * 4; ++i)
        stamps.emplace_back("clahe/stamp", GL_TIMESTAMP);
    gl::DebugGroup group("clahe");
    for (int run = 0; run < runs; ++run)
        dispatchPasses(&stamps[std::size_t(run) * 4]);
    return readTimings(stamps, runs);
}

std::vector<std::uint32_t> ClaheGl::readTileHistograms() const
{
    return mTileHistograms.readAll<std::uint32_t>(std::size_t(mGeometry.tileCount()) * std::size_t(mGeometry.bins));
}

std::vector<std::uint16_t> ClaheGl::readLuts() const
{
    return mLuts.readAll<std::uint16_t>(std::size_t(mGeometry.tileCount()) * std::size_t(mGeometry.bins));
}

}  // namespace post
