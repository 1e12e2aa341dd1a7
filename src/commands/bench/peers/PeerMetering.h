// PeerMetering.h: the auto-exposure metering of other engines, run on hdrlab's frame for `hdrlab bench
// pipeline --peers` (issue 38): what an engine developer's own engine spends on metering, beside
// hdrlab's histogram + curve on the same frame and GPU. Each peer is written anew in GLSL
// (shaders/peers/) from the engine's published shader structure (bins, workgroup shape, loop,
// passes, atomics, what it reads), one file pair per engine, whose header names the engine version,
// the source file it follows and what it simplifies:
//   bevy        BevyPeer.h     (Bevy 0.14+, auto_exposure.wgsl)
//   unreal      UnrealPeer.h   (Unreal Engine 5, PostProcessHistogram.usf + eye adaptation)
//   unity-hdrp  HdrpPeer.h     (Unity HDRP, HistogramExposure.compute)
//   godot       GodotPeer.h    (Godot 4, luminance_reduce.glsl)
// Common to all (the simplifications every peer shares): the luminance is hdrlab's (the params'
// kParamLuma* weights, which also undo the frame's pre-exposure, so every peer meters cd/m^2 as
// hdrlab does; each engine's own weights differ in the fourth decimal); the exposure a peer reports is
// an EV = log2 of the factor it multiplies that luminance by, the same quantity as hdrlab's percentile
// exposure; adaptation runs with a fixed frame time (kPeerFrameSeconds). The CPU references are in
// reference/PeerMeteringRef.h.
// Timing: GL_TIMESTAMP marks around every pass of a run (the runs queued back to back after untimed
// warm-up runs, one wait at the end, as the reference chain does); on a software renderer the CPU
// clock around glFinish.
#pragma once

#include "gl/Buffer.h"
#include "gl/Program.h"
#include "gl/Texture.h"

#include <glm/vec2.hpp>

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace app {

/// The frame time every peer adapts with (60 frames a second).
inline constexpr float kPeerFrameSeconds = 1.0f / 60.0f;

/// The exposure a peer's state holds after a run (read back from its state buffer).
struct PeerExposure
{
    float engineState =
        0.0f;  ///< the engine's own adapted quantity (Bevy: EV; UE: log2 exposure; HDRP: EV100; Godot: luminance)
    float ev = 0.0f;        ///< log2 of the factor the adapted state multiplies cd/m^2 by
    float targetEv = 0.0f;  ///< the same for this frame's target (where adaptation settles on a still frame)
};

/// Every timed run of one peer, microseconds per pass and for the whole metering.
struct PeerTimes
{
    std::string source;                       ///< gl-timer-query or cpu-fallback
    std::vector<std::string> passes;          ///< pass names, in order
    std::vector<std::vector<double>> passUs;  ///< [pass][run]
    std::vector<double> meteringUs;           ///< every pass of a run, first mark to last
    double medianUs(std::size_t pass) const;
    double meteringMedianUs() const;
};

/// One engine's metering on the GPU. The state buffer holds the engine's adapted exposure between
/// runs; the first run after prepare() or snapToTarget() starts from the frame's target.
class PeerMetering
{
public:
    explicit PeerMetering(const gl::ShaderLibrary& shaders);
    virtual ~PeerMetering() = default;
    PeerMetering(const PeerMetering&) = delete;
    PeerMetering& operator=(const PeerMetering&) = delete;

    virtual std::string_view id() const = 0;          ///< "bevy", "unreal", "unity-hdrp", "godot"
    virtual std::string_view engine() const = 0;      ///< engine, version and source file followed
    virtual std::string_view simplifies() const = 0;  ///< what the GLSL leaves out, one line
    /// The passes of one run, in order (their timer rows).
    virtual std::vector<std::string> passNames() const = 0;

    /// Sizes the buffers for a frame of `size` (>= 1x1, else std::invalid_argument) and builds the
    /// programs; the next run snaps to its target.
    void prepare(glm::ivec2 size);
    /// One frame's metering of `frame` (the size prepared; std::invalid_argument otherwise) with the
    /// pipeline's params (hd::kParam* layout); `mark(i)` is called after pass i.
    void run(const gl::Texture& frame, const gl::Buffer& params, const std::function<void(int)>& mark = {});
    /// The next run starts from its target (a camera cut).
    void snapToTarget();
    /// Sets the adapted state (the engine's own quantity, PeerExposure::engineState) the next run adapts from.
    void setEngineState(float state);
    /// Reads the state back (waits for the GPU).
    PeerExposure exposure() const;

    /// `runs` timed runs after `warmup` untimed ones: GPU timestamps where `gpuTimers`, else the CPU
    /// clock around glFinish. Waits for the GPU at the end.
    PeerTimes time(const gl::Texture& frame, const gl::Buffer& params, int runs, int warmup, bool gpuTimers);

protected:
    /// The peer's buffers and programs for a frame of `size`.
    virtual void prepareFor(glm::ivec2 size) = 0;
    /// The passes; the state buffer (stateBuffer(): kPeerStateWords floats) is bound by the caller at
    /// hd::kBindingOperatorState, the params at hd::kBindingHistogramParams, the frame at
    /// hd::kTextureUnitInput; `snap` is the uniform the adaptation pass reads.
    virtual void dispatch(const gl::Texture& frame, bool snap, const std::function<void(int)>& mark) = 0;

    const gl::Program& program(const std::string& path, const gl::ShaderDefines& defines = {});
    glm::ivec2 size() const { return mSize; }

private:
    const gl::ShaderLibrary& mShaders;
    std::map<std::string, gl::Program> mPrograms;  ///< by path and defines, built once
    gl::Buffer mState;
    glm::ivec2 mSize{0};
    bool mSnap = true;
};

/// The four peers, in table order.
std::vector<std::unique_ptr<PeerMetering>> createPeerMeterings(const gl::ShaderLibrary& shaders);

}  // namespace app
