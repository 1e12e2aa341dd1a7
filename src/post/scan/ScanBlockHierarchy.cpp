#include "post/scan/ScanBlockHierarchy.h"

#include "gl/Debug.h"
#include "util/Log.h"

#include <stdexcept>

namespace post {

namespace {

std::uint32_t blocksFor(std::uint32_t count)
{
    return (count + ScanBlockHierarchy::kBlockElements - 1u) / ScanBlockHierarchy::kBlockElements;
}

constexpr std::size_t bytesOf(std::uint32_t words)
{
    return std::size_t(words) * sizeof(std::uint32_t);
}

}  // namespace

ScanBlockHierarchy::ScanBlockHierarchy(std::string_view methodId, std::string_view blockShaderPath)
    : mMethodId(methodId), mBlockShaderPath(blockShaderPath)
{
}

std::string ScanBlockHierarchy::status() const
{
    if (mLastLevels == 0)
        return {};
    return util::format("{} level{}, {} block scan{} of {}", mLastLevels, mLastLevels == 1 ? "" : "s", mLastBlocks,
                        mLastBlocks == 1 ? "" : "s", kBlockElements);
}

void ScanBlockHierarchy::inclusiveScan(PassContext& ctx,
                                       const gl::Buffer& input,
                                       gl::Buffer& output,
                                       std::uint32_t count)
{
    if (count > kMaxLength)
        throw std::invalid_argument(util::format("{} scans at most {} elements, got {}", mMethodId, kMaxLength, count));
    if (input.size() < bytesOf(count) || output.size() < bytesOf(count))
        throw std::invalid_argument(util::format("{}: buffers smaller than {} uints", mMethodId, count));
    if (count == 0)
        return;
    if (!mBlockProgram) {
        const gl::ShaderDefines defines{{"BLOCK_ELEMENTS", std::to_string(kBlockElements) + "u"}};
        mBlockProgram = ctx.shaders.buildCompute("scan." + mMethodId + ".block", mBlockShaderPath, defines);
        mAddProgram =
            ctx.shaders.buildCompute("scan." + mMethodId + ".add-block-prefix", "scan/AddBlockPrefix.comp", defines);
    }

    // Lengths of the levels: the input, then the block totals of each level until one block is left.
    std::vector<std::uint32_t> lengths{count};
    while (blocksFor(lengths.back()) > 1u)
        lengths.push_back(blocksFor(lengths.back()));
    for (std::size_t level = 0; level < lengths.size(); ++level) {
        const std::size_t bytes = bytesOf(blocksFor(lengths[level]));
        if (level >= mBlockTotals.size())
            mBlockTotals.emplace_back();
        if (mBlockTotals[level].size() < bytes)
            mBlockTotals[level] = gl::Buffer(util::format("scan.{}.block-totals[{}]", mMethodId, level), bytes);
    }
    // The values level `level` scans in place after level 0: the totals of the level below.
    auto valuesOf = [&](std::size_t level) -> gl::Buffer& { return level == 0 ? output : mBlockTotals[level - 1]; };

    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
    mBlockProgram.use();
    mLastBlocks = 0;
    for (std::size_t level = 0; level < lengths.size(); ++level) {
        gl::DebugGroup group(util::format("scan/{}/blocks[{}]", mMethodId, level));
        const std::uint32_t length = lengths[level];
        const gl::Buffer& source = level == 0 ? input : mBlockTotals[level - 1];
        source.bindRange(GL_SHADER_STORAGE_BUFFER, hd::kBindingScratch0, 0, bytesOf(length));
        valuesOf(level).bindRange(GL_SHADER_STORAGE_BUFFER, hd::kBindingScratch1, 0, bytesOf(length));
        mBlockTotals[level].bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingScratch2);
        mBlockProgram.set(0, unsigned(length));
        glDispatchCompute(blocksFor(length), 1, 1);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
        mLastBlocks += blocksFor(length);
    }

    mAddProgram.use();
    for (std::size_t level = lengths.size() - 1; level-- > 0;) {
        gl::DebugGroup group(util::format("scan/{}/add-back[{}]", mMethodId, level));
        const std::uint32_t length = lengths[level];
        valuesOf(level).bindRange(GL_SHADER_STORAGE_BUFFER, hd::kBindingScratch1, 0, bytesOf(length));
        mBlockTotals[level].bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingScratch2);
        mAddProgram.set(0, unsigned(length));
        glDispatchCompute(blocksFor(length) - 1u, 1, 1);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    }
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
    mLastLevels = std::uint32_t(lengths.size());
}

}  // namespace post
