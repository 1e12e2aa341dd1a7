#include "reference/Image.h"

#include "reference/DisplayTransformRef.h"
#include "reference/HdrEncode.h"
#include "shared/HostDevice.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace ref {

RgbaImage boxDownsample(const float* rgba, int width, int height, int factor)
{
    RgbaImage out;
    factor = std::max(factor, 1);
    out.width = (width + factor - 1) / factor;
    out.height = (height + factor - 1) / factor;
    out.pixels.assign(std::size_t(out.width) * std::size_t(out.height) * 4, 0.0f);
    for (int oy = 0; oy < out.height; ++oy) {
        for (int ox = 0; ox < out.width; ++ox) {
            float sum[4] = {0.0f, 0.0f, 0.0f, 0.0f};
            int count = 0;
            for (int y = oy * factor; y < std::min(height, (oy + 1) * factor); ++y) {
                for (int x = ox * factor; x < std::min(width, (ox + 1) * factor); ++x) {
                    const float* p = rgba + (std::size_t(y) * std::size_t(width) + std::size_t(x)) * 4;
                    for (int c = 0; c < 4; ++c)
                        sum[c] += p[c];
                    ++count;
                }
            }
            float* o = out.pixels.data() + (std::size_t(oy) * std::size_t(out.width) + std::size_t(ox)) * 4;
            for (int c = 0; c < 4; ++c)
                o[c] = sum[c] / float(count);
        }
    }
    return out;
}

double encodeSrgb(double linear)
{
    if (!(linear > 0.0))
        return 0.0;
    linear = std::min(linear, 1.0);
    return linear <= 0.0031308 ? 12.92 * linear : 1.055 * std::pow(linear, 1.0 / 2.4) - 0.055;
}

double evaluateCurve(const float* curveWords, int channel, double Lw)
{
    if (curveWords[hd::kCurveMode] == hd::kCurveModeLinearScale)
        return double(curveWords[hd::kCurveScale]) * Lw;
    const int samples = std::clamp(int(curveWords[hd::kCurveSampleCount]), 1, int(hd::kMaxCurveSamples));
    const float* lut = curveWords + hd::kCurveHeaderWords + std::size_t(channel) * hd::kMaxCurveSamples;
    if (std::isinf(Lw))
        return lut[samples - 1];
    const double logMin = curveWords[hd::kCurveLogMin];
    const double logMax = curveWords[hd::kCurveLogMax];
    const double span = logMax > logMin ? logMax - logMin : 1.0;
    // Sample i sits at fractional position i + 0.5 along the range.
    double position = (std::log2(Lw) - logMin) / span * samples - 0.5;
    // Below the first sample the curve is linear in Lw (Ld/Lw constant), as in the apply shader.
    if (position < 0.0)
        return double(lut[0]) * std::exp2(position * span / samples);
    position = std::min(position, double(samples - 1));
    int below = int(std::floor(position));
    int above = std::min(below + 1, samples - 1);
    double fraction = position - below;
    return double(lut[below]) * (1.0 - fraction) + double(lut[above]) * fraction;
}

namespace {

std::uint8_t toByte(double linear)
{
    return std::uint8_t(std::lround(encodeSrgb(linear) * 255.0));
}

bool isUsable(double value)
{
    return !std::isnan(value) && value > 0.0;
}

/// The apply pass's display value of one pixel, its lookup at Lw x `shift` (SDR: 0..1 before clamping).
std::array<double, 3> mapColour(const float* p,
                                const float* curveWords,
                                double shift,
                                const hd::LuminanceWeights& weights,
                                float cdPerUnit,
                                std::uint32_t transform)
{
    std::array<double, 3> out{0.0, 0.0, 0.0};
    const bool perChannel =
        int(curveWords[hd::kCurveChannels]) == 3 && curveWords[hd::kCurveMode] != hd::kCurveModeLinearScale;
    if (perChannel) {
        for (int c = 0; c < 3; ++c)
            out[c] = isUsable(p[c]) ? evaluateCurve(curveWords, c, double(p[c]) * cdPerUnit * shift) : 0.0;
        return out;
    }
    const double Lw = hd::hdLuminance(p[0], p[1], p[2], weights);
    if (!isUsable(Lw))
        return out;
    if (transform != 0 && !std::isinf(Lw)) {
        // The exposed colour: channel x cd/m^2 per unit x 2^E (the header's scale) x the shift.
        const double k = double(cdPerUnit) * double(curveWords[hd::kCurveScale]) * shift;
        return displayTransform({p[0] * k, p[1] * k, p[2] * k}, post::DisplayCurve(transform));
    }
    const double Ld = evaluateCurve(curveWords, 0, Lw * shift);
    // +Inf luminance has no finite colour ratio: show the curve's value as grey.
    for (int c = 0; c < 3; ++c)
        out[c] = std::isinf(Lw) ? Ld : double(p[c]) * (Ld * cdPerUnit / Lw);
    return out;
}

/// One pixel through the apply pass up to (not including) the encoding: SDR: the display value;
/// HDR10: linear Rec. 709 cd/m^2, clamped to [0, peak] (tone/DisplayOutput.h).
std::array<double, 3> displayPixel(const float* p,
                                   const float* curveWords,
                                   double shift,
                                   const hd::LuminanceWeights& weights,
                                   float cdPerUnit,
                                   const post::ApplyDisplay& display)
{
    std::array<double, 3> out = mapColour(p, curveWords, shift, weights, cdPerUnit, display.transform);
    if (!display.hdr)
        return out;
    const bool perChannel =
        int(curveWords[hd::kCurveChannels]) == 3 && curveWords[hd::kCurveMode] != hd::kCurveModeLinearScale;
    const bool lit = perChannel ? isUsable(p[0]) || isUsable(p[1]) || isUsable(p[2])
                                : isUsable(hd::hdLuminance(p[0], p[1], p[2], weights));
    std::array<double, 3> highlights{0.0, 0.0, 0.0};
    if (display.highlightLookup > 0.0f)
        highlights =
            mapColour(p, curveWords, shift * double(display.highlightLookup), weights, cdPerUnit, display.transform);
    for (int c = 0; c < 3; ++c) {
        double nits = out[c] * double(display.nitsScale) + (lit ? double(display.nitsOffset) : 0.0);
        if (display.highlightLookup > 0.0f)
            nits = std::max(nits, highlights[c] * double(display.peak));
        out[c] = std::clamp(nits, 0.0, double(display.peak));
    }
    return out;
}

double localShiftOf(const float* curveWords, const float* localMean, std::size_t i)
{
    if (!localMean)
        return 1.0;
    // Local adaptation: look the curve up at Lw * 2^(blend * (reference - local mean)).
    const double shiftEv = double(curveWords[hd::kCurveLocalBlend]) *
                           (double(curveWords[hd::kCurveLocalReference]) - double(localMean[i]));
    if (std::isnan(shiftEv))
        return 1.0;
    return std::exp2(
        std::clamp(shiftEv, -double(hd::kLocalAdaptationMaxShiftEv), double(hd::kLocalAdaptationMaxShiftEv)));
}

}  // namespace

