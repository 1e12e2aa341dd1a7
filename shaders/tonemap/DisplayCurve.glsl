// DisplayCurve.glsl: the display curves applied after an exposure (percentile and exposure
// operators): clamp, Reinhard et al. 2002 with optional white, Hable's Uncharted 2 filmic curve
// (white 11.2, no exposure bias) and Narkowicz's 2015 ACES fit. Input: exposed luminance x >= 0;
// output: display luminance 0..1. The codes match post::DisplayCurve. For the RGB transforms (AgX,
// PBR Neutral; DisplayTransform.glsl) the curve is their grey response: the Rec. 709 luminance of
// the transform of (x, x, x); the apply pass runs the transform itself on each pixel's RGB.
#include "tonemap/DisplayTransform.glsl"

const uint kDisplayClamp = 0u;
const uint kDisplayReinhard = 1u;
const uint kDisplayHable = 2u;
const uint kDisplayAcesFit = 3u;

float hableRaw(float x)
{
    const float a = 0.15, b = 0.50, c = 0.10, d = 0.20, e = 0.02, f = 0.30;
    return (x * (a * x + c * b) + d * e) / (x * (a * x + b) + d * f) - e / f;
}

float displayCurve(float x, uint kind, float white)
{
    if (!(x > 0.0))
        return 0.0;
    if (kind == kDisplayClamp)
        return min(x, 1.0);
    if (kind == kDisplayReinhard) {
        if (!(white > 0.0))
            return isinf(x) ? 1.0 : x / (1.0 + x);
        if (x >= white)
            return 1.0;
        return x * (1.0 + x / (white * white)) / (1.0 + x);
    }
    if (kind == kDisplayHable) {
        const float hableWhite = 11.2;
        if (x >= hableWhite)
            return 1.0;
        return clamp(hableRaw(x) / hableRaw(hableWhite), 0.0, 1.0);
    }
    if (kind >= kDisplayAgx) {
        vec3 grey = displayTransform(vec3(min(x, 3.0e38)), kind);
        return clamp(dot(grey, vec3(0.2126, 0.7152, 0.0722)), 0.0, 1.0);
    }
    if (isinf(x))
        return 1.0;
    return clamp(x * (2.51 * x + 0.03) / (x * (2.43 * x + 0.59) + 0.14), 0.0, 1.0);
}
