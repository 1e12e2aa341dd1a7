#include "post/histogram/HistogramCpuReadback.h"

#include "post/histogram/HistogramPassCommon.h"
#include "profiling/Profiler.h"
#include "util/Log.h"

#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cstring>

namespace post {

namespace {
constexpr std::size_t kParamsBytes = hd::kHistogramParamsWords * sizeof(std::uint32_t);
}  // namespace

HistogramCpuReadback::HistogramCpuReadback() = default;

HistogramCpuReadback::~HistogramCpuReadback()
{
    dropPending();
}

std::string_view HistogramCpuReadback::description() const
{
    return "The papers' CPU baseline: the luminance is read back asynchronously through a pixel buffer object and "
           "binned on the CPU frames later (glGetHistogram does not exist in a core profile).";
}

void HistogramCpuReadback::dropPending()
{
    for (Slot& slot : mSlots)
        slot.fence.reset();
}

void HistogramCpuReadback::ensureResources(PassContext& ctx, glm::ivec2 size)
{
    if (!mLuminanceProgram)
        mLuminanceProgram = ctx.shaders.buildCompute("histogram/cpu-readback/luminance", "histogram/Luminance.comp");
    if (mLuminance && mLuminance.size() == size)
        return;
    dropPending();
    mLuminance = gl::Texture("histogram/cpu-readback/luminance", GL_R32F, size);
    mLuminance.setFilter(GL_NEAREST, GL_NEAREST);
    const std::size_t bytes = kParamsBytes + std::size_t(size.x) * std::size_t(size.y) * sizeof(float);
    for (std::size_t i = 0; i < mSlots.size(); ++i) {
        mSlots[i].buffer = gl::Buffer(util::format("histogram/cpu-readback/pixel-pack[{}]", i), bytes, nullptr,
                                      GL_MAP_READ_BIT | GL_CLIENT_STORAGE_BIT);
        mSlots[i].size = size;
    }
}

void HistogramCpuReadback::issueReadback(PassContext& ctx,
                                         const ImageInput& image,
                                         const HistogramTargets& targets,
                                         Slot& slot)
{
    {
        auto scope = ctx.profiler.scope("histogram/cpu-readback/luminance");
        bindHistogramInputs(image, targets);
        mLuminance.bindImage(hd::kImageUnitOutput, GL_WRITE_ONLY);
        glProgramUniform2i(mLuminanceProgram.id(), 0, image.size.x, image.size.y);
        mLuminanceProgram.use();
        glDispatchCompute(groupsFor(image.size.x, hd::kHistogramGroupX), groupsFor(image.size.y, hd::kHistogramGroupY),
                          1);
    }
    auto scope = ctx.profiler.scope("histogram/cpu-readback/readback");
    glMemoryBarrier(GL_PIXEL_BUFFER_BARRIER_BIT | GL_TEXTURE_UPDATE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
    targets.params.copyTo(slot.buffer, 0, 0, kParamsBytes);
    GLint previousPackBuffer = 0;
    GLint previousAlignment = 4;
    glGetIntegerv(GL_PIXEL_PACK_BUFFER_BINDING, &previousPackBuffer);
    glGetIntegerv(GL_PACK_ALIGNMENT, &previousAlignment);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, slot.buffer.id());
    glPixelStorei(GL_PACK_ALIGNMENT, 4);
    const GLsizei pixelBytes = GLsizei(std::size_t(image.size.x) * std::size_t(image.size.y) * sizeof(float));
    glGetTextureImage(mLuminance.id(), 0, GL_RED, GL_FLOAT, pixelBytes, reinterpret_cast<void*>(kParamsBytes));
    glPixelStorei(GL_PACK_ALIGNMENT, previousAlignment);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, GLuint(previousPackBuffer));
    slot.fence = gl::Fence::insert();
    slot.build = mBuildCount;
}

