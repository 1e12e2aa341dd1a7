// ToneShaders.h: the operators' GPU state layouts (float words; the shaders get them as #defines
// from here, so C++ and GLSL cannot disagree) and the exposure-curve pass shared by the percentile
// and exposure operators.
#pragma once

#include "gl/Buffer.h"
#include "gl/Program.h"
#include "tone/ToneSettings.h"

#include <cstdint>

namespace post {

/// Percentile state buffer (float words).
namespace percentile_state {
inline constexpr std::uint32_t kExposure = 0;  ///< current exposure, EV
inline constexpr std::uint32_t kTarget = 1;    ///< last target, EV
inline constexpr std::uint32_t kValid = 2;     ///< 1 once a usable frame set the exposure
inline constexpr std::uint32_t kMetered = 3;   ///< log2 L of the percentile / band mean
inline constexpr std::uint32_t kHigh = 4;      ///< log2 L of the high percentile
inline constexpr std::uint32_t kBandLow = 5;   ///< log2 L of the band's low percentile (band mode)
inline constexpr std::uint32_t kBandHigh = 6;
inline constexpr std::uint32_t kFrameOk = 7;           ///< 1 when this frame's histogram was usable
inline constexpr std::uint32_t kCompensation = 8;      ///< the compensation curve's value at kMetered, EV
inline constexpr std::uint32_t kMeanLog2 = 9;          ///< the metered histogram's mean log2 L (cut detection)
inline constexpr std::uint32_t kMeanValid = 10;        ///< 1 when kMeanLog2 holds the last usable frame's
inline constexpr std::uint32_t kCut = 11;              ///< 1 when this frame is a cut
inline constexpr std::uint32_t kCutDistance = 12;      ///< |mean log2 L - the previous frame's|, EV
inline constexpr std::uint32_t kCutCount = 13;         ///< cuts since the last reset
inline constexpr std::uint32_t kLastCutFrame = 14;     ///< frame index of the last cut (exact below 2^24)
inline constexpr std::uint32_t kLastCutDistance = 15;  ///< kCutDistance of the last cut, EV
inline constexpr std::uint32_t kWords = 16;
}  // namespace percentile_state

/// Ward state buffer (float words).
namespace ward_state {
inline constexpr std::uint32_t kOutcome = 0;  ///< ref::WardOutcome order: histogram, fits, failed, no samples
inline constexpr std::uint32_t kPasses = 1;
inline constexpr std::uint32_t kBwmin = 2;  ///< ln cd/m^2
inline constexpr std::uint32_t kBwmax = 3;
inline constexpr std::uint32_t kBwavg = 4;
inline constexpr std::uint32_t kHistot = 5;
inline constexpr std::uint32_t kFinalTotal = 6;
inline constexpr std::uint32_t kCeilingFraction = 7;  ///< db / (ln Ldmax - ln Ldmin)
inline constexpr std::uint32_t kSamples = 8;          ///< foveal samples counted
inline constexpr std::uint32_t kRangeValid = 9;
inline constexpr std::uint32_t kDuplicated = 10;
inline constexpr std::uint32_t kConverged = 11;
inline constexpr std::uint32_t kGridWidth = 12;
inline constexpr std::uint32_t kGridHeight = 13;
inline constexpr std::uint32_t kLinearScale = 14;  ///< display per cd/m^2 of the linear operator
inline constexpr std::uint32_t kWords = 16;
}  // namespace ward_state

/// Ward view buffer: trimmed histogram, last ceilings and cumf, kWardMaxBins (+1) floats each.
inline constexpr std::uint32_t kWardViewTrimmedOffset = 0;
inline constexpr std::uint32_t kWardViewCeilingOffset = kWardMaxBins;
inline constexpr std::uint32_t kWardViewCumfOffset = 2 * kWardMaxBins;
inline constexpr std::uint32_t kWardViewWords = 3 * kWardMaxBins + 1;

/// Ward's pcond-sampling buffer (doubles; tonemap/WardPcondFit.comp): a header, then per-bin arrays of
/// kWardMaxBins entries (cumf one more), then the kWardMaxBins (world, display) pairs pcond -x prints.
namespace ward_pcond {
inline constexpr std::uint32_t kOutcome = 0;  ///< ref::PcondOutcome order
inline constexpr std::uint32_t kPasses = 1;
inline constexpr std::uint32_t kBwmin = 2;  ///< ln cd/m^2
inline constexpr std::uint32_t kBwmax = 3;
inline constexpr std::uint32_t kBwavg = 4;
inline constexpr std::uint32_t kHistot = 5;
inline constexpr std::uint32_t kMhistot = 6;
inline constexpr std::uint32_t kLwmin = 7;  ///< cd/m^2
inline constexpr std::uint32_t kLwmax = 8;
inline constexpr std::uint32_t kDuplicated = 9;
inline constexpr std::uint32_t kValid = 10;
inline constexpr std::uint32_t kScalef = 11;  ///< linear outcomes: display cd/m^2 per world cd/m^2
inline constexpr std::uint32_t kBins = 12;
inline constexpr std::uint32_t kPrintedCount = 13;
inline constexpr std::uint32_t kFovealCounted = 14;
inline constexpr std::uint32_t kPointsCounted = 15;
inline constexpr std::uint32_t kPointWeight = 16;
inline constexpr std::uint32_t kHeaderWords = 32;
inline constexpr std::uint32_t kHistogram = kHeaderWords;             ///< comphist's bwhist (after the false samples)
inline constexpr std::uint32_t kModhist = kHistogram + kWardMaxBins;  ///< after the last pass
inline constexpr std::uint32_t kCeiling = kModhist + kWardMaxBins;    ///< of the last pass
inline constexpr std::uint32_t kCumf = kCeiling + kWardMaxBins;       ///< kWardMaxBins + 1
inline constexpr std::uint32_t kCentres = kCumf + kWardMaxBins + 1;   ///< bin centres as pcond accumulates them
inline constexpr std::uint32_t kExcess = kCentres + kWardMaxBins;     ///< scratch: each bin's trimming
inline constexpr std::uint32_t kPrinted = kExcess + kWardMaxBins;     ///< (world, display) pairs
inline constexpr std::uint32_t kWords = kPrinted + 2 * kWardMaxBins;
}  // namespace ward_pcond

gl::ShaderDefines percentileStateDefines();
gl::ShaderDefines wardDefines();

gl::Program buildExposureCurveProgram(const gl::ShaderLibrary& shaders, std::string_view label);

/// Fills `curve` with display(Lw * 2^E): with `percentileState` E comes from it and the range from
/// `params` (GPU only); without it, E and the range are the given values. `localBlend` (0..1) goes
/// into the curve header for the apply pass's local adaptation, with the metered value as reference.
void dispatchExposureCurve(const gl::Program& program,
                           const gl::Buffer& params,
                           gl::Buffer& curve,
                           const gl::Buffer* percentileState,
                           const DisplayCurveSettings& display,
                           std::uint32_t samples,
                           float exposureEv,
                           float logMin,
                           float logMax,
                           float localBlend = 0.0f);

}  // namespace post
