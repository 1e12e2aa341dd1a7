// KubiasDepth.frag: the depth pass of Kubias et al. 2007. Each pixel's depth is 1 - t with t the
// centre of its bin, (bin + 0.5) / binCount: plane k (depth 1 - k / binCount, depth test LESS)
// then passes exactly over the pixels of bins 0..k-1 with half a bin of margin against rounding,
// so the counts match hdBinOf at every bin edge. Pixels in no bin get depth 0, which no plane
// passes; they are written rather than discarded so the result never depends on the clear.
#include "histogram/HistogramCommon.glsl"

layout(binding = kTextureUnitInput) uniform sampler2D uInput;

void main()
{
    int bin = binOfColor(texelFetch(uInput, ivec2(gl_FragCoord.xy), 0));
    gl_FragDepth = bin < 0 ? 0.0 : 1.0 - (float(bin) + 0.5) / float(paramBinCount());
}
