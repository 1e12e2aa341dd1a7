// ToneReference.h: one entry point to the CPU references of the four tone operators, producing a
// curve buffer laid out exactly as the GPU's (hd::kCurve*), so --verify, tools and tests can compare
// a GPU curve with its reference through ref::evaluateCurve (reference/Image.h, the apply pass's
// semantics).
#pragma once

#include "post/tonemap/ToneSettings.h"
#include "reference/WardPcondRef.h"
#include "shared/HostDevice.h"

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace ref {

struct CurveInputs
{
    std::vector<std::uint32_t> bins;  ///< the pipeline's histogram (binCount bins, counters excluded)
    float logMin = 0.0f;              ///< its range, log2 of scene-linear luminance
    float logMax = 0.0f;
    /// The frame (RGBA float, row-major): Ward builds its foveal samples from it (the full frame),
    /// per-channel equalization its R, G, B histograms (the histogram image) when channelBins is empty.
    const float* rgba = nullptr;
    int width = 0;
    int height = 0;
    float fovYDegrees = 60.0f;
    double dtSeconds = 1.0 / 60.0;
    /// Percentile: the exposure before this frame; nullopt = first frame (snaps to the target).
    std::optional<double> previousExposureEv;
    std::array<std::vector<std::uint32_t>, 3> channelBins;  ///< per-channel equalization, optional
    hd::LuminanceWeights luminance{};  ///< the luminance definition (the params' hd::kParamLuma* words)

    post::EqualizeSettings equalize;
    post::PercentileSettings percentile;
    post::WardSettings ward;
    /// Ward with pcond sampling: the picture as pcond sees it (rows top first; its rgba is `rgba` when
    /// null); nullopt for the frame sampling.
    std::optional<PcondPicture> wardPcond;
    post::ExposureSettings exposure;
};

/// The reference curve buffer (hd::kCurveBufferWords floats) of operator `operatorId` ("equalize",
/// "percentile", "ward", "exposure"); empty for an unknown id.
std::vector<float> referenceCurve(std::string_view operatorId, const CurveInputs& inputs);

/// A zeroed curve buffer with its header filled in.
std::vector<float> makeCurveWords(double logMin,
                                  double logMax,
                                  std::uint32_t sampleCount,
                                  std::uint32_t channels,
                                  bool linearScale = false,
                                  double scale = 0.0);

/// Largest |a - b| of the display values (clamped to [0, 1]) of two curve buffers' channel over
/// `probes` world luminances spread evenly on [log2Lo, log2Hi].
double curveMaxDifference(std::span<const float> a,
                          std::span<const float> b,
                          int channel,
                          double log2Lo,
                          double log2Hi,
                          int probes = 4096);

/// Largest |a - b| of the LUT values of two LUT-mode buffers with the same header (sample by sample).
double lutMaxDifference(std::span<const float> a, std::span<const float> b);

}  // namespace ref
