// HdrpHistogram.comp: Unity HDRP's histogram exposure pass, its structure (com.unity.render-pipelines.
// high-definition Runtime/PostProcessing/Shaders/HistogramExposure.compute KHistogramGen, with
// HistogramExposureCommon.hlsl) written anew (commands/bench/peers/HdrpPeer.h): 16x8 invocations over
// a half-resolution grid, each reading the full-resolution pixel (2x, 2y); luminance to EV100
// (log2(L 100 / 12.5)), its bin uint(saturate(EV100 scale + bias) x 127) over the exposure limits;
// the centre-weighted mask's weight packed as uint(w x 2048) and added to a shared array of 128
// atomics, then one global atomicAdd per bin per workgroup (the global bins cleared by the host).
#include "shared/HostDevice.h"
#include "shared/Peers.h"

layout(local_size_x = kHdrpGroupX, local_size_y = kHdrpGroupY) in;

layout(binding = kTextureUnitInput) uniform sampler2D uFrame;
layout(std430, binding = kBindingHistogram) buffer Bins { uint bins[]; };
layout(std430, binding = kBindingHistogramParams) readonly buffer ParamsBuffer { uint params[]; };

shared uint sBins[kHdrpBins];

void main()
{
    const uint local = gl_LocalInvocationIndex;
    if (local < kHdrpBins)
        sBins[local] = 0u;
    barrier();

    const uvec2 full = gl_GlobalInvocationID.xy << 1u;
    const vec2 size = vec2(textureSize(uFrame, 0));
    if (all(lessThan(vec2(full), size))) {
        const vec3 weights = vec3(uintBitsToFloat(params[kParamLumaR]), uintBitsToFloat(params[kParamLumaG]),
                                  uintBitsToFloat(params[kParamLumaB]));
        const float luminance = dot(texelFetch(uFrame, ivec2(full), 0).rgb, weights);
        const float ev100 = log2(luminance * 100.0 / 12.5);
        const float scale = 1.0 / (kHdrpLimitMax - kHdrpLimitMin);
        const float bias = -kHdrpLimitMin * scale;
        const uint bin = uint(clamp(ev100 * scale + bias, 0.0, 1.0) * float(kHdrpBins - 1u));
        const vec2 d = vec2(full) - 0.5 * size;
        const float weight = clamp(1.0 - length(d) / (0.5 * (size.x + size.y)), 0.0, 1.0);
        atomicAdd(sBins[bin], uint(weight * kHdrpWeightScale));
    }
    barrier();
    if (local < kHdrpBins)
        atomicAdd(bins[local], sBins[local]);
}
