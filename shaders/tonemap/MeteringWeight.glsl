// MeteringWeight.glsl: the metering mask's weight of one pixel (MeteringMask.h gives the formulas
// and their sources; ref::meteringWeight is the CPU twin). The including shader declares the
// uniforms at locations 0..9 and the mask and depth samplers; positions are pixel centres in picture
// coordinates (x from the left, y from the top), so the masks do not depend on the image's row order.
#include "shared/HostDevice.h"

layout(binding = kTextureUnitAux) uniform sampler2D uMaskTexture; // R32F weights, row 0 = picture top
layout(binding = kTextureUnitDepth) uniform sampler2D uDepth;     // the frame's depth, its rows

layout(location = 0) uniform uint uMaskMode;   // hd::kMetering*
layout(location = 1) uniform uint uExcludeSky; // 1: weight 0 where the depth is the far plane (1.0)
layout(location = 2) uniform uint uTopDownRows; // 1: texel row 0 is the picture's top
layout(location = 3) uniform vec2 uCentre;     // ellipse centre, fractions of width and height
layout(location = 4) uniform vec2 uRadii;      // ellipse radii, fractions of width and height
layout(location = 5) uniform float uInverseSoftness;
layout(location = 6) uniform float uGateLow;   // ellipse gate: 2^minEv < L < 2^maxEv
layout(location = 7) uniform float uGateHigh;
layout(location = 8) uniform ivec2 uImageSize; // the image the weights are for
layout(location = 9) uniform ivec2 uDepthSize; // the depth texture (the full frame)

// HDRP's centre-weighted shape: 1 - |p - centre| / (0.5 (w + h)), clamped to [0, 1].
float centreWeight(vec2 p, vec2 size)
{
    vec2 d = p - 0.5 * size;
    return clamp(1.0 - sqrt(d.x * d.x + d.y * d.y) / (0.5 * (size.x + size.y)), 0.0, 1.0);
}

// HDRP's procedural mask: t = |(p - c) / r| (radii in pixels), weight 1 - t^(1/softness), zero
// outside the luminance gate.
float ellipseWeight(vec2 p, vec2 size, float luminance)
{
    if (!(luminance > uGateLow && luminance < uGateHigh))
        return 0.0;
    vec2 d = (p - uCentre * size) / (uRadii * size);
    float t = sqrt(d.x * d.x + d.y * d.y);
    return clamp(1.0 - pow(t, uInverseSoftness), 0.0, 1.0);
}

// The quantised weight (hdQuantiseMeteringWeight) of texel `texel` of an image of uImageSize.
uint meteringWeight(ivec2 texel, float luminance)
{
    if (uExcludeSky != 0u) {
        // Same size (no downsampling): the same texel, without two integer divisions per pixel.
        ivec2 depthTexel = uDepthSize == uImageSize
                               ? texel
                               : ivec2(hdNearestTexel(texel.x, uImageSize.x, uDepthSize.x),
                                       hdNearestTexel(texel.y, uImageSize.y, uDepthSize.y));
        if (texelFetch(uDepth, depthTexel, 0).r >= 1.0)
            return 0u;
    }
    int row = uTopDownRows != 0u ? texel.y : uImageSize.y - 1 - texel.y;
    vec2 size = vec2(uImageSize);
    vec2 p = vec2(float(texel.x) + 0.5, float(row) + 0.5);
    float w = 1.0;
    if (uMaskMode == kMeteringCentreWeighted) {
        w = centreWeight(p, size);
    } else if (uMaskMode == kMeteringEllipse) {
        w = ellipseWeight(p, size, luminance);
    } else if (uMaskMode == kMeteringTexture) {
        ivec2 maskSize = textureSize(uMaskTexture, 0);
        w = texelFetch(uMaskTexture,
                       ivec2(hdNearestTexel(texel.x, uImageSize.x, maskSize.x),
                             hdNearestTexel(row, uImageSize.y, maskSize.y)),
                       0)
                .r;
    }
    return hdQuantiseMeteringWeight(w);
}
