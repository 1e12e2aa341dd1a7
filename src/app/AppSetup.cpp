#include "app/AppSetup.h"

#include "gl/Gl.h"
#include "image/HdrPng.h"
#include "image/ImageIo.h"
#include "post/CudaProbe.h"
#include "post/PipelineParameters.h"
#include "post/SettingsFile.h"
#include "scene/PreExposure.h"
#include "util/Log.h"

#include <cstdlib>
#include <cstring>
#include <iostream>
#include <sstream>
#include <stdexcept>

namespace app {
namespace {

bool hasDisplay()
{
    const char* x11 = std::getenv("DISPLAY");
    const char* wayland = std::getenv("WAYLAND_DISPLAY");
    return (x11 && *x11) || (wayland && *wayland);
}

/// Bottom-up RGBA rows to a top-down RGB image.
image::Image8 flipToRgb(const std::vector<unsigned char>& rgba, glm::ivec2 size)
{
    image::Image8 out(size.x, size.y, 3);
    for (int y = 0; y < size.y; ++y) {
        const unsigned char* src = rgba.data() + std::size_t(size.y - 1 - y) * std::size_t(size.x) * 4u;
        std::uint8_t* dst = out.at(0, y);
        for (int x = 0; x < size.x; ++x)
            std::memcpy(dst + 3 * x, src + 4 * x, 3);
    }
    return out;
}

std::string formatFloat(float value)
{
    std::ostringstream out;
    out << value;
    return out.str();
}

}  // namespace

std::unique_ptr<platform::GlContext> createAppContext(const AppOptions& options, glm::ivec2 windowSize)
{
    platform::ContextOptions contextOptions;
    contextOptions.windowSize = windowSize;
    contextOptions.vsync = options.vsync;
#ifndef NDEBUG
    contextOptions.debug = true;
#endif
    if (options.resizeStorm)
        contextOptions.debug = true;  // a test: every GL error must reach the debug callback
    if (!options.headless) {
        std::string whyNot;
        if (!hasDisplay()) {
            whyNot = "no display ($DISPLAY and $WAYLAND_DISPLAY are unset)";
        } else if (auto window = platform::createWindowContext(contextOptions, whyNot)) {
            return window;
        }
        std::cerr << "hdrlab: " << whyNot << "; running headless (EGL)\n";
    }
    return platform::createHeadlessContext(contextOptions);
}

bool windowCanRender(glm::ivec2 framebufferSize, bool minimised)
{
    return !minimised && framebufferSize.x > 0 && framebufferSize.y > 0;
}

post::GpuCaps probeGpuCaps(const platform::GlContext& context)
{
    post::GpuCaps caps = post::queryGpuCaps(context.info());
    caps.cudaReason.clear();
    cuda::probeCudaForGl(caps);
    return caps;
}

post::PipelineSettings requestedSettings(const AppOptions& options, post::PipelineSettings s)
{
    if (options.histogramMethod)
        s.histogramMethod = *options.histogramMethod;
    if (options.scanMethod)
        s.scanMethod = *options.scanMethod;
    if (options.toneOperator)
        s.toneOperator = *options.toneOperator;
    if (options.bins)
        s.spec.binCount = *options.bins;
    if (options.range) {
        s.rangeMode = options.range->automatic ? post::RangeMode::Auto : post::RangeMode::Manual;
        if (!options.range->automatic) {
            s.logMin = options.range->logMin;
            s.logMax = options.range->logMax;
        }
    }
    if (options.outOfRange)
        s.spec.outOfRange = *options.outOfRange == "separate" ? post::OutOfRange::Separate : post::OutOfRange::Clamp;
    if (options.downsample)
        s.downsample = *options.downsample;
    return s;
}

void applyRequestedSettings(post::PostPipeline& pipeline, const AppOptions& options)
{
    post::PipelineParameters parameters(pipeline);
    std::vector<post::SettingAssignment> defaults;
    for (const std::string& text : options.settingDefaults)
        defaults.push_back(post::parseAssignment(text, "default"));
    for (const std::string& warning : parameters.apply(defaults))
        util::logWarning("{}", warning);
    if (options.settingsFile)
        for (const std::string& warning : post::loadSettingsFile(*options.settingsFile, parameters))
            util::logWarning("{}", warning);
    applyDedicatedFlags(pipeline, options);
    std::vector<post::SettingAssignment> assignments;
    for (const std::string& text : options.settingAssignments)
        assignments.push_back(post::parseAssignment(text, "--set"));
    for (const std::string& warning : parameters.apply(assignments))
        util::logWarning("{}", warning);
}

void applyDedicatedFlags(post::PostPipeline& pipeline, const AppOptions& options)
{
    post::PipelineSettings wanted = requestedSettings(options, pipeline.settings());
    std::string message;
    pipeline.applySettings(wanted, &message);
    const post::PipelineSettings& got = pipeline.settings();
    bool refused = (options.histogramMethod && got.histogramMethod != *options.histogramMethod) ||
                   (options.scanMethod && got.scanMethod != *options.scanMethod) ||
                   (options.toneOperator && got.toneOperator != *options.toneOperator);
    if (refused)
        throw std::runtime_error(message + " (hdrlab --list shows every method and why it cannot run)");
    if (!message.empty())
        util::logWarning("{}", message);
    if (options.scanMethod && !pipeline.scanMethod())
        util::logWarning("--scan {} is not used: histogram method '{}' produces the cumulative histogram itself",
                         *options.scanMethod, got.histogramMethod);
}

std::string describeSettings(const post::PipelineSettings& s)
{
    std::string range =
        s.rangeMode == post::RangeMode::Auto ? "auto" : formatFloat(s.logMin) + ":" + formatFloat(s.logMax);
    return "bins=" + std::to_string(s.spec.binCount) + " range=" + range +
           " out_of_range=" + (s.spec.outOfRange == post::OutOfRange::Separate ? "separate" : "clamp") +
           " downsample=" + std::to_string(s.downsample);
}

void appendSettingsMetadata(profiling::CaptureMetadata& metadata, post::PostPipeline& pipeline)
{
    for (auto& [key, value] : post::PipelineParameters(pipeline).values())
        metadata.emplace_back("setting." + key, std::move(value));
}

profiling::CaptureMetadata captureMetadata(const post::GpuCaps& caps,
                                           bool glTimersUsed,
                                           const std::string& sceneName,
                                           glm::ivec2 size,
                                           const post::PipelineSettings& settings)
{
    profiling::CaptureMetadata meta = {
        {"gpu_vendor", caps.gl.vendor},
        {"gpu_renderer", caps.gl.renderer},
        {"gl_version", caps.gl.version},
        {"glsl_version", caps.gl.glslVersion},
        {"platform", caps.gl.platform},
        {"cuda", caps.cudaAvailable ? "available" : "unavailable: " + caps.cudaReason},
        {"cuda_interop", caps.cudaInterop},
        {"scene", sceneName},
        {"resolution", std::to_string(size.x) + "x" + std::to_string(size.y)},
        {"histogram_method", settings.histogramMethod},
        {"scan_method", settings.scanMethod},
        {"tone_operator", settings.toneOperator},
        {"settings", describeSettings(settings)},
        {"time_source", glTimersUsed ? "GL timer queries (CUDA events for CUDA methods)"
                                     : "CPU fallback (GL timers measure nothing here)"},
    };
    for (auto& entry : profiling::buildMetadata())
        meta.push_back(std::move(entry));
    return meta;
}

void writeDisplayPng(const std::filesystem::path& path, const gl::Texture& display)
{
    image::writePng(path, flipToRgb(display.readRgba8(), display.size()));
}

void writeHdr10DisplayPng(const std::filesystem::path& path, const gl::Texture& nits, float peak, bool topDownRows)
{
    const glm::ivec2 size = nits.size();
    const std::vector<float> rgba = nits.readRgbaFloat();
    image::ImageF out(size.x, size.y);
    for (int y = 0; y < size.y; ++y)
        std::memcpy(out.at(0, y),
                    rgba.data() + std::size_t(topDownRows ? y : size.y - 1 - y) * std::size_t(size.x) * 4u,
                    std::size_t(size.x) * 4u * sizeof(float));
    image::writeHdr10Png(path, out, image::contentLightLevels(out, peak));
}

void writeHdrExr(const std::filesystem::path& path, const gl::Texture& hdr, std::optional<int> preExposure)
{
    glm::ivec2 size = hdr.size();
    std::vector<float> rgba = hdr.readRgbaFloat();
    if (preExposure)
        scene::unexposePixels(rgba, *preExposure);
    image::ImageF out(size.x, size.y);
    for (int y = 0; y < size.y; ++y)
        std::memcpy(out.at(0, y), rgba.data() + std::size_t(size.y - 1 - y) * std::size_t(size.x) * 4u,
                    std::size_t(size.x) * 4u * sizeof(float));
    // The frame's own precision (half for RGBA16F, float for RGBA32F and images); Float where a half
    // value would overflow (image::exrPixelTypeKeeping).
    image::writeExr(path, out, image::exrPixelTypeKeeping(hdr.format() != GL_RGBA32F, rgba));
}

void writeBackBufferPng(const std::filesystem::path& path, glm::ivec2 size)
{
    std::vector<unsigned char> rgba(std::size_t(size.x) * std::size_t(size.y) * 4u);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
    glReadBuffer(GL_BACK);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, size.x, size.y, GL_RGBA, GL_UNSIGNED_BYTE, rgba.data());
    image::writePng(path, flipToRgb(rgba, size));
}

}  // namespace app
