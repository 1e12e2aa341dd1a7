// Probe.comp: the bilateral local exposure's terms at up to kMaxProbes texels (the pixel probe's,
// --probe), with the apply pass's own arithmetic (LocalExposureApply.glsl): per probe
// kLocalExposureProbeWords floats: valid, log2 L, bilateral base, blurred, base, mid, local exposure EV.
#ifndef LOCAL_EXPOSURE
#define LOCAL_EXPOSURE 1 // 2: fusion (its map sampled; log2 L and the exposure only)
#endif
#include "shared/HostDevice.h"

layout(local_size_x = 8) in; // == kMaxProbes
layout(std430, binding = kBindingHistogramParams) readonly buffer Params { uint params[]; };
layout(std430, binding = kBindingCurve) readonly buffer CurveBuffer { float curve[]; };
layout(std430, binding = kBindingScratch0) writeonly buffer Records { float records[]; };
layout(binding = kTextureUnitInput) uniform sampler2D uInput;
layout(binding = kImageUnitOutput, rgba8) writeonly uniform image2D uOutput; // the hook's (never written here)
layout(location = 0) uniform ivec2 uSize;
layout(location = 1) uniform int uCount;
layout(location = 2) uniform ivec2 uTexels[kMaxProbes];

#include "tonemap/CurveLookup.glsl"
#include "localexposure/LocalExposureApply.glsl"

void main()
{
    const int index = int(gl_LocalInvocationID.x);
    if (index >= uCount)
        return;
    const ivec2 texel = uTexels[index];
    const bool inside = all(greaterThanEqual(texel, ivec2(0))) && all(lessThan(texel, uSize));
    const vec3 rgb = inside ? texelFetch(uInput, texel, 0).rgb : vec3(0.0);
    const float L = hdLuminanceWeighted(rgb.r, rgb.g, rgb.b, uintBitsToFloat(params[kParamLumaR]),
                                        uintBitsToFloat(params[kParamLumaG]), uintBitsToFloat(params[kParamLumaB]));
    LocalExposureTerms t = localExposureTerms(texel, inside ? L : uintBitsToFloat(0x7fc00000u), curve[kCurveScale]);
    const uint at = uint(index) * kLocalExposureProbeWords;
    records[at] = t.valid ? 1.0 : 0.0;
    records[at + 1u] = t.logL;
    records[at + 2u] = t.bilateral;
    records[at + 3u] = t.blurred;
    records[at + 4u] = t.base;
    records[at + 5u] = t.mid;
    records[at + 6u] = t.ev;
    records[at + 7u] = float(LOCAL_EXPOSURE);
}
