// AppSetup.h: the parts of the application that are not the frame loop: choosing and creating the GL
// context, turning command-line options into pipeline settings, capture metadata, and the output
// files (screenshots), each written in one piece through the image writers.
#pragma once

#include "app/AppOptions.h"
#include "gl/Texture.h"
#include "platform/GlContext.h"
#include "post/PostPipeline.h"
#include "profiling/Capture.h"

#include <filesystem>
#include <memory>
#include <string>

namespace app {

/// A window when one is wanted and can be opened, else headless EGL; says on stderr why it went
/// headless when a window was wanted. Throws std::runtime_error when no context at all can be made.
std::unique_ptr<platform::GlContext> createAppContext(const AppOptions& options, glm::ivec2 windowSize);

/// A window frame is rendered only into a non-empty framebuffer of a window that is not minimised.
bool windowCanRender(glm::ivec2 framebufferSize, bool minimised);

/// GL limits, timer usefulness and CUDA availability of the current context.
post::GpuCaps probeGpuCaps(const platform::GlContext& context);

/// The requested settings on top of `current`.
post::PipelineSettings requestedSettings(const AppOptions& options, post::PipelineSettings current);
/// Applies the command line's settings in this order: a command's own defaults (settingDefaults),
/// --settings FILE, the dedicated flags (--bins, --operator...: aliases of keys), then each --set in
/// command-line order. Throws std::runtime_error
/// with one line naming the file or flag and the key when a value is refused (an unknown or
/// unavailable method, a bad file). Clamps (e.g. bins) are reported as warnings.
void applyRequestedSettings(post::PostPipeline& pipeline, const AppOptions& options);
/// The dedicated flags alone (--histogram-method, --scan, --operator, --bins, --range, --out-of-range,
/// --downsample); throws like applyRequestedSettings for a method named explicitly that cannot run.
void applyDedicatedFlags(post::PostPipeline& pipeline, const AppOptions& options);
/// "setting.KEY" = value for every key (post/PipelineParameters.h): a capture records the full settings.
void appendSettingsMetadata(profiling::CaptureMetadata& metadata, post::PostPipeline& pipeline);

/// One line: "bins=256 range=-10:20 out_of_range=clamp downsample=1".
std::string describeSettings(const post::PipelineSettings& settings);
/// `glTimersUsed`: the profiler's final say (it falls back to CPU time where GL timers return nothing).
profiling::CaptureMetadata captureMetadata(const post::GpuCaps& caps,
                                           bool glTimersUsed,
                                           const std::string& sceneName,
                                           glm::ivec2 size,
                                           const post::PipelineSettings& settings);

/// The display image (GL_RGBA8, sRGB-encoded, bottom-up) as an RGB PNG (top-down).
void writeDisplayPng(const std::filesystem::path& path, const gl::Texture& display);
/// The HDR10 output (linear BT.2020 cd/m^2, post::PostPipeline::hdrOutputTexture) as a 16-bit PQ PNG
/// with cICP, mDCV (mastering peak `peak`) and cLLI (image/HdrPng.h); rows flipped unless `topDownRows`.
void writeHdr10DisplayPng(const std::filesystem::path& path, const gl::Texture& nits, float peak, bool topDownRows);
/// The scene-linear HDR frame as a half-float OpenEXR.
/// `preExposure`: the frame is pre-exposed by 2^k (scene/PreExposure.h); it is written times 2^-k as
/// 32-bit floats (half floats would turn the sun into +Inf). Otherwise half floats, as stored.
void writeHdrExr(const std::filesystem::path& path, const gl::Texture& hdr, std::optional<int> preExposure = {});
/// The bound default framebuffer's back buffer (window mode) as an RGB PNG.
void writeBackBufferPng(const std::filesystem::path& path, glm::ivec2 size);

}  // namespace app
