#include "post/localexposure/BilateralLocalExposure.h"

#include "shared/LocalExposure.h"
#include "util/Log.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstdio>

namespace post {

namespace {
constexpr std::size_t kProbeWords = std::size_t(hd::kMaxProbes) * hd::kLocalExposureProbeWords;

std::string ev(float value)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.2f", double(value));
    return text;
}
}  // namespace

std::string describeLocalExposureProbe(const LocalExposureProbe& p)
{
    if (!p.valid)
        return "local exposure: none (luminance not usable)";
    char exposure[32];
    std::snprintf(exposure, sizeof exposure, "%+.2f", double(p.ev));
    if (p.method == 2)
        return "local exposure " + std::string(exposure) + " EV (fusion; log2 L " + ev(p.logL) + ", fused log2 L " +
               ev(p.logL + p.ev) + ")";
    return "local exposure " + std::string(exposure) + " EV (log2 L " + ev(p.logL) + ", bilateral " + ev(p.bilateral) +
           ", blurred " + ev(p.blurred) + ", base " + ev(p.base) + ", detail " + ev(p.logL - p.base) + ", mid " +
           ev(p.mid) + ")";
}

BilateralLocalExposure::BilateralLocalExposure()
    : mProbeRecords("local-exposure.probe", kProbeWords * sizeof(float)),
      mProbeReadback("local-exposure.probe.readback", kProbeWords)
{
}

void BilateralLocalExposure::probe(PassContext& ctx,
                                   const ImageInput& hdr,
                                   const gl::Buffer& params,
                                   const gl::Buffer& curve,
                                   std::span<const glm::ivec2> texels,
                                   const LocalExposureInput& in)
{
    const int count = int(std::min<std::size_t>(texels.size(), hd::kMaxProbes));
    if (count == 0)
        return;
    const bool fusion = in.method == 2;  // the fusion method's map (FusionLocalExposure), same records
    gl::Program& program = fusion ? mFusionProbeProgram : mProbeProgram;
    if (!program)
        program = fusion ? ctx.shaders.buildCompute("local-exposure.probe-fusion", "localexposure/Probe.comp",
                                                    {{"LOCAL_EXPOSURE", "2"}})
                         : ctx.shaders.buildCompute("local-exposure.probe", "localexposure/Probe.comp");
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_TEXTURE_FETCH_BARRIER_BIT);
    program.use();
    glProgramUniform2i(program.id(), 0, hdr.size.x, hdr.size.y);
    program.set(1, count);
    glProgramUniform2iv(program.id(), 2, count, &texels[0].x);
    bindLocalExposure(program, in, hdr.size);
    hdr.texture.bindUnit(hd::kTextureUnitInput);
    glBindSampler(hd::kTextureUnitInput, 0);
    params.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingHistogramParams);
    curve.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingCurve);
    mProbeRecords.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingScratch0);
    glDispatchCompute(1, 1, 1);
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT | GL_SHADER_STORAGE_BARRIER_BIT);
    mProbeReadback.enqueue(mProbeRecords, std::size_t(count) * hd::kLocalExposureProbeWords, ctx.frameIndex,
                           {std::uint32_t(count), 0, 0, 0});
}

const std::vector<LocalExposureProbe>& BilateralLocalExposure::latestProbe()
{
    if (auto slot = mProbeReadback.poll()) {
        mLatestProbe.clear();
        const auto word = [&](std::size_t i) {
            return std::bit_cast<float>(i < slot->words.size() ? slot->words[i] : 0u);
        };
        for (std::uint32_t i = 0; i < slot->tag[0] && i < hd::kMaxProbes; ++i) {
            const std::size_t at = std::size_t(i) * hd::kLocalExposureProbeWords;
            mLatestProbe.push_back({word(at) != 0.0f, word(at + 1), word(at + 2), word(at + 3), word(at + 4),
                                    word(at + 5), word(at + 6), word(at + 7) == 2.0f ? 2 : 1});
        }
    }
    return mLatestProbe;
}

