// Image.h: CPU references of the image passes around the histogram: the box downsample of the
// histogram input and the tone-curve apply pass (curve lookup, colour ratio, sRGB encoding).
#pragma once

#include "shared/HostDevice.h"
#include "tone/DisplayOutput.h"

#include <cstdint>
#include <vector>

namespace ref {

struct RgbaImage
{
    int width = 0;
    int height = 0;
    std::vector<float> pixels;  ///< width * height * 4
};

/// Box filter by `factor` (1, 2, 4, 8): the output is ceil(w/factor) x ceil(h/factor), each texel
/// the mean of the factor x factor block's pixels that exist (partial blocks at odd edges).
RgbaImage boxDownsample(const float* rgba, int width, int height, int factor);

/// IEC 61966-2-1 sRGB OETF on a value clamped to [0, 1] (NaN gives 0).
double encodeSrgb(double linear);

/// Display luminance of world luminance `Lw` (> 0, may be +Inf) through one channel of a curve
/// buffer laid out as hd::kCurve* (samples at logMin + (i + 0.5) * (logMax - logMin) / n, linear
/// interpolation, linear in Lw below the first sample, clamped above the last; LinearScale mode: scale * Lw).
double evaluateCurve(const float* curveWords, int channel, double Lw);

/// The apply pass: RGBA8 (sRGB-encoded, alpha 255) of an RGBA float image through a curve buffer.
/// One channel: RGB * Ld / (Lw / cdPerUnit) with Lw the luminance in cd/m^2 under `weights`; three
/// channels: each channel times `cdPerUnit` through its own curve (the params' hd::kParamLuma* and
/// hd::kParamCdPerUnit). Lw (or the channel) NaN or <= 0 gives 0; +Inf gives the curve's top value. With
/// `localMean` (float[w*h], mean log2 L around each pixel) the lookup is at Lw * 2^(blend *
/// (reference - localMean)), blend and reference from the curve header, the shift clamped to +-8 EV.
/// `display`: an RGB transform (display.transform, a post::DisplayCurve code) maps the exposed colour
/// (channel x cdPerUnit x the header's kCurveScale x shifts) instead of the ratio; with display.hdr
/// the bytes are the SDR preview (cd/m^2 / 203) of applyCurveHdr's values before the BT.2020 matrix.
/// With `localExposureEv` (float[w*h], ref::localExposureEv) the lookup is also shifted by 2^ev.
std::vector<std::uint8_t> applyCurve(const float* rgba,
                                     int width,
                                     int height,
                                     const float* curveWords,
                                     const float* localMean = nullptr,
                                     const hd::LuminanceWeights& weights = {},
                                     float cdPerUnit = 1.0f,
                                     const post::ApplyDisplay& display = {},
                                     const float* localExposureEv = nullptr);

/// The apply pass's HDR10 output (display.hdr): RGBA float, linear BT.2020 cd/m^2 (alpha 1): the
/// display value x nitsScale (+ nitsOffset where the pixel is lit), clamped to [0, peak], through
/// the Rec. 709 to BT.2020 matrix (ref::rec709ToBt2020, derived from the primaries).
std::vector<float> applyCurveHdr(const float* rgba,
                                 int width,
                                 int height,
                                 const float* curveWords,
                                 const float* localMean,
                                 const hd::LuminanceWeights& weights,
                                 float cdPerUnit,
                                 const post::ApplyDisplay& display,
                                 const float* localExposureEv = nullptr);

/// The local adaptation map: per pixel, the mean of log2 L (L under `weights`, clamped to [logMin,
/// logMax]; invalid pixels count as logMin, +Inf as logMax) over the (2r+1)^2 window clipped to the image.
std::vector<float> localMeanLog2(const float* rgba,
                                 int width,
                                 int height,
                                 int radius,
                                 float logMin,
                                 float logMax,
                                 const hd::LuminanceWeights& weights = {});

}  // namespace ref
