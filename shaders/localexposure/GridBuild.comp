// GridBuild.comp: the bilateral local exposure's grid in a pass of its own (local_exposure.structure
// separate, and the fallback where the histogram pass cannot build it), as Unreal Engine 5 builds its
// bilateral grid: one workgroup per 64 x 64 tile, 16 pixels an invocation (4 loads in flight, twice),
// each pixel added to its bin's shared count and position sum (shared/LocalExposure.h), then the
// tile's 32 cells written to the grid (no clear, no global atomics: the workgroup owns its tile).
#include "shared/HostDevice.h"
#include "shared/LocalExposure.h"

layout(local_size_x = 32, local_size_y = 8) in;
layout(binding = kTextureUnitInput) uniform sampler2D uInput;
layout(std430, binding = kBindingHistogramParams) readonly buffer Params { uint params[]; };
layout(std430, binding = kBindingLocalExposureGrid) writeonly buffer Grid { uint grid[]; };
layout(location = 0) uniform ivec2 uSize;

shared uint sCount[kLocalExposureBins];
shared uint sSum[kLocalExposureBins];

void main()
{
    const uint local = gl_LocalInvocationIndex;
    if (local < kLocalExposureBins) {
        sCount[local] = 0u;
        sSum[local] = 0u;
    }
    barrier();
    const float logMin = uintBitsToFloat(params[kParamLogMin]);
    const float scale = hdBinScale(logMin, uintBitsToFloat(params[kParamLogMax]), kLocalExposureBins);
    const vec3 weights = vec3(uintBitsToFloat(params[kParamLumaR]), uintBitsToFloat(params[kParamLumaG]),
                              uintBitsToFloat(params[kParamLumaB]));
    const ivec2 origin = ivec2(gl_WorkGroupID.xy) * kLocalExposureTile;
    for (int column = 0; column < 2; ++column) {
        vec3 texel[4];
        ivec2 at[4];
        for (int k = 0; k < 4; ++k) {
            at[k] = origin + ivec2(int(gl_LocalInvocationID.x) + 32 * column,
                                   int(gl_LocalInvocationID.y) + 8 * k);
            texel[k] = vec3(0.0);
        }
        for (int row = 0; row < 2; ++row) {
            for (int k = 0; k < 4; ++k) {
                const ivec2 p = at[k] + ivec2(0, 32 * row);
                texel[k] = all(lessThan(p, uSize)) ? texelFetch(uInput, p, 0).rgb : vec3(0.0);
            }
            for (int k = 0; k < 4; ++k) {
                const ivec2 p = at[k] + ivec2(0, 32 * row);
                if (!all(lessThan(p, uSize)))
                    continue;
                const int code = hdLocalExposureCode(
                    hdLuminanceWeighted(texel[k].r, texel[k].g, texel[k].b, weights.x, weights.y, weights.z),
                    logMin, scale);
                if (code >= 0) {
                    atomicAdd(sCount[uint(code) >> 11u], 1u);
                    atomicAdd(sSum[uint(code) >> 11u], uint(code) & 2047u);
                }
            }
        }
    }
    barrier();
    if (local < kLocalExposureBins) {
        const uint tilesX = gl_NumWorkGroups.x;
        const uint cell = (gl_WorkGroupID.y * tilesX + gl_WorkGroupID.x) * kLocalExposureBins + local;
        grid[cell * 2u] = sCount[local];
        grid[cell * 2u + 1u] = sSum[local];
    }
}
