// HistogramCudaMethods.cpp: the CUDA histogram methods as post::HistogramMethod: cuda-bugetti,
// cuda-fast and cuda-cub. Each frame: register (once per resize) and map, in one call, the HDR frame
// texture, the histogram and params buffers (and the CDF buffer when cuda-fast fuses the scan);
// run the kernels on the CUDA context's stream; unmap. Outputs land in the GL buffers the later GL
// passes read. Timing: timerBackend() gives the profiler CUDA events on the same stream. In the pipeline
// (PassContext::stageTimingName) the method's row "histogram/<id>" is its kernels alone, and the map,
// where the stream waits for the GL work before it (the scene), is the row "interop-wait/histogram/<id>".
// Called without a name (Ward's foveal histogram) the kernels are "histogram/<id>/kernels" under the caller's scope.
#include "cuda/CudaContext.h"
#include "cuda/GlInterop.h"
#include "cuda/Histogram.h"
#include "profiling/Profiler.h"

#include "post/histogram/HistogramRegistry.h"
#include "util/Log.h"

#include <imgui.h>

#include <algorithm>
#include <array>
#include <optional>

namespace cuda {

namespace {

/// What every CUDA histogram method shares: availability, registrations, the texture object.
class CudaHistogramBase : public post::HistogramMethod
{
public:
    post::Backend backend() const override { return post::Backend::Cuda; }
    post::Availability availability(const post::GpuCaps& caps) const override
    {
        return caps.cudaAvailable ? post::Availability::yes() : post::Availability::no(caps.cudaReason);
    }
    profiling::TimerBackend* timerBackend() override
    {
        return deviceUnavailableReason() ? nullptr : &CudaContext::instance().timer();
    }

    void build(post::PassContext& ctx,
               const post::ImageInput& image,
               const post::HistogramSpec& spec,
               const post::HistogramTargets& targets) override
    {
        CudaContext& context = CudaContext::instance();
        const cudaStream_t stream = context.stream();
        Slot& slot = slotFor(image.texture);
        if (slot.frame.track(image.texture))
            forgetTexture(slot, stream);
        slot.histogram.track(targets.histogram, GlRegistration::Access::ReadWrite);
        slot.params.track(targets.params, GlRegistration::Access::ReadOnly);
        std::vector<const GlRegistration*> resources{&slot.frame, &slot.histogram, &slot.params};
        const bool withCdf = wantsCdf() && targets.cumulative != nullptr;
        if (withCdf) {
            slot.cdf.track(*targets.cumulative, GlRegistration::Access::ReadWrite);
            resources.push_back(&slot.cdf);
        }
        const std::string stage(ctx.stageTimingName);
        std::optional<profiling::Profiler::Scope> wait;
        if (!stage.empty())
            wait.emplace(ctx.profiler.scope(std::string(post::kInteropWaitPrefix) + stage, timerBackend()));
        MappedResources mapped(std::move(resources), stream);

        HistogramInput input;
        input.texture = textureFor(slot, mapped.array(slot.frame), stream);
        wait.reset();
        input.width = std::min(image.size.x, image.texture.size().x);
        input.height = std::min(image.size.y, image.texture.size().y);
        HistogramOutput output;
        output.histogram = static_cast<std::uint32_t*>(mapped.pointer(slot.histogram));
        output.cdf = withCdf ? static_cast<std::uint32_t*>(mapped.pointer(slot.cdf)) : nullptr;
        const auto* params = static_cast<const std::uint32_t*>(mapped.pointer(slot.params));
        const unsigned bins = std::clamp<unsigned>(spec.binCount, 1u, hd::kMaxHistogramBins);
        // The kernels alone: the stage's own row, or a child of the caller's scope.
        auto kernels =
            ctx.profiler.scope(stage.empty() ? "histogram/" + std::string(id()) + "/kernels" : stage, timerBackend());
        run(input, params, bins, output, stream);
    }

protected:
    virtual bool wantsCdf() const { return false; }
    virtual void run(const HistogramInput& input,
                     const std::uint32_t* params,
                     unsigned bins,
                     const HistogramOutput& output,
                     cudaStream_t stream) = 0;

private:
    /// One input's registrations and texture object. Two slots: Ward's curve builds a second
    /// histogram per frame (of its foveal image) with the same method object, and a single slot
    /// would re-register both inputs, and wait for the stream, twice a frame.
    struct Slot
    {
        GlRegistration frame;
        GlRegistration histogram;
        GlRegistration params;
        GlRegistration cdf;
        TextureObject texture;
        cudaArray_t textureArray = nullptr;
        std::uint64_t lastUse = 0;
    };

