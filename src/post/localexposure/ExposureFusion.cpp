// ExposureFusion.cpp: the fusion local exposure's GL passes (post/localexposure/ExposureFusion.h): the
// level textures (recreated only when the frame size, the reduction or the level count changes), the
// dispatches and their timestamps.
#include "post/localexposure/ExposureFusion.h"

#include "gl/Debug.h"
#include "gl/Query.h"
#include "profiling/Profiler.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <string>

namespace post {

namespace {

constexpr GLuint kGroup = GLuint(hd::kFusionGroupSize);

void barrier()
{
    glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT | GL_SHADER_IMAGE_ACCESS_BARRIER_BIT);
}

void dispatchOver(glm::ivec2 size)
{
    glDispatchCompute((GLuint(size.x) + kGroup - 1) / kGroup, (GLuint(size.y) + kGroup - 1) / kGroup, 1);
}

void bindTextures(std::initializer_list<const gl::Texture*> textures)
{
    GLuint unit = 0;
    for (const gl::Texture* texture : textures) {
        texture->bindUnit(unit);
        glBindSampler(unit, 0);
        ++unit;
    }
}

}  // namespace

glm::vec2 ExposureFusion::uvScale() const
{
    const glm::ivec2 covered = mOutput.size() * mReduction;
    return glm::vec2(mFrameSize) / glm::vec2(glm::max(covered, glm::ivec2(1)));
}

void ExposureFusion::prepare(gl::ShaderLibrary& shaders,
                             const gl::Texture& frame,
                             glm::ivec2 size,
                             const FusionSettings& s)
{
    const auto text = [](glm::ivec2 v) { return std::to_string(v.x) + "x" + std::to_string(v.y); };
    if (size.x < 1 || size.y < 1)
        throw std::invalid_argument("fusion: the frame is empty (" + text(size) + ")");
    if (!frame || size.x > frame.size().x || size.y > frame.size().y)
        throw std::invalid_argument("fusion: a " + text(size) + " frame does not fit the " + text(frame.size()) +
                                    " texture it is said to be in");
    if (!mReduceProgram) {
        mReduceProgram = shaders.buildCompute("local-exposure.fusion.reduce", "localexposure/FusionReduce.comp");
        mReduceMeteredProgram = shaders.buildCompute(
            "local-exposure.fusion.reduce-metered", "localexposure/FusionReduce.comp", {{"EXPOSURE_FROM_BUFFER", "1"}});
        mPyramidProgram = shaders.buildCompute("local-exposure.fusion.pyramid", "localexposure/FusionPyramid.comp");
        mCollapseProgram = shaders.buildCompute("local-exposure.fusion.collapse", "localexposure/FusionCollapse.comp");
    }
    const int reduction = fusionReduction(s);
    const glm::ivec2 base{fusionBaseSide(size.x, reduction), fusionBaseSide(size.y, reduction)};
    const int levels = fusionLevelCount(base.x, base.y, s.maxLevels);
    mFrameSize = size;
    mReduction = reduction;
    mBracket = fusionBracket(s);
    if (mOutput && mOutput.size() == base && int(mLevels.size()) == levels)
        return;
    mLevels.clear();
    for (int k = 0; k < levels; ++k) {
        const glm::ivec2 side{fusionLevelSide(base.x, k), fusionLevelSide(base.y, k)};
        const std::string name = "local-exposure.fusion.level" + std::to_string(k);
        Level level;
        level.display = gl::Texture(name + ".display", GL_RGBA32F, side);
        level.weight = gl::Texture(name + ".weight", GL_RGBA32F, side);
        if (k > 0)
            level.collapsed = gl::Texture(name + ".collapsed", GL_R32F, side);
        mLevels.push_back(std::move(level));
    }
    mOutput = gl::Texture("local-exposure.fusion.exposure-log2", GL_R32F, base);
    mOutput.setFilter(GL_LINEAR, GL_LINEAR);
    mOutput.setWrap(GL_CLAMP_TO_EDGE);
}

void ExposureFusion::dispatchReduce(const gl::Texture& frame,
                                    float exposureLog2,
                                    const FusionSettings& s,
                                    const gl::Buffer* metered)
{
    gl::DebugGroup group("local-exposure/fusion/reduce");
    const Level& base = mLevels.front();
    barrier();
    gl::Program& program = metered ? mReduceMeteredProgram : mReduceProgram;
    program.use();
    const GLuint id = program.id();
    glProgramUniform2i(id, 0, mFrameSize.x, mFrameSize.y);
    glProgramUniform2i(id, 1, base.display.size().x, base.display.size().y);
    program.set(2, mReduction);
    glProgramUniform3f(id, 3, s.luminance.r, s.luminance.g, s.luminance.b);
    // Metered: the uniform holds the bias and the shader computes fusionEvOffset from the exposure it reads.
    const float bias = std::isfinite(s.middleGreyBias) ? s.middleGreyBias : 0.0f;
    program.set(4, metered ? bias : fusionEvOffset(exposureLog2, s));
    if (metered)
        metered->bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingFusionExposure);
    glProgramUniform2f(id, 5, mBracket.highlightEv, mBracket.shadowEv);
    bindTextures({&frame});
    base.display.bindImage(0, GL_WRITE_ONLY);
    base.weight.bindImage(1, GL_WRITE_ONLY);
    dispatchOver(base.display.size());
    barrier();
}

