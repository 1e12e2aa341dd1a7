// FluckReduce.frag: one texture-reduce pass of Fluck et al. 2006. The output has half as many
// tiles in each direction (rounded up); each output texel sums the same in-tile texel (the same
// bin) of the up to 2 x 2 source tiles it covers, so after O(log N) passes one tile remains: the
// global histogram.
#include "shared/HostDevice.h"

#ifdef OUTPUT_FLOAT
layout(binding = kTextureUnitAux) uniform sampler2D uSource;
layout(location = 0) out float oCount;
#else
layout(binding = kTextureUnitAux) uniform usampler2D uSource;
layout(location = 0) out uint oCount;
#endif
layout(location = 0) uniform ivec2 uSourceTiles;
layout(location = 1) uniform int uTile;

void main()
{
    ivec2 texel = ivec2(gl_FragCoord.xy);
    ivec2 tile = texel / uTile;
    ivec2 inTile = texel - tile * uTile;
#ifdef OUTPUT_FLOAT
    float sum = 0.0;
#else
    uint sum = 0u;
#endif
    for (int dy = 0; dy < 2; ++dy)
        for (int dx = 0; dx < 2; ++dx) {
            ivec2 source = tile * 2 + ivec2(dx, dy);
            if (all(lessThan(source, uSourceTiles)))
                sum += texelFetch(uSource, source * uTile + inTile, 0).r;
        }
    oCount = sum;
}
