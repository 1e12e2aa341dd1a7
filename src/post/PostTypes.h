// PostTypes.h: small types shared by the histogram, scan and tone-operator stages.
#pragma once

#include "gl/Buffer.h"
#include "gl/GlInfo.h"
#include "gl/Program.h"
#include "gl/Texture.h"
#include "shared/HostDevice.h"

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace profiling {
class Profiler;
class TimerBackend;
}  // namespace profiling

namespace post {

enum class Backend { OpenGL, Cuda, Cpu };
std::string_view toString(Backend backend);

/// Whether a method can run here, and if not, why (shown greyed out in the UI and by --list).
struct Availability
{
    bool available = true;
    std::string reason;

    static Availability yes() { return {}; }
    static Availability no(std::string why) { return {false, std::move(why)}; }
};

/// What the running GL (and CUDA) implementation offers; filled once at start.
struct GpuCaps
{
    gl::GlInfo gl;
    bool glTimersUseful = true;
    bool cudaAvailable = false;  ///< a CUDA device exists and is the GL context's device
    std::string cudaReason;      ///< why not, when cudaAvailable is false
    std::string cudaInterop;     ///< how CUDA passes reach GL objects (post/CudaInterop.h); empty: not chosen
    int maxComputeSharedBytes = 32768;
    int maxTextureSize = 16384;
};
/// The limits of the current GL context (queried once, at start); CUDA is left unprobed
/// (cuda::probeCudaForGl, post/CudaProbe.h, decides it).
GpuCaps queryGpuCaps(const gl::GlInfo& info);

enum class OutOfRange : std::uint32_t { Clamp = hd::kOutOfRangeClamp, Separate = hd::kOutOfRangeSeparate };

/// CPU-side histogram settings. The log-luminance range itself lives on the GPU in the params
/// buffer (hd::kParam* words) so an automatic range never needs a readback.
struct HistogramSpec
{
    std::uint32_t binCount = hd::kDefaultHistogramBins;  ///< 1..hd::kMaxHistogramBins
    OutOfRange outOfRange = OutOfRange::Clamp;
    /// The luminance definition every pass uses, in cd/m^2 (post::LuminanceUnits: the pipeline sets
    /// it from the input each run); written to the params' hd::kParamLuma* and hd::kParamCdPerUnit.
    /// The defaults (Rec. 709, 1 unit = 1 cd/m^2) leave every result as it was.
    hd::LuminanceWeights luminance{};
    float cdPerUnit = 1.0f;  ///< cd/m^2 per unit of one channel (per-channel curves)
    /// What a stored channel is multiplied by to give the input's own units: 2^-k for a frame
    /// pre-exposed by 2^k (ImageInput::preExposure), else 1; written to hd::kParamStoredScale. The
    /// weights and cdPerUnit above already include it.
    float storedScale = 1.0f;
};

/// What every stage gets from the pipeline; no globals.
struct PassContext
{
    gl::ShaderLibrary& shaders;
    profiling::Profiler& profiler;
    const GpuCaps& caps;
    std::uint64_t frameIndex = 0;
    /// Set by the pipeline for a CUDA stage ("histogram/<id>", "scan/<id>"): the method times its own
    /// work under this name (its kernels, CUDA events) and the GL-to-CUDA hand-over apart, under
    /// kInteropWaitPrefix + name (mapping makes the stream wait for the GL work before it, the scene).
    /// Empty: the caller's scope times the call.
    std::string_view stageTimingName{};
};

/// The timing row of a CUDA stage's wait at the interop hand-over: "interop-wait/histogram/cuda-fast".
inline constexpr std::string_view kInteropWaitPrefix = "interop-wait/";

/// A scene-linear RGBA image on the GPU (RGBA16F or RGBA32F) and its size in pixels.
struct ImageInput
{
    const gl::Texture& texture;
    glm::ivec2 size{0};
    /// The texels are the scene's values times 2^preExposure (a half-float frame pre-exposed by the
    /// scene renderer: scene/PreExposure.h); 0 for every other image. The pipeline folds 2^-k into
    /// the luminance weights it hands every pass (post/LuminanceUnits.h), so nothing else changes.
    int preExposure = 0;
};

/// Ward's foveal image, filled during the histogram pass by a method that can (one read of the frame
/// for all metering): sample (x, y) is the mean of the finite pixels of block [x w/gw, (x+1) w/gw) x
/// [y h/gh, (y+1) h/gh) times sceneScale, NaN where none is finite (WardFoveal.comp's definition).
struct FovealTarget
{
    gl::Texture* image = nullptr;  ///< RGBA32F, grid-sized
    glm::ivec2 grid{0};
    float sceneScale = 1.0f;
    bool written = false;  ///< set by the method that filled it this frame; cleared by its consumer
    /// Ward's range keys (uint[2], tonemap/WardRangeKeys.glsl, zero when offered): a method that can
    /// also folds every stored sample's luminance under its spec's weights into them; null: not asked.
    gl::Buffer* rangeKeys = nullptr;
    hd::LuminanceWeights keyWeights;  ///< the weights the keys were made with (set with keysWritten)
    bool keysWritten = false;         ///< set by the method that wrote the keys; cleared by its consumer
};

/// What the frame's producer fills for the "fused-lighting" histogram method while it writes the frame
/// (the scene's deferred lighting pass; the app hands it these buffers): the pipeline writes `params`
/// for this frame and the method clears the outputs before the frame renders (PostPipeline::
/// prepareFusedHistogram); the producer bins every pixel it stores and sets `produced`.
struct FusedHistogramTarget
{
    const gl::Buffer* params = nullptr;  ///< uint[hd::kHistogramParamsWords]: this frame's range, bins, policy
    gl::Buffer* histogram = nullptr;     ///< uint[hd::kFusedHistogramWords]: bins, counters, min/max L bits
    gl::Buffer* fovealSums = nullptr;    ///< vec4 per (8x8 tile, block slot) of Ward's foveal blocks; null: none
    glm::ivec2 frameSize{0};             ///< the frame the target was prepared for
    glm::ivec2 fovealGrid{0};
    glm::ivec2 fovealSpan{0};  ///< foveal block slots per tile along x and y
    bool produced = false;     ///< set by the producer once this frame's outputs are filled
};

/// A picture's view as a Radiance VIEW line gives it (type v perspective, l parallel, c cylindrical,
/// a angular, h hemispherical, s planispheric; the two angles in degrees).
struct PictureView
{
    char type = 'v';
    double horizontalDegrees = 45.0;
    double verticalDegrees = 45.0;
};

/// What is known of the picture a still image came from, for operators that depend on it the way
/// Radiance's pcond does (Ward's pcond sampling): its view (most files have none: pcond then assumes
/// 40 degrees on the longer axis) and pixel aspect ratio. How its values become cd/m^2 is the
/// pipeline's LuminanceUnits. Live frames have none: their view is the camera's.
struct PictureInfo
{
    std::optional<PictureView> view;
    double pixelAspect = 1.0;
};

/// The one-pass mode's output (PipelineSettings::onePass): a method that appliesCurve() maps every
/// pixel it reads through `curve` (the previous frame's curve) into `output` (RGBA8, the frame's
/// size) in the same pass, and sets `written`.
struct ApplyTarget
{
    const gl::Buffer* curve = nullptr;
    gl::Texture* output = nullptr;
    std::uint32_t transform = 0;  ///< the apply pass's: 0, or an RGB display transform's code (tone/DisplayOutput.h)
    bool written = false;
};

/// The tone operator's curve built by the histogram dispatch's last workgroup, in place of the curve
/// dispatch (PipelineSettings::curveInHistogram; shaders/histogram/CurveInLastGroup.glsl): the operator
/// fills it (ToneOperator::offerCurveToHistogram), a method that buildsCurve() dispatches it and sets
/// `written`.
struct CurveTarget
{
    std::uint32_t kernel = 0;     ///< CURVE_KERNEL: 1 percentile, 2 equalize
    gl::ShaderDefines defines;    ///< the kernel's own (the operator's state layout)
    gl::Buffer* curve = nullptr;  ///< this frame's curve
    gl::Buffer* cdf = nullptr;    ///< the CDF the kernel writes (uint[hd::kMaxHistogramBins])
    gl::Buffer* state = nullptr;  ///< the operator's state buffer, or nullptr
    /// Sets the kernel's uniforms on the pass's program, from location `base` up (CURVE_UNIFORMS).
    std::function<void(const gl::Program&, int base)> setUniforms;
    bool written = false;
};

/// The bilateral local exposure's grid (shared/LocalExposure.h), built in the histogram pass's read of
/// the frame by a method that buildsLocalExposureGrid() (post/localexposure/BilateralLocalExposure.h):
/// the grid is cleared for the frame; the method adds every pixel of the full frame and sets `written`.
struct LocalExposureGridTarget
{
    gl::Buffer* grid = nullptr;  ///< uint[tiles * 32 * 2], zero
    glm::ivec2 tiles{0};
    bool written = false;
};

/// GPU buffers a histogram method writes. The pipeline owns them (sized for the largest bin count)
/// so switching methods never reallocates.
struct HistogramTargets
{
    gl::Buffer& histogram;             ///< uint[hd::kHistogramBufferWords]: bins [0, binCount) + counters
    const gl::Buffer& params;          ///< uint[hd::kHistogramParamsWords]: range, bin count, policy, size
    gl::Buffer* cumulative = nullptr;  ///< uint[hd::kMaxHistogramBins], for methods that count H directly
    FovealTarget* foveal = nullptr;    ///< filled too where the method fillsFovealImage()
    ApplyTarget* apply = nullptr;      ///< filled too where the method appliesCurve()
    CurveTarget* curve = nullptr;      ///< built too where the method buildsCurve()
    LocalExposureGridTarget* localExposureGrid = nullptr;  ///< built too where the method buildsLocalExposureGrid()
};

}  // namespace post
