// WardCurveProgram.h: a program of Ward's frame fit (shaders/tonemap/WardCurve.comp, one workgroup,
// or a stage of WardCurveSpread.comp, WardCurveDispatch.h) with its ceiling loop's implementation
// chosen from the GL caps: the bins in the registers of one subgroup
// (GL_KHR_shader_subgroup arithmetic; no barrier inside the loop) where the driver offers it, else
// the workgroup loop (a scan with barriers per pass). Both give the same bits (ToneWardGlTest).
// The lanes and the bins each lane holds are compiled in (BINS_PER_LANE, a power of two, so a few
// programs cover the 2..kWardMaxBins bin counts); a bin count needing another shape rebuilds it.
#pragma once

#include "gl/Program.h"
#include "post/PostTypes.h"

#include <cstdint>
#include <string>
#include <utility>

namespace post {

/// How WardCurve.comp runs its ceiling loop (tonemap/WardCeilingLanes.glsl).
enum class WardCeilingLoop : std::uint32_t {
    Auto = 0,           ///< LanesSubgroup where the driver has subgroup arithmetic in compute, else Workgroup
    Workgroup = 1,      ///< every pass a workgroup scan with barriers (CEILING_LOOP 0)
    LanesShared = 2,    ///< bins in registers of 32 lanes, their sums through shared memory (tests, bench)
    LanesSubgroup = 3,  ///< bins in registers of one subgroup, no barrier in the loop
};

class WardCurveProgram
{
public:
    /// `source` under shaders/, built with `fixed` defines added (e.g. the spread kernel's stage).
    WardCurveProgram(std::string label, std::string source, gl::ShaderDefines fixed = {})
        : mLabel(std::move(label)), mSource(std::move(source)), mFixed(std::move(fixed))
    {
    }

    /// The fit kernels' workgroup size (GROUP_SIZE; a power of two, 64..1024; 1024 needs the 48 KB of
    /// shared memory GL guarantees only as 32 KB, and leaves each invocation 64 registers).
    static constexpr std::uint32_t kGroupSize = 256;
    static constexpr std::uint32_t kSharedLanes = 32;  ///< the lanes of WardCeilingLoop::LanesShared

    /// The lanes of the subgroup loop here: the subgroup size where GL_KHR_shader_subgroup offers basic
    /// and arithmetic operations in compute shaders and the size divides the workgroup; 0 otherwise.
    static std::uint32_t subgroupLanes(const GpuCaps& caps);

    /// The program for `bins` bins with the asked loop (LanesSubgroup without the caps, and Auto,
    /// resolve as WardCeilingLoop says) and `extra` defines (bench experiments; a GROUP_SIZE among
    /// them replaces kGroupSize); built when its defines change.
    const gl::Program& ensure(const gl::ShaderLibrary& shaders,
                              const GpuCaps& caps,
                              std::uint32_t bins,
                              WardCeilingLoop loop,
                              const gl::ShaderDefines& extra);
    gl::Program& program() { return mProgram; }
    /// The loop the current program runs (Workgroup before the first).
    WardCeilingLoop loopUsed() const { return mLoopUsed; }

private:
    std::string mLabel;
    std::string mSource;
    gl::ShaderDefines mFixed;
    gl::Program mProgram;
    std::string mKey;  ///< the defines mProgram was built with
    WardCeilingLoop mLoopUsed = WardCeilingLoop::Workgroup;
};

}  // namespace post
