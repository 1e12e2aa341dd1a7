// ToneCurveInputs.h: what a tone operator's CPU reference is given (reference/ToneReference.h finds
// the reference by the operator's id), filled by the operator itself after a GPU run (its
// ToneVerification capability, post/tonemap/ToneCapabilities.h) or by tests and tools. Plain data,
// below post/ and reference/, so neither includes the other.
#pragma once

#include "shared/HostDevice.h"
#include "tone/PcondView.h"
#include "tone/ToneSettings.h"

#include <any>
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
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
    /// An adapting operator's exposure before this frame (percentile); nullopt = first frame (snaps
    /// to the target).
    std::optional<double> previousExposureEv;
    std::array<std::vector<std::uint32_t>, 3> channelBins;  ///< per-channel equalization, optional
    hd::LuminanceWeights luminance{};  ///< the luminance definition (the params' hd::kParamLuma* words)
    /// The operator's settings, the struct its reference reads (post::EqualizeSettings,
    /// post::PercentileSettings, post::WardSettings or WardPcondInputs, post::ExposureSettings, or an
    /// operator's own); empty: the reference's defaults.
    std::any settings;
};

/// Ward with pcond sampling: its settings and the picture as pcond sees it (rows top first; its rgba
/// is CurveInputs::rgba when null).
struct WardPcondInputs
{
    post::WardSettings ward;
    PcondPicture picture;
};

/// The settings in `inputs` as T, or T's defaults when it holds none (or another type).
template <typename T>
T settingsOr(const CurveInputs& inputs)
{
    if (const T* settings = std::any_cast<T>(&inputs.settings))
        return *settings;
    return T{};
}

/// What --verify hands an operator's reference checks (reference/ToneReference.h, ToneReference::checks):
/// the curve inputs, the GPU's curve, and the operator's GPU state read back, by name (each operator's
/// check says which names it reads).
struct ToneCheckInputs
{
    CurveInputs curve;
    std::vector<float> gpuCurve;            ///< the pipeline's curve buffer (hd::kCurveBufferWords)
    std::uint32_t outOfRangePolicy = 0;     ///< the params' hd::kParamOutOfRange
    const float* histogramImage = nullptr;  ///< the image the pipeline binned (RGBA float), its size
    int histogramWidth = 0;
    int histogramHeight = 0;
    bool topDownRows = false;  ///< row 0 of the images is the picture's top
    std::map<std::string, std::vector<float>> floats;
    std::map<std::string, std::vector<std::uint32_t>> words;
    std::map<std::string, double> numbers;
    std::vector<float> pixels;  ///< storage a CurveInputs::rgba may point at (a copy the operator made)
};

/// One line of an operator's further check: the text --verify prints and whether it passed.
struct ToneCheckResult
{
    std::string text;
    bool ok = true;
};

}  // namespace ref
