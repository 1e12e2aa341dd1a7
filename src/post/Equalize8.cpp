#include "post/Equalize8.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

namespace post {

namespace {
constexpr std::uint32_t kGroupSize = 256;
constexpr std::uint32_t kWordsPerThread = 8;
}  // namespace

std::vector<std::uint8_t> Equalize8::run(PassContext& ctx,
                                         ScanMethod& scan,
                                         const std::uint8_t* pixels,
                                         std::size_t count)
{
    if (count == 0)
        return {};
    if (count > kMaxPixels)
        throw std::invalid_argument("equalize8: at most 2^30 pixels, got " + std::to_string(count));
    if (!mHistogramProgram) {
        mHistogramProgram = ctx.shaders.buildCompute("equalize8.histogram", "post/Equalize8Histogram.comp");
        mMapProgram = ctx.shaders.buildCompute("equalize8.map", "post/Equalize8Map.comp");
        mHistogram = gl::Buffer("equalize8.histogram", kLevels * sizeof(std::uint32_t));
        mCdf = gl::Buffer("equalize8.cdf", kLevels * sizeof(std::uint32_t));
    }
    const std::size_t words = (count + 3) / 4;
    std::vector<std::uint32_t> packed(words, 0u);
    std::memcpy(packed.data(), pixels, count);  // little-endian: byte i of word w is pixel 4w + i
    gl::Buffer input = gl::Buffer::fromSpan<std::uint32_t>("equalize8.input", packed);
    gl::Buffer output("equalize8.output", words * sizeof(std::uint32_t));
    const GLuint groups =
        GLuint((words + std::size_t(kGroupSize) * kWordsPerThread - 1) / (std::size_t(kGroupSize) * kWordsPerThread));

    mHistogram.clearUint(0u);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
    mHistogramProgram.use();
    mHistogramProgram.set(0, unsigned(count));
    input.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingScratch0);
    mHistogram.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingHistogram);
    glDispatchCompute(std::min(groups, 65535u), (groups + 65534u) / 65535u, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);

    scan.inclusiveScan(ctx, mHistogram, mCdf, kLevels);

    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
    mMapProgram.use();
    mMapProgram.set(0, unsigned(count));
    input.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingScratch0);
    mCdf.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingCdf);
    output.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingScratch1);
    glDispatchCompute(std::min(groups, 65535u), (groups + 65534u) / 65535u, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);

    std::vector<std::uint8_t> result(count);
    output.read(0, count, result.data());
    return result;
}

}  // namespace post
