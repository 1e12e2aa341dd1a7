// hensley-sat, one pass: recursive doubling over a one-row R32UI texture (Hensley, Scheuermann,
// Coombe, Singh & Lastra 2005, the horizontal phase of their summed-area table with two samples
// per pass). Pass i (uOffset = 2^i) writes, for every texel x, source[x] + source[x - 2^i] (the
// second term only where x >= 2^i); after ceil(log2 n) passes texel x holds the inclusive prefix
// sum of texels 0..x. Integer texels and uint arithmetic keep it exact (wrapping mod 2^32 like the
// CPU reference).
#include "shared/HostDevice.h"

layout(binding = kTextureUnitAux) uniform usampler2D uSource;
layout(location = 0) uniform int uOffset;
layout(location = 0) out uint oPrefix;

void main()
{
    const int x = int(gl_FragCoord.x);
    uint sum = texelFetch(uSource, ivec2(x, 0), 0).r;
    if (x >= uOffset)
        sum += texelFetch(uSource, ivec2(x - uOffset, 0), 0).r;
    oPrefix = sum;
}