glm::ivec2 BilateralLocalExposure::tilesFor(glm::ivec2 size)
{
    return {hd::hdLocalExposureTiles(std::max(size.x, 1)), hd::hdLocalExposureTiles(std::max(size.y, 1))};
}

void BilateralLocalExposure::size(glm::ivec2 frame)
{
    mTiles = tilesFor(frame);
    const std::size_t tiles = std::size_t(mTiles.x) * std::size_t(mTiles.y);
    const std::size_t gridBytes = tiles * hd::kLocalExposureBins * hd::kLocalExposureCellWords * sizeof(std::uint32_t);
    if (mGrid.size() < gridBytes)
        mGrid = gl::Buffer("local-exposure.grid", gridBytes);
    const std::size_t blurBytes = (hd::kLocalExposureBlurHeaderWords + 5 * tiles) * sizeof(float);
    if (mBlur.size() < blurBytes)
        mBlur = gl::Buffer("local-exposure.blur", blurBytes);
}

LocalExposureGridTarget& BilateralLocalExposure::fusedTarget(glm::ivec2 frame)
{
    size(frame);
    mGrid.clearUint(0u);
    mTarget = LocalExposureGridTarget{&mGrid, mTiles, false};
    return mTarget;
}

void BilateralLocalExposure::buildSeparate(PassContext& ctx, const ImageInput& image, const gl::Buffer& params)
{
    size(image.size);
    if (!mBuildProgram)
        mBuildProgram = ctx.shaders.buildCompute("local-exposure.grid", "localexposure/GridBuild.comp");
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_TEXTURE_FETCH_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
    mBuildProgram.use();
    glProgramUniform2i(mBuildProgram.id(), 0, image.size.x, image.size.y);
    image.texture.bindUnit(hd::kTextureUnitInput);
    glBindSampler(hd::kTextureUnitInput, 0);
    params.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingHistogramParams);
    mGrid.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingLocalExposureGrid);
    glDispatchCompute(GLuint(mTiles.x), GLuint(mTiles.y), 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
    mLastFused = false;
}

void BilateralLocalExposure::blur(PassContext& ctx, const gl::Buffer& params, glm::ivec2 frame, float kernelSizePercent)
{
    if (mTarget.written)
        mLastFused = true;
    mTarget.written = false;
    if (!mBlurProgram)
        mBlurProgram = ctx.shaders.buildCompute("local-exposure.blur", "localexposure/GridBlur.comp");
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
    mBlurProgram.use();
    glProgramUniform2i(mBlurProgram.id(), 0, mTiles.x, mTiles.y);
    mBlurProgram.set(1, hd::hdLocalExposureSigmaTiles(frame.x, kernelSizePercent));
    params.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingHistogramParams);
    mGrid.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingLocalExposureGrid);
    mBlur.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingLocalExposureBlur);
    // Three dispatches of one invocation per tile (GridBlur.comp's stages), each reading the last's output.
    const GLuint groups = GLuint((std::int64_t(mTiles.x) * mTiles.y + 255) / 256);
    for (int stage = 0; stage < 3; ++stage) {
        glProgramUniform1i(mBlurProgram.id(), 2, stage);
        glDispatchCompute(groups, 1, 1);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
    }
}

std::vector<std::uint32_t> BilateralLocalExposure::readGrid() const
{
    return mGrid.readAll<std::uint32_t>(std::size_t(mTiles.x) * std::size_t(mTiles.y) * hd::kLocalExposureBins *
                                        hd::kLocalExposureCellWords);
}

std::vector<float> BilateralLocalExposure::readBlur() const
{
    return mBlur.readAll<float>(hd::kLocalExposureBlurHeaderWords + std::size_t(mTiles.x) * std::size_t(mTiles.y));
}

}  // namespace post
