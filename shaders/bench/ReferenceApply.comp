// ReferenceApply.comp: the reference chain's apply (`hdrlab bench pipeline`,
// commands/bench/ReferenceChain.h): reads the linear frame with 16-byte loads (two RGBA16F pixels, or
// one RGBA32F pixel, ITEMS loads in flight per invocation, grid-stride), looks each pixel's luminance
// (plain dot product) up in the curve's LUT (hardware log2, linear interpolation, clamped at both
// ends), scales RGB by Ld / Lw, encodes sRGB and writes packed RGBA8 pixels to a linear buffer, 8
// (or 4) bytes per invocation per load, coalesced. Lw NaN, infinite or <= 0 gives black. Not the
// pipeline's apply (no linear continuation below the curve, no local adaptation, no per-channel
// curves): the yardstick of a pass that simply streams. CPU model: commands/bench/ReferenceChainCpu.h.
#include "shared/HostDevice.h"

#ifndef HALF_FRAME
#define HALF_FRAME 1
#endif
#ifndef ITEMS
#define ITEMS 2
#endif
#ifndef GROUP_SIZE
#define GROUP_SIZE 256
#endif

layout(local_size_x = GROUP_SIZE) in;

layout(std430, binding = kBindingScratch0) readonly buffer Frame { uvec4 frame[]; };
#if HALF_FRAME
layout(std430, binding = kBindingScratch1) writeonly buffer Output { uvec2 display[]; };
#else
layout(std430, binding = kBindingScratch1) writeonly buffer Output { uint display[]; };
#endif
layout(std430, binding = kBindingCurve) readonly buffer CurveBuffer { float curve[]; };
layout(std430, binding = kBindingHistogramParams) readonly buffer ParamsBuffer { uint params[]; };
layout(location = 0) uniform uint uPixels;

// Uniform per dispatch, read once per invocation.
vec3 gWeights;
float gCdPerUnit;
float gLogMin;
float gSamplesPerEv;
int gSamples;

float encodeSrgb(float linear)
{
    if (!(linear > 0.0))
        return 0.0;
    linear = min(linear, 1.0);
    return linear <= 0.0031308 ? 12.92 * linear : 1.055 * pow(linear, 1.0 / 2.4) - 0.055;
}

uint shade(vec3 rgb)
{
    const float Lw = dot(gWeights, rgb);
    // isnan explicitly: on the H200 NaN pixels got past !(Lw > 0.0) alone and came out white.
    if (isnan(Lw) || !(Lw > 0.0) || isinf(Lw))
        return packUnorm4x8(vec4(0.0, 0.0, 0.0, 1.0));
    const float position = clamp((log2(Lw) - gLogMin) * gSamplesPerEv - 0.5, 0.0, float(gSamples - 1));
    const int below = int(position);
    const int above = min(below + 1, gSamples - 1);
    const float Ld = mix(curve[kCurveHeaderWords + uint(below)], curve[kCurveHeaderWords + uint(above)],
                         position - float(below));
    const vec3 shown = rgb * (Ld * gCdPerUnit / Lw);
    return packUnorm4x8(vec4(encodeSrgb(shown.r), encodeSrgb(shown.g), encodeSrgb(shown.b), 1.0));
}

void applyElement(uvec4 element, uint index)
{
#if HALF_FRAME
    display[index] = uvec2(shade(vec3(unpackHalf2x16(element.x), unpackHalf2x16(element.y).x)),
                           shade(vec3(unpackHalf2x16(element.z), unpackHalf2x16(element.w).x)));
#else
    display[index] = shade(uintBitsToFloat(element.xyz));
#endif
}

void main()
{
    gWeights = vec3(uintBitsToFloat(params[kParamLumaR]), uintBitsToFloat(params[kParamLumaG]),
                    uintBitsToFloat(params[kParamLumaB]));
    gCdPerUnit = uintBitsToFloat(params[kParamCdPerUnit]);
    gSamples = clamp(int(curve[kCurveSampleCount]), 1, int(kMaxCurveSamples));
    gLogMin = curve[kCurveLogMin];
    const float span = curve[kCurveLogMax] - gLogMin;
    gSamplesPerEv = float(gSamples) / (span > 0.0 ? span : 1.0);

    // The buffers hold whole elements (a half frame of odd pixel count has one padding pixel, whose
    // output the host ignores).
#if HALF_FRAME
    const uint elements = (uPixels + 1u) / 2u;
#else
    const uint elements = uPixels;
#endif
    const uint chunk = uint(GROUP_SIZE * ITEMS);
    const uint stride = gl_NumWorkGroups.x * chunk;
    uint base = gl_WorkGroupID.x * chunk + gl_LocalInvocationID.x;
    for (; base + uint((ITEMS - 1) * GROUP_SIZE) < elements; base += stride) {
        uvec4 v[ITEMS];
        for (int k = 0; k < ITEMS; ++k)
            v[k] = frame[base + uint(k * GROUP_SIZE)];
        for (int k = 0; k < ITEMS; ++k)
            applyElement(v[k], base + uint(k * GROUP_SIZE));
    }
    for (int k = 0; k < ITEMS; ++k) {
        const uint i = base + uint(k * GROUP_SIZE);
        if (i < elements)
            applyElement(frame[i], i);
    }
}
