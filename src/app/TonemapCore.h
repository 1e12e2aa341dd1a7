// TonemapCore.h: the testable core of `hdrlab tonemap`: tone-maps one image file with the GPU
// pipeline on the current GL context (the command adds only the headless context around it).
//
// HDR inputs (EXR, .hdr, and 8-bit files decoded from sRGB) go through PostPipeline: histogram,
// scan, tone curve, apply pass; the display image is written as an RGB PNG. An 8-bit grey PNG with
// the `equalize` operator takes the exact 8-bit path instead (post::Equalize8: Bugetti's integer
// cdf_min formula) and is written as an 8-bit grey PNG.
#pragma once

#include "app/Commands.h"
#include "gl/Program.h"
#include "post/PostTypes.h"

#include <optional>
#include <ostream>
#include <string_view>

namespace app {

/// Parses "MIN:MAX" (log2 units, finite, MIN < MAX); nullopt for "auto". Throws std::invalid_argument
/// with a one-line message.
std::optional<std::pair<float, float>> parseTonemapRange(std::string_view text);

/// GPU capabilities of the current GL context (limits queried once).
post::GpuCaps queryGpuCaps(const platform::GlInfo& info);

/// Runs the tonemap command on the current context. Progress and --verify reports go to `out`;
/// failures print one line to `err` and return 1 (never throw).
int tonemapImage(const TonemapOptions& options,
                 gl::ShaderLibrary& shaders,
                 const post::GpuCaps& caps,
                 std::ostream& out,
                 std::ostream& err);

}  // namespace app
