// UnrealHistogram.comp: Unreal Engine 5's legacy histogram pass, its structure (Engine/Shaders/
// Private/PostProcessHistogram.usf MainCS, group shape and loop from PostProcessHistogram.cpp)
// written anew (commands/bench/peers/UnrealPeer.h): 8x4 invocations, each with its own 64-bin float
// histogram in shared memory; a workgroup covers a 64x32 tile, each invocation stepping over it in
// 2x2 quads (x by 16, y by 16: as in the source, the quads of rows 8..15 and 24..31 of a tile are
// not visited), a quad whose far texel lies outside the image skipped; each sample splats bilinearly
// over the two bins that straddle its position, the black bin's share weighed by
// BlackHistogramBucketInfluence (0). Then 16 invocations sum the 32 histograms 4 bins each and write
// the workgroup's row, normalised by 1 / image area. Four texel fetches stand in for the gathers.
#include "shared/HostDevice.h"
#include "shared/Peers.h"

layout(local_size_x = kUnrealGroupX, local_size_y = kUnrealGroupY) in;

layout(binding = kTextureUnitInput) uniform sampler2D uHalf; // the half-resolution scene colour
layout(std430, binding = kBindingHistogramParams) readonly buffer ParamsBuffer { uint params[]; };
layout(std430, binding = kBindingScratch0) writeonly buffer Rows { vec4 rows[]; }; // 16 vec4 a row

shared float sHistogram[kUnrealBins][kUnrealGroupX][kUnrealGroupY];

void main()
{
    const uvec2 t = gl_LocalInvocationID.xy;
    for (uint i = 0u; i < kUnrealBins; ++i)
        sHistogram[i][t.x][t.y] = 0.0;
    barrier();

    const vec3 weights = vec3(uintBitsToFloat(params[kParamLumaR]), uintBitsToFloat(params[kParamLumaG]),
                              uintBitsToFloat(params[kParamLumaB]));
    const uvec2 size = uvec2(textureSize(uHalf, 0));
    const uvec2 tile = uvec2(kUnrealGroupX * kUnrealLoopX, kUnrealGroupY * kUnrealLoopY);
    const uvec2 leftTop = gl_WorkGroupID.xy * tile;
    const float scale = 1.0 / (kUnrealLogMax - kUnrealLogMin);
    const float bias = -kUnrealLogMin * scale;
    for (uint y = 0u; y < tile.y; y += kUnrealLoopY * 2u) {
        for (uint x = 0u; x < tile.x; x += kUnrealLoopX * 2u) {
            const uvec2 texel = leftTop + uvec2(x, y) + t * 2u;
            if (!all(lessThan(texel, size - 1u)))
                continue;
            const ivec2 p = ivec2(texel);
            const vec3 quad[4] = vec3[4](texelFetch(uHalf, p, 0).rgb, texelFetch(uHalf, p + ivec2(1, 0), 0).rgb,
                                         texelFetch(uHalf, p + ivec2(0, 1), 0).rgb, texelFetch(uHalf, p + 1, 0).rgb);
            for (uint i = 0u; i < 4u; ++i) {
                const float position = log2(dot(quad[i], weights)) * scale + bias;
                const float bucket = clamp(position, 0.0, 1.0) * float(kUnrealBins - 1u);
                const uint bin0 = min(uint(bucket), kUnrealBins - 1u);
                const uint bin1 = min(bin0 + 1u, kUnrealBins - 1u);
                const float weight1 = fract(bucket);
                float weight0 = 1.0 - weight1;
                if (bin0 == 0u)
                    weight0 *= kUnrealBlackBinWeight;
                sHistogram[bin0][t.x][t.y] += weight0;
                sHistogram[bin1][t.x][t.y] += weight1;
            }
        }
    }
    barrier();

    const uint index = gl_LocalInvocationIndex;
    if (index < kUnrealBins / 4u) {
        vec4 sum = vec4(0.0);
        for (uint y = 0u; y < kUnrealGroupY; ++y)
            for (uint x = 0u; x < kUnrealGroupX; ++x)
                sum += vec4(sHistogram[index * 4u][x][y], sHistogram[index * 4u + 1u][x][y],
                            sHistogram[index * 4u + 2u][x][y], sHistogram[index * 4u + 3u][x][y]);
        const uint row = gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x;
        rows[row * (kUnrealBins / 4u) + index] = sum / (float(size.x) * float(size.y));
    }
}