void ExposureFusion::dispatchPyramid()
{
    gl::DebugGroup group("local-exposure/fusion/pyramid");
    mPyramidProgram.use();
    const GLuint id = mPyramidProgram.id();
    for (std::size_t k = 1; k < mLevels.size(); ++k) {
        const Level &fine = mLevels[k - 1], &coarse = mLevels[k];
        glProgramUniform2i(id, 0, fine.display.size().x, fine.display.size().y);
        glProgramUniform2i(id, 1, coarse.display.size().x, coarse.display.size().y);
        bindTextures({&fine.display, &fine.weight});
        coarse.display.bindImage(0, GL_WRITE_ONLY);
        coarse.weight.bindImage(1, GL_WRITE_ONLY);
        dispatchOver(coarse.display.size());
        barrier();
    }
}

void ExposureFusion::dispatchCollapse()
{
    gl::DebugGroup group("local-exposure/fusion/collapse");
    mCollapseProgram.use();
    const GLuint id = mCollapseProgram.id();
    glProgramUniform2f(id, 4, mBracket.highlightEv, mBracket.shadowEv);
    for (int k = int(mLevels.size()) - 1; k >= 0; --k) {
        const Level& level = mLevels[std::size_t(k)];
        const bool hasCoarser = k + 1 < int(mLevels.size());
        // Without a coarser level the coarse samplers are never read; bind the level's own textures.
        const Level& coarse = hasCoarser ? mLevels[std::size_t(k + 1)] : level;
        const gl::Texture& coarseCollapsed = hasCoarser ? coarse.collapsed : level.weight;
        glProgramUniform2i(id, 0, level.display.size().x, level.display.size().y);
        glProgramUniform2i(id, 1, coarse.display.size().x, coarse.display.size().y);
        mCollapseProgram.set(2, hasCoarser ? 1 : 0);
        mCollapseProgram.set(3, k == 0 ? 1 : 0);
        bindTextures({&level.display, &level.weight, &coarse.display, &coarseCollapsed});
        (k == 0 ? mOutput : level.collapsed).bindImage(0, GL_WRITE_ONLY);
        dispatchOver(level.display.size());
        barrier();
    }
}

void ExposureFusion::run(PassContext& ctx,
                         const gl::Texture& frame,
                         glm::ivec2 size,
                         float exposureLog2,
                         const FusionSettings& s)
{
    prepare(ctx.shaders, frame, size, s);
    runPasses(ctx, frame, exposureLog2, s, nullptr);
}

void ExposureFusion::run(PassContext& ctx,
                         const gl::Texture& frame,
                         glm::ivec2 size,
                         const gl::Buffer& exposureLog2,
                         const FusionSettings& s)
{
    prepare(ctx.shaders, frame, size, s);
    runPasses(ctx, frame, 0.0f, s, &exposureLog2);
}

void ExposureFusion::runPasses(PassContext& ctx,
                               const gl::Texture& frame,
                               float exposureLog2,
                               const FusionSettings& s,
                               const gl::Buffer* metered)
{
    {
        auto scope = ctx.profiler.scope("local-exposure/fusion/reduce");
        dispatchReduce(frame, exposureLog2, s, metered);
    }
    {
        auto scope = ctx.profiler.scope("local-exposure/fusion/pyramid");
        dispatchPyramid();
    }
    {
        auto scope = ctx.profiler.scope("local-exposure/fusion/collapse");
        dispatchCollapse();
    }
    glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT | GL_TEXTURE_UPDATE_BARRIER_BIT);
}

std::vector<ExposureFusionTimings> ExposureFusion::time(gl::ShaderLibrary& shaders,
                                                        const gl::Texture& frame,
                                                        glm::ivec2 size,
                                                        float exposureLog2,
                                                        const FusionSettings& s,
                                                        int runs)
{
    prepare(shaders, frame, size, s);
    runs = std::max(runs, 1);
    std::vector<gl::Query> stamps;
    stamps.reserve(std::size_t(runs) * 4);
    for (int i = 0; i < runs * 4; ++i)
        stamps.emplace_back("local-exposure/fusion/stamp", GL_TIMESTAMP);
    {
        gl::DebugGroup group("local-exposure/fusion");
        for (int run = 0; run < runs; ++run) {
            const gl::Query* t = &stamps[std::size_t(run) * 4];
            t[0].timestamp();
            dispatchReduce(frame, exposureLog2, s);
            t[1].timestamp();
            dispatchPyramid();
            t[2].timestamp();
            dispatchCollapse();
            t[3].timestamp();
        }
    }
    std::vector<ExposureFusionTimings> timings(static_cast<std::size_t>(runs));
    for (std::size_t run = 0; run < timings.size(); ++run) {
        std::array<std::uint64_t, 4> t{};
        for (std::size_t i = 0; i < 4; ++i)
            t[i] = stamps[run * 4 + i].waitResult();
        timings[run] = {double(t[1] - t[0]) * 1e-6, double(t[2] - t[1]) * 1e-6, double(t[3] - t[2]) * 1e-6};
    }
    return timings;
}

}  // namespace post
