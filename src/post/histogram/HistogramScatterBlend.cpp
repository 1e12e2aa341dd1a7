#include "post/histogram/HistogramScatterBlend.h"

#include "profiling/Profiler.h"
#include "util/Log.h"

#include <imgui.h>

#include <algorithm>

namespace post {

namespace {

constexpr float kHalfSaturation = 2048.0f;       // 2^11: float16 has 11 significant bits
constexpr float kFloatSaturation = 16777216.0f;  // 2^24: float32 has 24

std::string compactCount(std::uint64_t value)
{
    if (value >= 1000000)
        return util::format("{}.{}M", value / 1000000, (value / 100000) % 10);
    if (value >= 10000)
        return util::format("{}k", value / 1000);
    return util::format("{}", value);
}

}  // namespace

HistogramScatterBlend::HistogramScatterBlend() = default;

HistogramScatterBlend::~HistogramScatterBlend() = default;

std::string_view HistogramScatterBlend::description() const
{
    return "Scheuermann & Hensley 2007: one point per pixel, binned in the vertex shader and scattered onto its bin's "
           "texel; additive blending counts. Options: R32F/R16F target, L local histograms, large histogram then "
           "reduce.";
}

std::string HistogramScatterBlend::limits() const
{
    return mSettings.format == ScatterFormat::R16F ? "R16F saturates at 2048 per texel"
                                                   : "R32F exact below 2^24 per texel";
}

void HistogramScatterBlend::setSettings(const ScatterSettings& settings)
{
    mSettings = settings;
    mSettings.localHistograms = std::clamp(mSettings.localHistograms, 1u, kMaxLocalHistograms);
    mLastStats.reset();
}

HistogramScatterBlend::Layout HistogramScatterBlend::layoutFor(std::uint32_t binCount, int maxTextureSize) const
{
    Layout layout;
    const bool reduce = mSettings.largeThenReduce && binCount < kLargeBins && kLargeBins % binCount == 0;
    layout.targetBins = reduce ? kLargeBins : binCount;
    layout.width = int(std::min<std::uint32_t>(layout.targetBins, std::uint32_t(std::max(maxTextureSize, 1))));
    layout.rowsPerHistogram = int((layout.targetBins + std::uint32_t(layout.width) - 1) / std::uint32_t(layout.width));
    layout.channels = mSettings.localHistograms == 1 ? 1 : 4;
    const std::uint32_t channels = std::uint32_t(layout.channels);
    const int groups = int((mSettings.localHistograms + channels - 1) / channels);
    layout.height = groups * layout.rowsPerHistogram;
    return layout;
}

void HistogramScatterBlend::ensureResources(PassContext& ctx, const Layout& layout)
{
    if (!mScatterProgram) {
        mScatterProgram = ctx.shaders.buildGraphics("histogram/scatter-blend/scatter", "histogram/ScatterBlend.vert",
                                                    "histogram/ScatterBlend.frag");
        mResolveProgram = ctx.shaders.buildCompute("histogram/scatter-blend/resolve", "histogram/ScatterResolve.comp");
        mVertexArray = gl::VertexArray("histogram/scatter-blend/empty-vertex-array");
        mStats = gl::Buffer("histogram/scatter-blend/stats", 4 * sizeof(std::uint32_t));
        for (std::size_t i = 0; i < mReadbacks.size(); ++i)
            mReadbacks[i].buffer = gl::Buffer(util::format("histogram/scatter-blend/stats-readback[{}]", i),
                                              4 * sizeof(std::uint32_t), nullptr, GL_CLIENT_STORAGE_BIT);
    }
    if (!mTarget || !(layout == mLayout) || mBuiltFormat != mSettings.format) {
        const bool half = mSettings.format == ScatterFormat::R16F;
        GLenum format = layout.channels == 1 ? (half ? GL_R16F : GL_R32F) : (half ? GL_RGBA16F : GL_RGBA32F);
        mTarget = gl::Texture("histogram/scatter-blend/target", format, {layout.width, layout.height});
        mTarget.setFilter(GL_NEAREST, GL_NEAREST);
        mFramebuffer = gl::Framebuffer("histogram/scatter-blend/framebuffer");
        mFramebuffer.attachTexture(GL_COLOR_ATTACHMENT0, mTarget);
        mFramebuffer.setDrawBuffers({GL_COLOR_ATTACHMENT0});
        mFramebuffer.checkComplete("histogram/scatter-blend/framebuffer");
        mLayout = layout;
        mBuiltFormat = mSettings.format;
    }
}

void HistogramScatterBlend::pollStats()
{
    // Results of earlier frames, only when the GPU is done with them (never waits).
    for (StatsReadback& readback : mReadbacks) {
        if (!readback.fence.signalled())
            continue;
        std::array<std::uint32_t, 4> words{};
        readback.buffer.read(0, sizeof(words), words.data());
        mLastStats = std::array<std::uint32_t, 3>{words[0], words[1], words[2]};
        readback.fence.reset();
    }
}

void HistogramScatterBlend::build(PassContext& ctx,
                                  const ImageInput& image,
                                  const HistogramSpec& spec,
                                  const HistogramTargets& targets)
{
    const std::uint32_t binCount = std::clamp(spec.binCount, 1u, hd::kMaxHistogramBins);
    if (image.size.x <= 0 || image.size.y <= 0) {
        clearHistogram(targets.histogram, binCount);
        return;
    }
    const Layout layout = layoutFor(binCount, ctx.caps.maxTextureSize);
    mReduceIgnored = mSettings.largeThenReduce && layout.targetBins == binCount && binCount != kLargeBins;
    ensureResources(ctx, layout);
    pollStats();
    {
        auto scope = ctx.profiler.scope("histogram/scatter-blend/scatter");
        RasterStateGuard guard;
        glBindFramebuffer(GL_FRAMEBUFFER, mFramebuffer.id());
        glViewport(0, 0, layout.width, layout.height);
        const float zero[4] = {0.0f, 0.0f, 0.0f, 0.0f};
        glClearNamedFramebufferfv(mFramebuffer.id(), GL_COLOR, 0, zero);
        glEnable(GL_BLEND);
        glBlendEquation(GL_FUNC_ADD);
        glBlendFunc(GL_ONE, GL_ONE);
        glEnable(GL_PROGRAM_POINT_SIZE);
        bindHistogramInputs(image, targets);
        const GLuint program = mScatterProgram.id();
        glProgramUniform2i(program, 0, image.size.x, image.size.y);
        glProgramUniform1ui(program, 1, layout.targetBins);
        glProgramUniform2i(program, 2, layout.width, layout.height);
        glProgramUniform1i(program, 3, layout.rowsPerHistogram);
        glProgramUniform1i(program, 4, int(mSettings.localHistograms));
        glProgramUniform1i(program, 5, layout.channels);
        mScatterProgram.use();
        mVertexArray.bind();
        glDrawArrays(GL_POINTS, 0, image.size.x * image.size.y);
    }
    mCensus.run(ctx, image, targets, "histogram/scatter-blend/counters");
    {
        auto scope = ctx.profiler.scope("histogram/scatter-blend/resolve");
        glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT | GL_FRAMEBUFFER_BARRIER_BIT);
        mStats.clearUint(0u);
        mTarget.bindUnit(hd::kTextureUnitAux);
        glBindSampler(hd::kTextureUnitAux, 0);
        targets.histogram.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingHistogram);
        mStats.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingScratch0);
        const GLuint program = mResolveProgram.id();
        glProgramUniform1ui(program, 0, binCount);
        glProgramUniform1i(program, 1, int(layout.targetBins / binCount));
        glProgramUniform1i(program, 2, layout.width);
        glProgramUniform1i(program, 3, layout.rowsPerHistogram);
        glProgramUniform1i(program, 4, int(mSettings.localHistograms));
        glProgramUniform1i(program, 5, layout.channels);
        glProgramUniform1f(program, 6, mSettings.format == ScatterFormat::R16F ? kHalfSaturation : kFloatSaturation);
        glProgramUniform1ui(program, 7, std::uint32_t(image.size.x) * std::uint32_t(image.size.y));
        mResolveProgram.use();
        glDispatchCompute(std::max(groupsFor(int(binCount), 256), 1u), 1, 1);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
    }
    StatsReadback& readback = mReadbacks[mNextReadback];
    if (!readback.fence.pending()) {
        mStats.copyTo(readback.buffer, 0, 0, 4 * sizeof(std::uint32_t));
        readback.fence = gl::Fence::insert();
        mNextReadback = (mNextReadback + 1) % mReadbacks.size();
    }
}

