#include "post/histogram/HistogramGreenOcclusion.h"

#include "post/histogram/HistogramPassCommon.h"
#include "profiling/Profiler.h"
#include "util/Log.h"

#include <imgui.h>

#include <algorithm>
#include <array>
#include <chrono>

namespace post {

namespace {
constexpr std::uint32_t kNoBinCodes = 5;  // hd::kBinNaN .. hd::kBinAbove
}  // namespace

std::string_view HistogramGreenOcclusion::description() const
{
    return "Green, GDC 2005: one full-screen pass per bin discards the pixels of other bins; a GL_SAMPLES_PASSED "
           "occlusion query counts the rest. Modes: query buffer (no stall), classic CPU readback (stalls), Valve "
           "2006 (K bins per frame, round robin).";
}

Availability HistogramGreenOcclusion::availability(const GpuCaps& caps) const
{
    std::string reason = queryBufferUnavailableReason(caps);
    return reason.empty() ? Availability::yes() : Availability::no(reason);
}

void HistogramGreenOcclusion::setSettings(const GreenSettings& settings)
{
    mSettings = settings;
    mSettings.valveSlotsPerFrame = std::max(mSettings.valveSlotsPerFrame, 1u);
    mValveBinCount = 0;  // refresh every slot on the next Valve frame
}

HistogramGreenOcclusion::Slot HistogramGreenOcclusion::slotAt(std::uint32_t index, std::uint32_t binCount) const
{
    if (index < binCount)
        return {int(index), index};
    int code = -int(index - binCount) - 1;  // kBinNaN, kBinInf, kBinNonPositive, kBinBelow, kBinAbove
    return {code, hd::kHistogramCountersOffset + hd::hdCounterOfCode(code)};
}

void HistogramGreenOcclusion::ensureResources(PassContext& ctx, glm::ivec2 size, std::uint32_t slotCount)
{
    if (!mProgram) {
        mCodesProgram = ctx.shaders.buildGraphics("histogram/green-occlusion/bin-codes",
                                                  "histogram/FullscreenTriangle.vert", "histogram/BinCodes.frag");
        mProgram = ctx.shaders.buildGraphics("histogram/green-occlusion/bin-pass", "histogram/FullscreenTriangle.vert",
                                             "histogram/GreenBinPass.frag");
        mVertexArray = gl::VertexArray("histogram/green-occlusion/empty-vertex-array");
        // No attachments (ARB_framebuffer_no_attachments, GL 4.3): the passes only feed the queries.
        mFramebuffer = gl::Framebuffer("histogram/green-occlusion/framebuffer");
        mValveCounts =
            gl::Buffer("histogram/green-occlusion/valve-counts", hd::kHistogramBufferWords * sizeof(std::uint32_t));
        mValveCounts.clearUint(0u);
    }
    if (size != mFramebufferSize) {
        glNamedFramebufferParameteri(mFramebuffer.id(), GL_FRAMEBUFFER_DEFAULT_WIDTH, size.x);
        glNamedFramebufferParameteri(mFramebuffer.id(), GL_FRAMEBUFFER_DEFAULT_HEIGHT, size.y);
        mFramebuffer.checkComplete("histogram/green-occlusion/framebuffer");
        mCodes = gl::Texture("histogram/green-occlusion/bin-codes", GL_R32I, size);
        mCodes.setFilter(GL_NEAREST, GL_NEAREST);
        mCodesFramebuffer = gl::Framebuffer("histogram/green-occlusion/bin-codes-framebuffer");
        mCodesFramebuffer.attachTexture(GL_COLOR_ATTACHMENT0, mCodes);
        mCodesFramebuffer.setDrawBuffers({GL_COLOR_ATTACHMENT0});
        mCodesFramebuffer.checkComplete("histogram/green-occlusion/bin-codes-framebuffer");
        mFramebufferSize = size;
    }
    while (mQueries.size() < slotCount)
        mQueries.emplace_back(util::format("histogram/green-occlusion/query[{}]", mQueries.size()), GL_SAMPLES_PASSED);
}

void HistogramGreenOcclusion::runPasses(PassContext& ctx,
                                        const ImageInput& image,
                                        const HistogramTargets& targets,
                                        const std::vector<std::uint32_t>& slots,
                                        std::uint32_t binCount)
{
    RasterStateGuard guard;
    glViewport(0, 0, image.size.x, image.size.y);
    mVertexArray.bind();
    {
        auto scope = ctx.profiler.scope("histogram/green-occlusion/bin-codes");
        glBindFramebuffer(GL_FRAMEBUFFER, mCodesFramebuffer.id());
        bindHistogramInputs(image, targets);
        mCodesProgram.use();
        glDrawArrays(GL_TRIANGLES, 0, 3);
    }
    auto scope = ctx.profiler.scope("histogram/green-occlusion/bin-passes");
    glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT | GL_FRAMEBUFFER_BARRIER_BIT);
    glBindFramebuffer(GL_FRAMEBUFFER, mFramebuffer.id());
    glColorMask(GL_FALSE, GL_FALSE, GL_FALSE, GL_FALSE);
    mCodes.bindUnit(hd::kTextureUnitAux);
    glBindSampler(hd::kTextureUnitAux, 0);
    mProgram.use();
    for (std::uint32_t index : slots) {
        glProgramUniform1i(mProgram.id(), 0, slotAt(index, binCount).code);
        mQueries[index].begin();
        glDrawArrays(GL_TRIANGLES, 0, 3);
        mQueries[index].end();
    }
}

