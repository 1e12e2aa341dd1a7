#include "post/tonemap/WardCurveProgram.h"

#include "post/tonemap/ToneShaders.h"

#include <algorithm>
#include <bit>

namespace post {

std::uint32_t WardCurveProgram::subgroupLanes(const GpuCaps& caps)
{
    if (!caps.gl.hasExtension("GL_KHR_shader_subgroup"))
        return 0;
    GLint stages = 0, features = 0, size = 0;
    glGetIntegerv(GL_SUBGROUP_SUPPORTED_STAGES_KHR, &stages);
    glGetIntegerv(GL_SUBGROUP_SUPPORTED_FEATURES_KHR, &features);
    glGetIntegerv(GL_SUBGROUP_SIZE_KHR, &size);
    const GLint needed = GL_SUBGROUP_FEATURE_BASIC_BIT_KHR | GL_SUBGROUP_FEATURE_ARITHMETIC_BIT_KHR;
    const bool usable = (stages & GL_COMPUTE_SHADER_BIT) != 0 && (features & needed) == needed && size >= 4 &&
                        std::uint32_t(size) <= kGroupSize && kGroupSize % std::uint32_t(size) == 0;
    return usable ? std::uint32_t(size) : 0u;
}

const gl::Program& WardCurveProgram::ensure(const gl::ShaderLibrary& shaders,
                                            const GpuCaps& caps,
                                            std::uint32_t bins,
                                            WardCeilingLoop loop,
                                            const gl::ShaderDefines& extra)
{
    const std::uint32_t subgroup = subgroupLanes(caps);
    if (loop == WardCeilingLoop::Auto)
        loop = subgroup ? WardCeilingLoop::LanesSubgroup : WardCeilingLoop::Workgroup;
    if (loop == WardCeilingLoop::LanesSubgroup && !subgroup)
        loop = WardCeilingLoop::Workgroup;
    const std::uint32_t lanes = loop == WardCeilingLoop::LanesSubgroup ? subgroup : kSharedLanes;
    const std::uint32_t binsPerLane = std::bit_ceil((std::clamp(bins, 2u, kWardMaxBins) + lanes - 1) / lanes);
    gl::ShaderDefines defines = wardDefines();
    defines.insert(defines.end(), mFixed.begin(), mFixed.end());
    defines.emplace_back("CEILING_LOOP", loop == WardCeilingLoop::Workgroup ? "0" : "1");
    defines.emplace_back("LANE_OPS", loop == WardCeilingLoop::LanesSubgroup ? "1" : "0");
    defines.emplace_back("LANES", std::to_string(lanes));
    defines.emplace_back("BINS_PER_LANE", std::to_string(binsPerLane));
    const bool groupSizeGiven =
        std::any_of(extra.begin(), extra.end(), [](const auto& define) { return define.first == "GROUP_SIZE"; });
    if (!groupSizeGiven)
        defines.emplace_back("GROUP_SIZE", std::to_string(kGroupSize));
    defines.insert(defines.end(), extra.begin(), extra.end());
    std::string key;
    for (const auto& [name, value] : defines)
        key += name + "=" + value + ";";
    if (!mProgram || key != mKey) {
        mProgram = shaders.buildCompute(mLabel, mSource, defines);
        mKey = key;
        mLoopUsed = loop;
    }
    return mProgram;
}

}  // namespace post