bool HistogramScatterBlend::ui()
{
    ScatterSettings next = mSettings;
    bool changed = false;
    int format = int(next.format);
    if (ImGui::Combo("Render target", &format, "R32F\0R16F\0")) {
        next.format = ScatterFormat(format);
        changed = true;
    }
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("R32F: exact counts below 2^24. R16F: a bin saturates at 2048.");
    int locals = int(next.localHistograms);
    if (ImGui::SliderInt("Local histograms", &locals, 1, int(kMaxLocalHistograms))) {
        next.localHistograms = std::uint32_t(locals);
        changed = true;
    }
    if (ImGui::Checkbox("1024 bins, reduced", &next.largeThenReduce))
        changed = true;
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Builds 1024 bins, then reduces them to the bins asked for (which must divide 1024).");
    if (changed)
        setSettings(next);
    return changed;
}

std::string HistogramScatterBlend::status() const
{
    std::string text = util::format("{}, L = {}", mSettings.format == ScatterFormat::R16F ? "R16F" : "R32F",
                                    mSettings.localHistograms);
    if (mSettings.largeThenReduce)
        text += mReduceIgnored ? ", reduce not applied (bins must divide 1024)" : ", 1024 bins reduced";
    if (mLastStats) {
        const auto& stats = *mLastStats;
        if (stats[0] != 0 || stats[1] != stats[2])
            text += util::format(": {} bins saturated, total {} of {}", stats[0], compactCount(stats[1]),
                                 compactCount(stats[2]));
        else
            text += util::format(": no saturation, total {}", compactCount(stats[1]));
    }
    return text;
}

ParameterList HistogramScatterBlend::parameters()
{
    const ScatterSettings d;
    ParameterList list;
    list.items = {
        enumParameter("scatter-blend.format", "Render target", mSettings.format, {"r32f", "r16f"}, d.format),
        uintParameter("scatter-blend.local_histograms", "Local histograms", mSettings.localHistograms, 1u,
                      kMaxLocalHistograms, d.localHistograms),
        boolParameter("scatter-blend.large_then_reduce", "Build 1024 bins, then reduce", mSettings.largeThenReduce,
                      d.largeThenReduce),
    };
    list.commit = [this] { setSettings(ScatterSettings(mSettings)); };  // as ui() does
    return list;
}

}  // namespace post
