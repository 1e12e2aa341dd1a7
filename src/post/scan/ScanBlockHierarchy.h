// ScanBlockHierarchy.h: the multi-workgroup layout of compute-blelloch and compute-brent-kung:
// scan of blocks, scan of block totals, add back (Harris, Sengupta & Owens, GPU Gems 3 ch. 39.2.4,
// "arrays of arbitrary size").
//
// Level 0 scans the input in blocks of kBlockElements (one workgroup each, the method's block
// shader) and writes each block's total; level 1 scans those totals the same way, and so on until
// a level has one block (1024 elements per level: two levels up to 2^20, three up to 2^30).
// Then, from the top down, every block after the first of a level adds the scanned total of the
// blocks before it (shaders/scan/AddBlockPrefix.comp). A histogram of up to 4096 bins is 4 blocks:
// two block-scan dispatches and one add-back dispatch.
// The block shader contract: BLOCK_ELEMENTS (defined by the host) uints per workgroup of
// BLOCK_ELEMENTS / 2 threads, input at kBindingScratch0, inclusive output at kBindingScratch1,
// block totals at kBindingScratch2, the length in uniform 0; input and output may alias.
// Limits: kMaxLength, so that level 0 needs at most 65535 workgroups (the GL minimum of
// GL_MAX_COMPUTE_WORK_GROUP_COUNT in x).
#pragma once

#include "post/PostTypes.h"

#include <string>
#include <string_view>
#include <vector>

namespace post {

class ScanBlockHierarchy
{
public:
    static constexpr std::uint32_t kBlockElements = 1024;
    static constexpr std::uint32_t kMaxLength = kBlockElements * 65535u;

    /// `methodId` names the programs, buffers and errors; `blockShaderPath` is relative to shaders/.
    ScanBlockHierarchy(std::string_view methodId, std::string_view blockShaderPath);

    /// output[i] = input[0] + ... + input[i] for i < count; throws std::invalid_argument on a count
    /// above kMaxLength or buffers smaller than `count` uints.
    void inclusiveScan(PassContext& ctx, const gl::Buffer& input, gl::Buffer& output, std::uint32_t count);

    /// "N levels, M block scans" of the last scan, empty before the first.
    std::string status() const;

private:
    std::string mMethodId;
    std::string mBlockShaderPath;
    gl::Program mBlockProgram;
    gl::Program mAddProgram;
    std::vector<gl::Buffer> mBlockTotals;  ///< [level]: one uint per block of that level (grown, never shrunk)
    std::uint32_t mLastLevels = 0;
    std::uint32_t mLastBlocks = 0;
};

}  // namespace post