std::vector<std::uint8_t> applyCurve(const float* rgba,
                                     int width,
                                     int height,
                                     const float* curveWords,
                                     const float* localMean,
                                     const hd::LuminanceWeights& weights,
                                     float cdPerUnit,
                                     const post::ApplyDisplay& display,
                                     const float* localExposureEv)
{
    const std::size_t pixels = std::size_t(width) * std::size_t(height);
    std::vector<std::uint8_t> out(pixels * 4, 0);
    for (std::size_t i = 0; i < pixels; ++i) {
        const double shift =
            localShiftOf(curveWords, localMean, i) * (localExposureEv ? std::exp2(double(localExposureEv[i])) : 1.0);
        const auto value = displayPixel(rgba + i * 4, curveWords, shift, weights, cdPerUnit, display);
        std::uint8_t* o = out.data() + i * 4;
        for (int c = 0; c < 3; ++c)
            o[c] = toByte(display.hdr ? value[c] / double(post::kHdrReferenceWhite) : value[c]);
        o[3] = 255;
    }
    return out;
}

std::vector<float> applyCurveHdr(const float* rgba,
                                 int width,
                                 int height,
                                 const float* curveWords,
                                 const float* localMean,
                                 const hd::LuminanceWeights& weights,
                                 float cdPerUnit,
                                 const post::ApplyDisplay& display,
                                 const float* localExposureEv)
{
    const std::size_t pixels = std::size_t(width) * std::size_t(height);
    std::vector<float> out(pixels * 4, 1.0f);
    const Matrix3 toBt2020 = rec709ToBt2020();
    for (std::size_t i = 0; i < pixels; ++i) {
        const double shift =
            localShiftOf(curveWords, localMean, i) * (localExposureEv ? std::exp2(double(localExposureEv[i])) : 1.0);
        const auto nits = displayPixel(rgba + i * 4, curveWords, shift, weights, cdPerUnit, display);
        for (int r = 0; r < 3; ++r)
            out[i * 4 + r] = float(toBt2020[r][0] * nits[0] + toBt2020[r][1] * nits[1] + toBt2020[r][2] * nits[2]);
    }
    return out;
}

std::vector<float> localMeanLog2(const float* rgba,
                                 int width,
                                 int height,
                                 int radius,
                                 float logMin,
                                 float logMax,
                                 const hd::LuminanceWeights& weights)
{
    // Straightforward per-pixel window average (O(w*h*r^2)): the plain definition the summed-area
    // table computes quickly.
    std::vector<float> log2L(std::size_t(width) * std::size_t(height));
    for (std::size_t i = 0; i < log2L.size(); ++i) {
        const float* p = rgba + i * 4;
        double L = hd::hdLuminance(p[0], p[1], p[2], weights);
        double value = std::isinf(L) ? double(logMax) : (L > 0.0 ? std::log2(L) : double(logMin));  // NaN: logMin
        log2L[i] = float(std::clamp(value, double(logMin), double(logMax)));
    }
    std::vector<float> mean(log2L.size());
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            double sum = 0.0;
            int count = 0;
            for (int v = std::max(0, y - radius); v <= std::min(height - 1, y + radius); ++v)
                for (int u = std::max(0, x - radius); u <= std::min(width - 1, x + radius); ++u) {
                    sum += log2L[std::size_t(v) * std::size_t(width) + std::size_t(u)];
                    ++count;
                }
            mean[std::size_t(y) * std::size_t(width) + std::size_t(x)] = float(sum / count);
        }
    return mean;
}

}  // namespace ref
