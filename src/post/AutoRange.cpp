#include "post/AutoRange.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>

namespace post {

namespace {
constexpr std::uint32_t kPixelsPerThread = 16;
constexpr std::uint32_t kPositiveInfinityBits = 0x7F800000u;
}  // namespace

gl::Buffer createHistogramParamsBuffer(std::string_view label)
{
    return gl::Buffer(label, hd::kHistogramParamsWords * sizeof(std::uint32_t));
}

std::array<std::uint32_t, hd::kHistogramParamsWords> histogramParamWords(float logMin,
                                                                         float logMax,
                                                                         const HistogramSpec& spec,
                                                                         glm::ivec2 size)
{
    std::array<std::uint32_t, hd::kHistogramParamsWords> words{};
    words[hd::kParamLogMin] = std::bit_cast<std::uint32_t>(logMin);
    words[hd::kParamLogMax] = std::bit_cast<std::uint32_t>(logMax);
    words[hd::kParamBinCount] = std::clamp(spec.binCount, 1u, hd::kMaxHistogramBins);
    words[hd::kParamOutOfRange] = std::uint32_t(spec.outOfRange);
    words[hd::kParamWidth] = std::uint32_t(std::max(size.x, 0));
    words[hd::kParamHeight] = std::uint32_t(std::max(size.y, 0));
    words[hd::kParamStoredScale] = std::bit_cast<std::uint32_t>(spec.storedScale);
    words[hd::kParamLumaR] = std::bit_cast<std::uint32_t>(spec.luminance.r);
    words[hd::kParamLumaG] = std::bit_cast<std::uint32_t>(spec.luminance.g);
    words[hd::kParamLumaB] = std::bit_cast<std::uint32_t>(spec.luminance.b);
    words[hd::kParamCdPerUnit] = std::bit_cast<std::uint32_t>(spec.cdPerUnit);
    return words;
}

void writeHistogramParams(gl::Buffer& params, float logMin, float logMax, const HistogramSpec& spec, glm::ivec2 size)
{
    params.update<std::uint32_t>(histogramParamWords(logMin, logMax, spec, size));
}

void writeHistogramShape(gl::Buffer& params, const HistogramSpec& spec, glm::ivec2 size)
{
    static_assert(hd::kParamLogMin == 0 && hd::kParamLogMax == 1 && hd::kParamBinCount == 2);
    const auto words = histogramParamWords(0.0f, 0.0f, spec, size);
    params.update<std::uint32_t>(std::span(words).subspan(hd::kParamBinCount),
                                 hd::kParamBinCount * sizeof(std::uint32_t));
}

void AutoRange::ensurePrograms(PassContext& ctx)
{
    if (!mReduce) {
        mReduce = ctx.shaders.buildCompute("range.auto.reduce", "post/AutoRangeReduce.comp",
                                           {{"PIXELS_PER_THREAD", std::to_string(kPixelsPerThread)}});
        mFinish = ctx.shaders.buildCompute("range.auto.finish", "post/AutoRangeFinish.comp");
        const std::array<std::uint32_t, 4> none{kPositiveInfinityBits, 0u, 0u, 0u};  // no last range (0, 0)
        mRangeBits = gl::Buffer("range.auto.bits", sizeof none, none.data());
    }
}

void AutoRange::updateFromBits(PassContext& ctx,
                               const gl::Buffer& rangeBits,
                               std::size_t offsetBytes,
                               gl::Buffer& params,
                               double dtSeconds,
                               float speed,
                               bool reset,
                               float fallbackMin,
                               float fallbackMax)
{
    ensurePrograms(ctx);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
    rangeBits.copyTo(mRangeBits, offsetBytes, 0, 2 * sizeof(std::uint32_t));
    finish(params, dtSeconds, speed, reset, fallbackMin, fallbackMax, 0.0f);
}

void AutoRange::update(PassContext& ctx,
                       const ImageInput& image,
                       gl::Buffer& params,
                       double dtSeconds,
                       float speed,
                       bool reset,
                       float fallbackMin,
                       float fallbackMax,
                       float cutResetEv)
{
    ensurePrograms(ctx);
    const std::array<std::uint32_t, 2> initial{kPositiveInfinityBits, 0u};
    mRangeBits.update<std::uint32_t>(initial);

    const std::uint64_t pixels = std::uint64_t(std::max(image.size.x, 0)) * std::uint64_t(std::max(image.size.y, 0));
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_TEXTURE_FETCH_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
    mRangeBits.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingScratch0);
    params.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingHistogramParams);  // the luminance weights
    if (pixels != 0) {
        const std::uint64_t perGroup = std::uint64_t(hd::kReduceGroupSize) * kPixelsPerThread;
        const GLuint groups = GLuint((pixels + perGroup - 1) / perGroup);
        mReduce.use();
        glProgramUniform2i(mReduce.id(), 0, image.size.x, image.size.y);
        image.texture.bindUnit(hd::kTextureUnitInput);
        glBindSampler(hd::kTextureUnitInput, 0);
        glDispatchCompute(std::min(groups, 65535u), (groups + 65534u) / 65535u, 1);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    }
    finish(params, dtSeconds, speed, reset, fallbackMin, fallbackMax, cutResetEv);
}

void AutoRange::finish(gl::Buffer& params,
                       double dtSeconds,
                       float speed,
                       bool reset,
                       float fallbackMin,
                       float fallbackMax,
                       float cutResetEv)
{
    mRangeBits.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingScratch0);
    const double blend = reset || speed <= 0.0f ? 1.0 : 1.0 - std::exp(-double(speed) * std::max(dtSeconds, 0.0));
    mFinish.use();
    mFinish.set(0, float(blend));
    glProgramUniform2f(mFinish.id(), 1, fallbackMin, fallbackMax);
    mFinish.set(2, kMinimumSpan);
    mFinish.set(3, std::isfinite(cutResetEv) ? std::max(cutResetEv, 0.0f) : 0.0f);
    params.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingHistogramParams);
    glDispatchCompute(1, 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
}

}  // namespace post
