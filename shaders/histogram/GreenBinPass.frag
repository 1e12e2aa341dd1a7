// GreenBinPass.frag: one pass of Green's occlusion-query histogram (GDC 2005). The fragment under
// each pixel survives only if the pixel's bin code (hdBinOf, computed once per frame by
// BinCodes.frag) equals this pass's target code (a bin, or a negative no-bin code for the
// counters); a GL_SAMPLES_PASSED query around the pass counts the survivors.
#include "shared/HostDevice.h"

layout(binding = kTextureUnitAux) uniform isampler2D uCodes;
layout(location = 0) uniform int uTargetCode;

void main()
{
    if (texelFetch(uCodes, ivec2(gl_FragCoord.xy), 0).r != uTargetCode)
        discard;
}
