// TonemapCore.h: the testable core of `hdrlab tonemap`: tone-maps one image file with the GPU
// pipeline on the current GL context (the command adds only the headless context around it).
//
// HDR inputs (EXR, .hdr, and 8-bit files decoded from sRGB) go through PostPipeline: histogram,
// scan, tone curve, apply pass; the display image is written as an RGB PNG. An 8-bit grey PNG with
// the `equalize` operator takes the exact 8-bit path instead (post::Equalize8: Bugetti's integer
// cdf_min formula) and is written as an 8-bit grey PNG.
#pragma once

#include "commands/tonemap/TonemapCommand.h"
#include "gl/Program.h"
#include "image/Image.h"
#include "post/PostTypes.h"

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace app {

/// Parses "MIN:MAX" (log2 units, finite, MIN < MAX); nullopt for "auto". Throws std::invalid_argument
/// with a one-line message.
std::optional<std::pair<float, float>> parseTonemapRange(std::string_view text);

/// Runs the tonemap command on the current context. Progress and --verify reports go to `out`;
/// failures print one line to `err` and return 1 (never throw).
int tonemapImage(const TonemapOptions& options,
                 gl::ShaderLibrary& shaders,
                 const post::GpuCaps& caps,
                 std::ostream& out,
                 std::ostream& err);

/// One tone-mapped frame kept in memory: what tonemap writes for one operator (the picture, the
/// curve and histogram of --curve-out and --histogram-out) and its key value.
struct TonemapFrame
{
    std::string toneOperator;       ///< the operator's id
    std::string toneOperatorLabel;  ///< and its label
    std::string histogramMethod;
    image::Image8 picture;                 ///< RGB, as the PNG tonemap writes
    std::vector<float> curve;              ///< float[hd::kCurveBufferWords]
    std::vector<std::uint32_t> histogram;  ///< uint[hd::kHistogramBufferWords]: bins, then the counters
    std::vector<std::uint32_t> params;     ///< uint[hd::kHistogramParamsWords]: range, bins, policy
    bool countersValid = false;            ///< the histogram method fills the counters
    std::string keyValueName;              ///< ToneOperator::keyValueName(); empty: the operator has none
    std::optional<float> keyValueEv;       ///< the frame's key value (EV), when its readback gave one
};

/// The HDR path of tonemapImage for one operator (options.toneOperator; no --operator all), with the
/// same settings and the same one frame, kept in `frame` instead of written. Warnings and notes go to
/// `err`; failures throw std::invalid_argument or image::ImageError with one line.
void tonemapToFrame(const TonemapOptions& options,
                    gl::ShaderLibrary& shaders,
                    const post::GpuCaps& caps,
                    std::ostream& err,
                    TonemapFrame& frame);

/// The --histogram-out CSV of a histogram buffer and its params.
std::string histogramCsv(const std::vector<std::uint32_t>& words,
                         const std::vector<std::uint32_t>& params,
                         bool countersValid);

}  // namespace app
