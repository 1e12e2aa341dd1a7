#include "post/histogram/HistogramComputeSharedAtomic.h"

#include "gl/Debug.h"
#include "shared/LocalExposure.h"
#include "shared/TileHistogramsInPass.h"
#include "util/Log.h"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <string>
#include <utility>

namespace post {

namespace {

/// Reads "key=value" pairs of HDRLAB_SHARED_ATOMIC (benchmark tuning), keeping defaults on errors.
HistogramComputeSharedAtomic::Tuning readTuning()
{
    HistogramComputeSharedAtomic::Tuning tuning;
    const char* text = std::getenv("HDRLAB_SHARED_ATOMIC");
    if (!text || !*text)
        return tuning;
    std::string_view rest(text);
    while (!rest.empty()) {
        const std::string_view item = rest.substr(0, rest.find(','));
        rest.remove_prefix(std::min(rest.size(), item.size() + 1));
        const auto equals = item.find('=');
        std::uint32_t value = 0;
        if (equals == std::string_view::npos ||
            std::from_chars(item.data() + equals + 1, item.data() + item.size(), value).ec != std::errc())
            continue;
        const std::string_view key = item.substr(0, equals);
        if (key == "pixels" && value >= 1 && value <= 16)
            tuning.pixels = value;
        else if (key == "groups" && value >= 1 && value <= 65535)
            tuning.maxGroups = value;
        else if (key == "strip")
            tuning.strip = value != 0;
        else if (key == "replicas" && value >= 1 && value <= 16)
            tuning.replicas = value;
        else if (key == "subgroup")
            tuning.subgroupVote = value != 0;
        else if (key == "merge")
            tuning.runMerge = value != 0;
        else if (key == "foveal" && value >= 1 && value <= 2)
            tuning.fovealShape = value;
        else if (key == "curve" && value <= 3)
            tuning.curveRuns = value;
    }
    util::logInfo(
        "compute-shared-atomic: HDRLAB_SHARED_ATOMIC pixels={} groups={} strip={} replicas={} subgroup={} merge={} "
        "foveal={} curve={}",
        tuning.pixels, tuning.maxGroups, int(tuning.strip), tuning.replicas, int(tuning.subgroupVote),
        int(tuning.runMerge), tuning.fovealShape, tuning.curveRuns);
    return tuning;
}

/// Whether the subgroup fast path can compile here (vote operations in compute shaders).
bool subgroupVoteSupported(const GpuCaps& caps)
{
    if (!caps.gl.hasExtension("GL_KHR_shader_subgroup"))
        return false;
    GLint stages = 0, features = 0;
    glGetIntegerv(GL_SUBGROUP_SUPPORTED_STAGES_KHR, &stages);
    glGetIntegerv(GL_SUBGROUP_SUPPORTED_FEATURES_KHR, &features);
    return (stages & GL_COMPUTE_SHADER_BIT) != 0 && (features & GL_SUBGROUP_FEATURE_VOTE_BIT_KHR) != 0;
}

}  // namespace

HistogramComputeSharedAtomic::HistogramComputeSharedAtomic() : mTuning(readTuning())
{
}

std::string_view HistogramComputeSharedAtomic::description() const
{
    return "GL compute: a persistent grid of workgroups walks 32x32 tiles (a warp reads 32 neighbouring texels, "
           "4 loads in flight per thread), bins bit-exactly at the hardware log2's speed (the exact polynomial only "
           "next to bin edges) into a private shared-memory histogram, one shared atomic per pixel, then each "
           "workgroup adds its non-zero bins to an accumulator and the last one to finish publishes them.";
}

Availability HistogramComputeSharedAtomic::availability(const GpuCaps& caps) const
{
    const int needed = int((hd::kMaxHistogramBins + hd::kCounterCount) * sizeof(std::uint32_t));
    if (caps.maxComputeSharedBytes < needed)
        return Availability::no("needs " + std::to_string(needed) + " bytes of compute shared memory, the GPU has " +
                                std::to_string(caps.maxComputeSharedBytes));
    return Availability::yes();
}

std::string HistogramComputeSharedAtomic::status() const
{
    return std::to_string(mLastGroups) + " workgroups, " + std::to_string(mTuning.pixels) + " loads in flight, " +
           (mTuning.strip ? "row strips" : "columns") +
           (mLastReplicas > 1 ? ", " + std::to_string(mLastReplicas) + " copies" : "") +
           (mLastSubgroupVote ? ", subgroup vote" : "") +
           (mLastFoveal ? ", Ward's foveal image in the same pass" : "") +
           (mLastCurve ? ", the curve built by the last workgroup" : "") +
           (mLastTiles ? ", the tile histograms in the same pass" : "");
}

namespace {
/// TILES: how many blocks of `blockWidth` x `blockHeight` the walk of the tile grid visits (each
/// tile's blocks clipped to the tile).
std::uint64_t tileBlockCount(const TileHistogramTarget& target, glm::ivec2 imageSize, int blockWidth, int blockHeight)
{
    const auto along = [](int tileCount, int tile, int size, int block) {
        std::uint64_t sum = 0;
        for (int i = 0; i < tileCount; ++i)
            sum += std::uint64_t(hd::hdTileBlocksAlong(i, tile, size, block));
        return sum;
    };
    return along(target.tiles.x, target.tileSize.x, imageSize.x, blockWidth) *
           along(target.tiles.y, target.tileSize.y, imageSize.y, blockHeight);
}

FovealTarget* acceptedFoveal(FovealTarget* foveal, glm::ivec2 imageSize)
{
    return foveal && foveal->image && foveal->grid.x > 0 && foveal->grid.y > 0 && foveal->grid.x <= imageSize.x &&
                   foveal->grid.y <= imageSize.y
               ? foveal
               : nullptr;
}

/// An offer holds for one build (the caller clears it); `allowed`: the pass makes neither foveal image nor picture.
TileHistogramTarget* acceptedTiles(TileHistogramTarget* offered, bool allowed)
{
    return allowed && offered && offered->histograms && offered->tiles.x > 0 && offered->tiles.y > 0 &&
                   offered->tileSize.x > 0 && offered->tileSize.y > 0
               ? offered
               : nullptr;
}

ApplyTarget* acceptedApply(ApplyTarget* apply, glm::ivec2 imageSize, bool allowed)
{
    return allowed && apply && apply->curve && apply->output && apply->output->size() == imageSize &&
                   apply->output->format() == GL_RGBA8
               ? apply
               : nullptr;
}

CurveTarget* acceptedCurve(CurveTarget* curve)
{
    return curve && curve->kernel != 0 && curve->curve && curve->cdf ? curve : nullptr;
}

/// The local exposure's grid in the same read: the tile walk only, its blocks nesting in 64 x 64.
LocalExposureGridTarget* acceptedGrid(LocalExposureGridTarget* offered, bool allowed, bool strip, std::uint32_t pixels)
{
    return allowed && offered && offered->grid && !strip && pixels <= 4 && 64 % (8 * pixels) == 0 ? offered : nullptr;
}

/// The program's label: its variant's parts (apply, curve kernel, foveal shape, keys, tiles, grid) and capacity.
std::string programLabel(const gl::ShaderDefines& defines, std::uint32_t capacity)
{
    const auto value = [&](const std::string& name) {
        for (const auto& [key, v] : defines)
            if (key == name)
                return v;
        return std::string("0");
    };
    std::string label = "histogram.compute-shared-atomic.";
    if (value("APPLY") != "0")
        label += "apply.";
    if (value("CURVE_KERNEL") != "0")
        label += "curve" + value("CURVE_KERNEL") + ".";
    if (value("FOVEAL") != "0")
        label += "foveal" + value("FOVEAL") + ".";
    if (value("FOVEAL_KEYS") != "0")
        label += "keys.";
    if (value("TILES") != "0")
        label += "tiles.";
    if (value("LOCAL_EXPOSURE_GRID") != "0")
        label += "grid.";
    return label + std::to_string(capacity);
}

/// The program cache's key: every define, in order.
std::string definesKey(const gl::ShaderDefines& defines)
{
    std::string key;
    for (const auto& [name, value] : defines)
        key += name + "=" + value + " ";
    return key;
}
}  // namespace

void HistogramComputeSharedAtomic::build(PassContext& ctx,
                                         const ImageInput& image,
                                         const HistogramSpec& spec,
                                         const HistogramTargets& targets)
{
    const std::uint32_t bins = std::clamp(spec.binCount, 1u, hd::kMaxHistogramBins);
    std::size_t variant = 0;
    while (kBinCapacities[variant] < bins)
        ++variant;
    // The foveal variant needs blocks a workgroup can fill (ToneWard offers no target otherwise).
    FovealTarget* foveal = acceptedFoveal(targets.foveal, image.size);
    // Ward's foveal blocks: a row of 32 invocations per block (FOVEAL 2) unless a benchmark asks for a
    // workgroup per block (FOVEAL 1: 71 against 55 us at 4K on the H200, docs/PERF.md).
    const int fovealVariant = !foveal ? 0 : mTuning.fovealShape == 1 ? 1 : 2;
    const bool fovealKeys = foveal && foveal->rangeKeys && *foveal->rangeKeys;  // Ward's range keys too
    ApplyTarget* apply = acceptedApply(targets.apply, image.size, fovealVariant != 1);
    CurveTarget* curve = acceptedCurve(targets.curve);
    // A local operator's tile histograms (TILES 1): a walk of the tile grid's blocks, no foveal or apply.
    TileHistogramTarget* tileTarget = acceptedTiles(std::exchange(mTileTarget, nullptr), !foveal && !apply);
    // The local exposure's grid in the same read: the tile walk only, its blocks nesting in 64 x 64.
    // Not with a local operator's tiles (the operators are local already: the apply ignores the grid).
    LocalExposureGridTarget* grid =
        acceptedGrid(targets.localExposureGrid, !tileTarget && fovealVariant == 0, mTuning.strip, mTuning.pixels);
    const std::uint32_t capacity = kBinCapacities[variant];
    // Copies must fit the GL minimum of 32 KB shared memory (odd stride of capacity + counters + 1).
    const std::uint32_t fitting =
        std::uint32_t(ctx.caps.maxComputeSharedBytes / 4) / (capacity + hd::kCounterCount + 1);
    const std::uint32_t replicas = std::max(1u, std::min(mTuning.replicas, fitting));
    const bool subgroupVote = mTuning.subgroupVote && subgroupVoteSupported(ctx.caps);
    gl::ShaderDefines defines{{"FOVEAL", std::to_string(fovealVariant)},
                              {"FOVEAL_KEYS", fovealKeys ? "1" : "0"},
                              {"PIXELS", std::to_string(mTuning.pixels)},
                              {"STRIP", mTuning.strip ? "1" : "0"},
                              {"BIN_CAPACITY", std::to_string(capacity)},
                              {"REPLICAS", std::to_string(replicas)},
                              {"SUBGROUP_VOTE", subgroupVote ? "1" : "0"},
                              {"RUN_MERGE", mTuning.runMerge ? "1" : "0"},
                              {"SELF_CLEAR", "1"},
                              {"APPLY", apply ? "1" : "0"},
                              {"DISPLAY_TRANSFORM", std::to_string(apply ? apply->transform : 0u)},
                              {"CURVE_KERNEL", std::to_string(curve ? curve->kernel : 0u)},
                              {"CURVE_UNIFORMS", std::to_string(kCurveUniforms)},
                              {"CURVE_GATE", curve && mTuning.curveRuns != 1 ? "1" : "0"},
                              {"TILES", tileTarget ? "1" : "0"},
                              {"LOCAL_EXPOSURE_GRID", grid ? "1" : "0"}};
    if (curve)
        defines.insert(defines.end(), curve->defines.begin(), curve->defines.end());
    gl::Program& program = mPrograms[definesKey(defines)];
    if (!program)
        program = ctx.shaders.buildCompute(programLabel(defines, capacity), "histogram/SharedAtomic.comp", defines);
    mLastReplicas = replicas;
    mLastSubgroupVote = subgroupVote;
    if (image.size.x <= 0 || image.size.y <= 0) {
        targets.histogram.clearUint(0u);
        return;
    }
    if (!mAccumulator) {  // zero between dispatches: the last workgroup of each leaves it so
        mAccumulator = gl::Buffer("histogram/compute-shared-atomic/accumulator",
                                  (hd::kHistogramBufferWords + 1) * sizeof(std::uint32_t));
        mAccumulator.clearUint(0u);
    }
    const std::uint64_t tileWidth = mTuning.strip ? kTileWidth * mTuning.pixels : kTileWidth;
    const std::uint64_t tileHeight = mTuning.strip ? kGroupRows : kGroupRows * mTuning.pixels;
    const std::uint64_t tiles = ((std::uint64_t(image.size.x) + tileWidth - 1) / tileWidth) *
                                ((std::uint64_t(image.size.y) + tileHeight - 1) / tileHeight);
    const std::uint64_t fovealBlocks = foveal ? std::uint64_t(foveal->grid.x) * std::uint64_t(foveal->grid.y) : 0;
    const std::uint64_t blocks = fovealVariant == 1   ? fovealBlocks
                                 : fovealVariant == 2 ? (fovealBlocks + 7) / 8
                                                      : tiles;
    mLastGroups = std::uint32_t(std::min<std::uint64_t>(blocks, mTuning.maxGroups));
    // TILES: the blocks of every tile of the grid, each clipped to its tile.
    const std::uint64_t tileBlocks =
        tileTarget ? tileBlockCount(*tileTarget, image.size, int(tileWidth), int(tileHeight)) : 0;
    if (tileTarget) {
        // The shader's w * B / G stays below 2^32.
        const std::uint64_t groups = std::min<std::uint64_t>(
            {tileBlocks, mTuning.maxGroups,
             std::max<std::uint64_t>(1, 0xffffffffull / std::max<std::uint64_t>(tileBlocks, 1))});
        mLastGroups = std::uint32_t(std::max<std::uint64_t>(groups, 1));
        tileTarget->histograms->clearUintRange(
            0, std::size_t(tileTarget->tiles.x * tileTarget->tiles.y) * bins * sizeof(std::uint32_t), 0u);
    }
    mLastFoveal = foveal != nullptr;
    mLastCurve = curve != nullptr;
    mLastTiles = tileTarget != nullptr;

    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_TEXTURE_FETCH_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
    program.use();
    glProgramUniform2i(program.id(), 0, image.size.x, image.size.y);
    image.texture.bindUnit(hd::kTextureUnitInput);
    glBindSampler(hd::kTextureUnitInput, 0);
    targets.histogram.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingHistogram);
    targets.params.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingHistogramParams);
    mAccumulator.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingScratch1);
    if (foveal) {
        glProgramUniform2i(program.id(), 1, foveal->grid.x, foveal->grid.y);
        program.set(2, foveal->sceneScale);
        foveal->image->bindImage(hd::kImageUnitOutput, GL_WRITE_ONLY);
        if (fovealKeys) {
            glProgramUniform3f(program.id(), 3, spec.luminance.r, spec.luminance.g, spec.luminance.b);
            foveal->rangeKeys->bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingScratch0);
        }
    }
    if (apply) {
        apply->curve->bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingCurve);
        apply->output->bindImage(hd::kImageUnitApplyOutput, GL_WRITE_ONLY);
    }
    if (curve) {
        curve->curve->bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingScratch2);
        curve->cdf->bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingCdf);
        if (curve->state)
            curve->state->bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingOperatorState);
        if (curve->setUniforms)
            curve->setUniforms(program, kCurveUniforms);
        if (mTuning.curveRuns !=
            1)  // compiled in, not run (0), the scan alone (2), no samples (3): what each part costs
            program.set(kCurveGateUniform, mTuning.curveRuns);
    }
    if (tileTarget) {
        glProgramUniform4i(program.id(), hd::kTileGridUniform, tileTarget->tiles.x, tileTarget->tiles.y,
                           tileTarget->tileSize.x, tileTarget->tileSize.y);
        program.set(hd::kTileBlockCountUniform, std::uint32_t(tileBlocks));
        tileTarget->histograms->bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingTileHistograms);
    }
    if (grid)
        grid->grid->bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingLocalExposureGrid);
    glDispatchCompute(mLastGroups, 1, 1);
    if (tileTarget)
        tileTarget->written = true;
    if (grid)
        grid->written = true;
    if (curve)
        curve->written = true;
    if (apply) {
        glMemoryBarrier(GL_SHADER_IMAGE_ACCESS_BARRIER_BIT | GL_TEXTURE_FETCH_BARRIER_BIT |
                        GL_TEXTURE_UPDATE_BARRIER_BIT | GL_FRAMEBUFFER_BARRIER_BIT);
        apply->written = true;
    }
    if (foveal) {
        glMemoryBarrier(GL_SHADER_IMAGE_ACCESS_BARRIER_BIT | GL_TEXTURE_FETCH_BARRIER_BIT);
        foveal->written = true;
        if (fovealKeys) {
            foveal->keyWeights = spec.luminance;
            foveal->keysWritten = true;
        }
    }
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
}

}  // namespace post