    /// The slot that tracks `texture` (by GL name; track() then checks that it is the same object),
    /// else the least recently used one.
    Slot& slotFor(const gl::Texture& texture)
    {
        Slot* chosen = &mSlots[0];
        for (Slot& slot : mSlots) {
            if (slot.frame.tracking() && slot.frame.name() == texture.id()) {
                chosen = &slot;
                break;
            }
            if (slot.lastUse < chosen->lastUse)
                chosen = &slot;
        }
        chosen->lastUse = ++mUses;
        return *chosen;
    }

    /// A re-registered frame may map to a new array at a recycled address: drop the texture object.
    static void forgetTexture(Slot& slot, cudaStream_t stream)
    {
        if (slot.texture.get() != 0)
            CUDA_CHECK(cudaStreamSynchronize(stream));
        slot.texture = TextureObject();
        slot.textureArray = nullptr;
    }

    /// The array normally stays the same frame to frame; a texture object is made only when it
    /// changes (after waiting for the stream, so the old one is no longer in use).
    static cudaTextureObject_t textureFor(Slot& slot, cudaArray_t array, cudaStream_t stream)
    {
        if (array != slot.textureArray) {
            if (slot.texture.get() != 0)
                CUDA_CHECK(cudaStreamSynchronize(stream));
            slot.texture = TextureObject(array);
            slot.textureArray = array;
        }
        return slot.texture.get();
    }

