// GlInfo.h: what the current OpenGL context is (vendor, renderer, versions, extensions).
//
// Plain data, filled by platform::GlContext when it creates a context and read by the passes that
// choose a method by the GPU's features; it lives in gl/ so that they need not see the windowing.
#pragma once

#include <set>
#include <string>

namespace gl {

struct GlInfo
{
    std::string vendor;
    std::string renderer;
    std::string version;
    std::string glslVersion;
    std::string platform;  ///< "GLFW window", "EGL device (NVIDIA)", "EGL surfaceless (Mesa)"
    std::set<std::string> extensions;

    bool hasExtension(const std::string& name) const { return extensions.count(name) != 0; }
    /// llvmpipe and other CPU rasterisers: timer queries there measure nothing useful.
    bool isSoftwareRenderer() const;
    bool isNvidia() const;
};

}  // namespace gl
