// FluckLocal.frag: the local-histogram gather pass of Fluck et al. 2006. The output is split into
// uTile x uTile tiles, one per uTile x uTile block of the image; texel (i, j) of a tile stands for
// bin j * uTile + i and counts, by gathering every pixel of its image block, the pixels in that bin.
#include "shared/HostDevice.h"

layout(binding = kTextureUnitAux) uniform isampler2D uCodes;
layout(location = 0) uniform ivec2 uImageSize;
layout(location = 1) uniform int uTile;
layout(location = 2) uniform int uBinCount;
#ifdef OUTPUT_FLOAT
layout(location = 0) out float oCount;
#else
layout(location = 0) out uint oCount;
#endif

void main()
{
    ivec2 texel = ivec2(gl_FragCoord.xy);
    ivec2 tile = texel / uTile;
    ivec2 inTile = texel - tile * uTile;
    int bin = inTile.y * uTile + inTile.x;
    uint count = 0u;
    if (bin < uBinCount) {
        ivec2 begin = tile * uTile;
        ivec2 end = min(begin + ivec2(uTile), uImageSize);
        for (int y = begin.y; y < end.y; ++y)
            for (int x = begin.x; x < end.x; ++x)
                count += texelFetch(uCodes, ivec2(x, y), 0).r == bin ? 1u : 0u;
    }
#ifdef OUTPUT_FLOAT
    oCount = float(count);
#else
    oCount = count;
#endif
}