void HistogramGreenOcclusion::build(PassContext& ctx,
                                    const ImageInput& image,
                                    const HistogramSpec& spec,
                                    const HistogramTargets& targets)
{
    const std::uint32_t binCount = std::clamp(spec.binCount, 1u, hd::kMaxHistogramBins);
    const std::uint32_t slotCount = binCount + kNoBinCodes;
    mLastSlotCount = slotCount;
    if (image.size.x <= 0 || image.size.y <= 0) {
        clearHistogram(targets.histogram, binCount);
        mLastPasses = 0;
        return;
    }
    ensureResources(ctx, image.size, slotCount);

    std::vector<std::uint32_t> slots;
    const bool valve = mSettings.mode == GreenMode::Valve;
    const bool refreshAll =
        !valve || mValveBinCount != binCount || mValvePolicy != spec.outOfRange || mValveSize != image.size;
    if (refreshAll) {
        for (std::uint32_t i = 0; i < slotCount; ++i)
            slots.push_back(i);
        mValveNext = 0;
        if (valve) {
            mValveCounts.clearUint(0u);
            mValveBinCount = binCount;
            mValvePolicy = spec.outOfRange;
            mValveSize = image.size;
        }
    } else {
        const std::uint32_t perFrame = std::min(mSettings.valveSlotsPerFrame, slotCount);
        for (std::uint32_t i = 0; i < perFrame; ++i)
            slots.push_back((mValveNext + i) % slotCount);
        mValveNext = (mValveNext + perFrame) % slotCount;
    }
    mLastPasses = std::uint32_t(slots.size());
    runPasses(ctx, image, targets, slots, binCount);

    auto scope = ctx.profiler.scope("histogram/green-occlusion/results");
    switch (mSettings.mode) {
        case GreenMode::QueryBuffer:
            clearHistogram(targets.histogram, binCount);
            for (std::uint32_t index : slots)
                glGetQueryBufferObjectuiv(mQueries[index].id(), targets.histogram.id(), GL_QUERY_RESULT,
                                          GLintptr(wordOffset(slotAt(index, binCount).word)));
            break;
        case GreenMode::Valve:
            for (std::uint32_t index : slots)
                glGetQueryBufferObjectuiv(mQueries[index].id(), mValveCounts.id(), GL_QUERY_RESULT,
                                          GLintptr(wordOffset(slotAt(index, binCount).word)));
            mValveCounts.copyTo(targets.histogram, 0, 0, wordOffset(binCount));
            mValveCounts.copyTo(targets.histogram, wordOffset(hd::kHistogramCountersOffset),
                                wordOffset(hd::kHistogramCountersOffset), wordOffset(hd::kCounterCount));
            break;
        case GreenMode::Classic: {
            // The paper's way: the CPU waits for every query of this frame, then uploads the counts.
            auto start = std::chrono::steady_clock::now();
            std::vector<std::uint32_t> bins(binCount, 0u);
            std::array<std::uint32_t, hd::kCounterCount> counters{};
            for (std::uint32_t index : slots) {
                Slot slot = slotAt(index, binCount);
                std::uint32_t value = std::uint32_t(mQueries[index].waitResult());
                if (slot.word < binCount)
                    bins[slot.word] = value;
                else
                    counters[slot.word - hd::kHistogramCountersOffset] = value;
            }
            mLastStallMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
            targets.histogram.update(0, wordOffset(binCount), bins.data());
            targets.histogram.update(wordOffset(hd::kHistogramCountersOffset), wordOffset(hd::kCounterCount),
                                     counters.data());
            break;
        }
    }
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
}

bool HistogramGreenOcclusion::ui()
{
    GreenSettings next = mSettings;
    int mode = int(next.mode);
    bool changed = ImGui::Combo("Results", &mode, "query buffer\0CPU readback\0Valve (K a frame)\0");
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip(
            "query buffer: the results are written to a buffer on the GPU (no stall). CPU readback: the classic "
            "query results read on the CPU (stalls). Valve: K bins queried per frame.");
    next.mode = GreenMode(mode);
    if (next.mode == GreenMode::Valve) {
        int perFrame = int(next.valveSlotsPerFrame);
        if (ImGui::SliderInt("Bins a frame (K)", &perFrame, 1, 256)) {
            next.valveSlotsPerFrame = std::uint32_t(perFrame);
            changed = true;
        }
    }
    if (changed)
        setSettings(next);
    return changed;
}

std::string HistogramGreenOcclusion::status() const
{
    switch (mSettings.mode) {
        case GreenMode::QueryBuffer:
            return util::format("{} passes, results written to the GPU buffer by the query buffer object", mLastPasses);
        case GreenMode::Classic:
            return util::format("classic: CPU stalled {} ms waiting for {} query results", mLastStallMs, mLastPasses);
        case GreenMode::Valve: {
            std::uint32_t perFrame = std::max(1u, std::min(mSettings.valveSlotsPerFrame, mLastSlotCount));
            std::uint32_t framesPerSweep = mLastSlotCount == 0 ? 0 : (mLastSlotCount + perFrame - 1) / perFrame;
            return util::format("Valve: {} of {} slots per frame; every slot refreshed every {} frames", mLastPasses,
                                mLastSlotCount, framesPerSweep);
        }
    }
    return {};
}

ParameterList HistogramGreenOcclusion::parameters()
{
    const GreenSettings d;
    ParameterList list;
    list.items = {
        enumParameter("green-occlusion.mode", "Results", mSettings.mode, {"query-buffer", "classic", "valve"}, d.mode),
        uintParameter("green-occlusion.valve_bins_per_frame", "Bins a frame (K)", mSettings.valveSlotsPerFrame, 1u,
                      hd::kMaxHistogramBins, d.valveSlotsPerFrame),
    };
    list.commit = [this] { setSettings(GreenSettings(mSettings)); };  // restarts the Valve sweep, as ui() does
    return list;
}

}  // namespace post
