// DisplayFxaa.comp: FXAA-style anti-aliasing of the display image (post/DisplayAntiAliasing.h has the
// technique and its limits). Integer arithmetic on the 8-bit encoded values, read exactly
// (texelFetch of RGBA8 gives n / 255), so reference/FxaaRef.cpp gives the same bytes.
#include "shared/HostDevice.h"

layout(local_size_x = 16, local_size_y = 16) in;

layout(binding = kTextureUnitInput) uniform sampler2D uDisplay;
layout(binding = kImageUnitOutput, rgba8) writeonly uniform image2D uOutput;
layout(location = 0) uniform ivec2 uSize;

// The same constants as reference/FxaaRef.cpp.
const int kAbsoluteThreshold = 4080; // 1/16 of the luma range
const int kRelativeShift = 3;        // 1/8 of the brightest luma
const int kSearchStepCount = 11;
const int kSearchSteps[kSearchStepCount] = int[](1, 1, 1, 1, 1, 1, 2, 2, 2, 4, 8);

ivec3 displayValues(ivec2 texel)
{
    return ivec3(floor(texelFetch(uDisplay, clamp(texel, ivec2(0), uSize - 1), 0).rgb * 255.0 + 0.5));
}

int luma(ivec2 texel)
{
    ivec3 c = displayValues(texel);
    return 54 * c.r + 183 * c.g + 19 * c.b;
}

// Pixels along the edge (step `along`) to where its pair luma (this side plus the side across,
// `across`) leaves the edge's by half the gradient; `found` false: the search's reach.
int searchEdgeEnd(ivec2 texel, ivec2 along, ivec2 across, int edgeLuma, int gradient, out bool found, out int delta)
{
    int distance = 0;
    found = false;
    delta = 0;
    for (int i = 0; i < kSearchStepCount; ++i) {
        distance += kSearchSteps[i];
        ivec2 p = texel + along * distance;
        int pair = luma(p) + luma(p + across);
        if (2 * abs(pair - edgeLuma) >= gradient) {
            found = true;
            delta = pair - edgeLuma;
            break;
        }
    }
    return distance;
}

// Weight of the neighbour across the edge in 1/256 (0 keeps the pixel), and that neighbour's offset.
int blendWeight(ivec2 texel, out ivec2 across)
{
    across = ivec2(0);
    int m = luma(texel);
    int n = luma(texel + ivec2(0, 1)), s = luma(texel + ivec2(0, -1));
    int e = luma(texel + ivec2(1, 0)), w = luma(texel + ivec2(-1, 0));
    int lo = min(min(min(m, n), min(s, e)), w), hi = max(max(max(m, n), max(s, e)), w);
    int range = hi - lo;
    if (range < max(kAbsoluteThreshold, hi >> kRelativeShift))
        return 0;
    int ne = luma(texel + ivec2(1, 1)), nw = luma(texel + ivec2(-1, 1));
    int se = luma(texel + ivec2(1, -1)), sw = luma(texel + ivec2(-1, -1));

    // Sub-pixel aliasing: how far the pixel stands out of its 3x3 low-pass, relative to the range.
    int lowPass12 = 2 * (n + s + e + w) + (ne + nw + se + sw);
    int ratio = min(256, abs(lowPass12 - 12 * m) * 256 / (12 * range));
    int eased = (ratio * ratio * (768 - 2 * ratio)) >> 16;
    int subPixel = (eased * eased * 3) >> 10;

    // The edge's orientation: across which axis the luma changes more.
    int acrossY = 2 * abs(n + s - 2 * m) + abs(ne + se - 2 * e) + abs(nw + sw - 2 * w);
    int acrossX = 2 * abs(e + w - 2 * m) + abs(ne + nw - 2 * n) + abs(se + sw - 2 * s);
    bool horizontal = acrossY >= acrossX;
    int lumaNegative = horizontal ? s : w, lumaPositive = horizontal ? n : e;
    int gradientNegative = abs(lumaNegative - m), gradientPositive = abs(lumaPositive - m);
    int side = gradientNegative >= gradientPositive ? -1 : 1;
    int gradient = max(gradientNegative, gradientPositive);
    int edgeLuma = m + (side < 0 ? lumaNegative : lumaPositive); // twice the edge's mean
    across = horizontal ? ivec2(0, side) : ivec2(side, 0);
    ivec2 along = horizontal ? ivec2(1, 0) : ivec2(0, 1);

    bool forwardFound, backwardFound;
    int forwardDelta, backwardDelta;
    int forward = searchEdgeEnd(texel, along, across, edgeLuma, gradient, forwardFound, forwardDelta);
    int backward = searchEdgeEnd(texel, -along, across, edgeLuma, gradient, backwardFound, backwardDelta);
    bool forwardNearer = forward <= backward;
    bool nearerFound = forwardNearer ? forwardFound : backwardFound;
    int nearerDelta = forwardNearer ? forwardDelta : backwardDelta;
    int edge = 0;
    // Blend only towards the end where the edge leaves this pixel's side.
    if (nearerFound && ((nearerDelta < 0) != (2 * m - edgeLuma < 0)))
        edge = max(0, 128 - 256 * min(forward, backward) / (forward + backward));
    return max(edge, subPixel);
}

void main()
{
    ivec2 texel = ivec2(gl_GlobalInvocationID.xy);
    if (texel.x >= uSize.x || texel.y >= uSize.y)
        return;
    ivec2 across;
    int weight = blendWeight(texel, across);
    ivec3 p = displayValues(texel);
    ivec3 q = displayValues(texel + across);
    ivec3 blended = (p * (256 - weight) + q * weight + 128) >> 8;
    imageStore(uOutput, texel, vec4(vec3(blended) / 255.0, 1.0));
}
