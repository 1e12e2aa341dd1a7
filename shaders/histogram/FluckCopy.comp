// FluckCopy.comp: copies the single remaining tile (the global histogram, bin j at texel
// (j mod uTile, j / uTile)) into the histogram buffer as uint counts.
#include "shared/HostDevice.h"

layout(local_size_x = 256) in;

#ifdef OUTPUT_FLOAT
layout(binding = kTextureUnitAux) uniform sampler2D uTotal;
#else
layout(binding = kTextureUnitAux) uniform usampler2D uTotal;
#endif
layout(std430, binding = kBindingHistogram) buffer HistogramBuffer { uint histogram[]; };
layout(location = 0) uniform int uTile;
layout(location = 1) uniform uint uBinCount;

void main()
{
    uint bin = gl_GlobalInvocationID.x;
    if (bin >= uBinCount)
        return;
    ivec2 texel = ivec2(int(bin) % uTile, int(bin) / uTile);
#ifdef OUTPUT_FLOAT
    histogram[bin] = uint(texelFetch(uTotal, texel, 0).r + 0.5);
#else
    histogram[bin] = texelFetch(uTotal, texel, 0).r;
#endif
}