    std::array<Slot, 2> mSlots;
    std::uint64_t mUses = 0;
};

class CudaBugettiHistogram final : public CudaHistogramBase
{
public:
    static constexpr std::string_view kId = "cuda-bugetti";
    std::string_view id() const override { return kId; }
    std::string_view label() const override { return "CUDA shared memory + run aggregation (Bugetti)"; }
    std::string_view description() const override
    {
        return "Bugetti's CalculateHistogram (CUDA): one shared-memory histogram per block, each thread merges "
               "runs of equal bins into one atomic, a grid of a quarter of ceil(pixels/block) blocks, global "
               "atomics to merge. Extended from 256 8-bit bins to log-luminance bins. Block 256 or 512.";
    }
    bool ui() override
    {
        bool changed = ImGui::RadioButton("256 threads", &mBlock, 256);
        ImGui::SameLine();
        changed |= ImGui::RadioButton("512 threads", &mBlock, 512);
        return changed;
    }
    post::ParameterList parameters() override
    {
        post::Parameter block;
        block.info = {"cuda-bugetti.block", "Threads per block", post::ParameterType::Enum, 0.0, 0.0,
                      {"256", "512"},       std::string("256")};
        block.get = [this] { return post::ParameterValue(std::to_string(mBlock)); };
        block.set = [this](const post::ParameterValue& value) { mBlock = std::stoi(std::get<std::string>(value)); };
        post::ParameterList list;
        list.items.push_back(std::move(block));
        return list;
    }
    std::string status() const override { return "block " + std::to_string(mBlock); }
    void setBlock(int block) { mBlock = block; }

protected:
    void run(const HistogramInput& input,
             const std::uint32_t* params,
             unsigned bins,
             const HistogramOutput& output,
             cudaStream_t stream) override
    {
        histogramBugetti(input, params, bins, output, mBlock, stream);
    }

private:
    int mBlock = 256;
};

class CudaFastHistogram final : public CudaHistogramBase
{
public:
    static constexpr std::string_view kId = "cuda-fast";
    std::string_view id() const override { return kId; }
    std::string_view label() const override { return "CUDA fast (persistent, replicated smem, fused CDF)"; }
    std::string_view description() const override
    {
        return "Persistent grid, 4 pixels in flight per thread, replicated padded shared-memory histograms, "
               "block partials merged by the last block (atomic ticket; global atomics for many bins), which "
               "also scans the CDF in the same launch. Options: __match_any_sync warp aggregation (off: slower "
               "on Hopper), hardware __log2f binning (off: not bit-exact).";
    }
    post::HistogramTraits traits() const override
    {
        return {.producesCumulative = mFusedCdf, .exactBinning = !mOptions.fastMath};
    }
    bool ui() override
    {
        bool changed = ImGui::Checkbox("CDF in the same launch", &mFusedCdf);
        changed |= ImGui::Checkbox("warp aggregation", &mOptions.warpAggregation);
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("__match_any_sync: one atomic per run of equal bins in a warp");
        changed |= ImGui::Checkbox("hardware log2", &mOptions.fastMath);
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("__log2f binning: faster, not bit-exact");
        int merge = int(mOptions.merge);
        const char* merges[] = {"auto", "last block", "global atomics"};
        if (ImGui::Combo("merge", &merge, merges, 3)) {
            mOptions.merge = FastMerge(merge);
            changed = true;
        }
        return changed;
    }
    post::ParameterList parameters() override
    {
        const FastHistogramOptions d;
        post::ParameterList list;
        list.items = {
            post::boolParameter("cuda-fast.fused_cdf", "CDF in the same launch", mFusedCdf, true),
            post::boolParameter("cuda-fast.warp_aggregation", "warp aggregation (__match_any_sync)",
                                mOptions.warpAggregation, d.warpAggregation),
            post::boolParameter("cuda-fast.fast_math", "hardware log2 (__log2f; not bit-exact)", mOptions.fastMath,
                                d.fastMath),
            post::enumParameter("cuda-fast.merge", "merge", mOptions.merge, {"auto", "last-block", "global-atomics"},
                                d.merge),
        };
        return list;
    }
    std::string status() const override
    {
        return mLastMerge == FastMerge::GlobalAtomics ? "merge: global atomics" : "merge: last block";
    }

protected:
    bool wantsCdf() const override { return mFusedCdf; }
    void run(const HistogramInput& input,
             const std::uint32_t* params,
             unsigned bins,
             const HistogramOutput& output,
             cudaStream_t stream) override
    {
        mOptions.multiprocessors = CudaContext::instance().multiprocessorCount();
        if (!mWorkspace)
            mWorkspace.emplace();  // allocates: only once CUDA is known to work
        mLastMerge = histogramFast(input, params, bins, output, *mWorkspace, mOptions, stream);
    }

private:
    bool mFusedCdf = true;
    FastHistogramOptions mOptions;
    FastMerge mLastMerge = FastMerge::LastBlock;
    std::optional<FastHistogramWorkspace> mWorkspace;
};

class CudaCubHistogram final : public CudaHistogramBase
{
public:
    static constexpr std::string_view kId = "cuda-cub";
    std::string_view id() const override { return kId; }
    std::string_view label() const override { return "CUDA CUB HistogramEven (library baseline)"; }
    std::string_view description() const override
    {
        return "A fused kernel writes each pixel's log-luminance in bin units (and counts NaN/Inf/non-positive/"
               "out-of-range pixels), then cub::DeviceHistogram::HistogramEven bins it. Two passes and a 4-byte "
               "intermediate per pixel; CUB privatises in shared memory only up to 256 bins.";
    }

protected:
    void run(const HistogramInput& input,
             const std::uint32_t* params,
             unsigned bins,
             const HistogramOutput& output,
             cudaStream_t stream) override
    {
        histogramCub(input, params, bins, output, mWorkspace, stream);
    }

private:
    CubHistogramWorkspace mWorkspace;
};

}  // namespace

}  // namespace cuda

namespace post {

void appendCudaHistogramMethods(std::vector<HistogramMethodEntry>& list)
{
    list.push_back(histogramEntry<cuda::CudaBugettiHistogram>());
    list.push_back(histogramEntry<cuda::CudaFastHistogram>());
    list.push_back(histogramEntry<cuda::CudaCubHistogram>());
}

}  // namespace post
