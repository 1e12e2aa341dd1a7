// BevyHistogram.comp: Bevy's auto-exposure histogram pass, its structure (Bevy 0.14+,
// crates/bevy_core_pipeline/src/auto_exposure/auto_exposure.wgsl, compute_histogram) written anew
// for `bench pipeline --peers` (commands/bench/peers/BevyPeer.h): 16x16 invocations, one pixel each;
// the metering mask looked up at the pixel's uv and its red channel weighed as uint(mask * 16); the
// pixel's bin in a shared array of atomics (bin 0: below 2^logMin; bins 1..63 over the log range),
// then one global atomicAdd per bin per workgroup. The global bins are cleared by the average pass.
#include "shared/HostDevice.h"
#include "shared/Peers.h"

layout(local_size_x = kBevyGroupSide, local_size_y = kBevyGroupSide) in;

layout(binding = kTextureUnitInput) uniform sampler2D uFrame;
layout(binding = kTextureUnitAux) uniform sampler2D uMask; // Bevy's metering mask (red channel)
layout(std430, binding = kBindingHistogram) buffer Bins { uint bins[]; };
layout(std430, binding = kBindingHistogramParams) readonly buffer ParamsBuffer { uint params[]; };

shared uint sBins[kBevyBins];

uint binOf(vec3 rgb)
{
    const vec3 weights = vec3(uintBitsToFloat(params[kParamLumaR]), uintBitsToFloat(params[kParamLumaG]),
                              uintBitsToFloat(params[kParamLumaB]));
    const float lum = dot(rgb, weights);
    if (lum < exp2(kBevyLogMin))
        return 0u;
    const float position = clamp((log2(lum) - kBevyLogMin) / (kBevyLogMax - kBevyLogMin), 0.0, 1.0);
    return uint(position * float(kBevyBins - 2u) + 1.0);
}

void main()
{
    const uint local = gl_LocalInvocationIndex;
    if (local < kBevyBins)
        sBins[local] = 0u;
    barrier();

    const uvec2 dim = uvec2(textureSize(uFrame, 0));
    const uvec2 pixel = gl_GlobalInvocationID.xy;
    if (all(lessThan(pixel, dim))) {
        const vec2 uv = vec2(pixel) / vec2(dim);
        const vec3 rgb = texelFetch(uFrame, ivec2(pixel), 0).rgb;
        const ivec2 maskTexel = ivec2(uv * vec2(textureSize(uMask, 0)));
        const uint weight = uint(texelFetch(uMask, maskTexel, 0).r * kBevyMaskLevels);
        atomicAdd(sBins[binOf(rgb)], weight);
    }
    barrier();
    if (local < kBevyBins)
        atomicAdd(bins[local], sBins[local]);
}