void HistogramCpuReadback::consume(Slot& slot)
{
    auto start = std::chrono::steady_clock::now();
    const std::size_t pixels = std::size_t(slot.size.x) * std::size_t(slot.size.y);
    const void* mapped =
        glMapNamedBufferRange(slot.buffer.id(), 0, GLsizeiptr(kParamsBytes + pixels * sizeof(float)), GL_MAP_READ_BIT);
    slot.fence.reset();
    if (!mapped) {
        util::logWarning("cpu-readback: cannot map the pixel pack buffer");
        return;
    }
    std::uint32_t params[hd::kHistogramParamsWords];
    std::memcpy(params, mapped, kParamsBytes);
    float logMin = 0.0f;
    float logMax = 0.0f;
    std::memcpy(&logMin, &params[hd::kParamLogMin], sizeof(float));
    std::memcpy(&logMax, &params[hd::kParamLogMax], sizeof(float));
    const std::uint32_t binCount = std::clamp(params[hd::kParamBinCount], 1u, hd::kMaxHistogramBins);
    const std::uint32_t policy = params[hd::kParamOutOfRange];
    const float* luminance = reinterpret_cast<const float*>(static_cast<const char*>(mapped) + kParamsBytes);

    mBins.assign(binCount, 0u);
    mCounters.fill(0u);
    for (std::size_t i = 0; i < pixels; ++i) {
        int code = hd::hdBinOf(luminance[i], logMin, logMax, binCount, policy);
        if (code >= 0)
            ++mBins[std::size_t(code)];
        else
            ++mCounters[hd::hdCounterOfCode(code)];
    }
    glUnmapNamedBuffer(slot.buffer.id());
    mBinningMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    mLatencyBuilds = mBuildCount - slot.build;
    mHaveResult = true;
}

void HistogramCpuReadback::build(PassContext& ctx,
                                 const ImageInput& image,
                                 const HistogramSpec& spec,
                                 const HistogramTargets& targets)
{
    ++mBuildCount;
    const std::uint32_t binCount = std::clamp(spec.binCount, 1u, hd::kMaxHistogramBins);
    if (image.size.x <= 0 || image.size.y <= 0) {
        clearHistogram(targets.histogram, binCount);
        return;
    }
    ensureResources(ctx, image.size);

    // Take the newest readback that has arrived (never waits); older arrived ones are dropped.
    Slot* newest = nullptr;
    for (Slot& slot : mSlots) {
        if (!slot.fence.signalled())
            continue;
        if (newest && newest->build > slot.build) {
            slot.fence.reset();
            continue;
        }
        if (newest)
            newest->fence.reset();
        newest = &slot;
    }
    if (newest) {
        auto scope = ctx.profiler.scope("histogram/cpu-readback/cpu-binning");
        consume(*newest);
    }

    auto freeSlot = std::find_if(mSlots.begin(), mSlots.end(), [](const Slot& slot) { return !slot.fence.pending(); });
    if (freeSlot == mSlots.end()) {
        ++mSkippedReadbacks;  // the GPU is more than kSlots frames behind: skip this frame's readback
    } else {
        issueReadback(ctx, image, targets, *freeSlot);
        if (mSynchronous) {
            auto scope = ctx.profiler.scope("histogram/cpu-readback/wait");
            if (!freeSlot->fence.waitFlushing())
                util::logWarning("cpu-readback: waiting for the readback failed");
            else
                consume(*freeSlot);
        }
    }

    auto scope = ctx.profiler.scope("histogram/cpu-readback/upload");
    std::vector<std::uint32_t> upload(binCount, 0u);
    if (mHaveResult)
        std::copy_n(mBins.begin(), std::min<std::size_t>(mBins.size(), binCount), upload.begin());
    targets.histogram.update(0, upload.size() * sizeof(std::uint32_t), upload.data());
    std::array<std::uint32_t, hd::kCounterCount> counters{};
    if (mHaveResult)
        counters = mCounters;
    targets.histogram.update(wordOffset(hd::kHistogramCountersOffset), sizeof(counters), counters.data());
}

bool HistogramCpuReadback::ui()
{
    const bool changed = ImGui::Checkbox("Synchronous (stalls)", &mSynchronous);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Reads this frame's histogram at once, stalling the GPU (for tests).");
    return changed;
}

std::string HistogramCpuReadback::status() const
{
    if (!mHaveResult)
        return "waiting for the first readback";
    std::string text = util::format("latency {} frames, CPU binning {} ms", mLatencyBuilds, mBinningMs);
    if (mSkippedReadbacks != 0)
        text += util::format(", {} readbacks skipped (GPU behind)", mSkippedReadbacks);
    return text;
}

ParameterList HistogramCpuReadback::parameters()
{
    ParameterList list;
    list.items.push_back(
        boolParameter("cpu-readback.synchronous", "Synchronous (stall, for tests)", mSynchronous, false));
    return list;
}

}  // namespace post
