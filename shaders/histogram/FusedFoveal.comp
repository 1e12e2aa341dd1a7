// FusedFoveal.comp: the finishing pass of the "fused-lighting" method's foveal sums: one invocation
// per foveal block adds the partial sums the lighting pass left for it (FusedLighting.glsl: a vec4 of
// finite RGB sum and pixel count per (8x8 tile, block slot)) over the tiles the block overlaps, in tile
// order, and stores WardFoveal.comp's sample: the mean of the block's finite pixels times the scene
// scale, NaN where none is finite. Blocks are WardFoveal.comp's [x w/gw, (x+1) w/gw) x [...]. It reads
// 16 bytes per (tile, block it touches): at most 1 byte per frame pixel (2x2 blocks per tile), about
// half of that for Ward's blocks at 4K, instead of the frame's 8 or 16.
#include "shared/HostDevice.h"

layout(local_size_x = 8, local_size_y = 8) in;

layout(std430, binding = kBindingScratch0) readonly buffer FovealSums { vec4 fovealSums[]; };
layout(binding = kImageUnitOutput, rgba32f) writeonly uniform image2D uFoveal;
layout(location = 0) uniform ivec2 uFrameSize;
layout(location = 1) uniform ivec4 uGridAndSpan; // grid xy, slots per tile xy
layout(location = 2) uniform float uSceneScale;

void main()
{
    const ivec2 cell = ivec2(gl_GlobalInvocationID.xy);
    const ivec2 grid = uGridAndSpan.xy;
    const ivec2 span = uGridAndSpan.zw;
    if (any(greaterThanEqual(cell, grid)))
        return;
    const int tile = int(kFusedTileSize);
    const ivec2 lo = cell * uFrameSize / grid;
    const ivec2 hi = (cell + 1) * uFrameSize / grid; // exclusive; at least one pixel (grid <= frame)
    const int tilesX = (uFrameSize.x + tile - 1) / tile;
    vec4 sum = vec4(0.0);
    for (int ty = lo.y / tile; ty <= (hi.y - 1) / tile; ++ty) {
        const int slotY = cell.y - hdFovealBlockOf(ty * tile, uFrameSize.y, grid.y);
        for (int tx = lo.x / tile; tx <= (hi.x - 1) / tile; ++tx) {
            const int slotX = cell.x - hdFovealBlockOf(tx * tile, uFrameSize.x, grid.x);
            sum += fovealSums[(ty * tilesX + tx) * span.x * span.y + slotY * span.x + slotX];
        }
    }
    imageStore(uFoveal, cell,
               sum.w > 0.0 ? vec4(sum.rgb / sum.w * uSceneScale, 1.0) : vec4(uintBitsToFloat(0x7fc00000u)));
}
