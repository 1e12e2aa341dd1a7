// WardRange.comp: pcond comphist's range and log-average on the foveal samples, one workgroup.
// lwmax = min(1.01 max, LMAX); lwmin < LMIN -> LMIN, else (bottom-bin duplication on) bwmin is
// extended by one bin, bwmin = bwmax - (bwmax - ln lwmin) n / (n - 1). Writes the Ward histogram's
// params (log2 range, bins, the separate out-of-range policy so samples outside [lwmin, lwmax) are
// skipped as pcond skips them) and the state words (bwmin, bwmax, bwavg = mean ln Lw of the counted
// samples, duplication flag). Non-finite samples are ignored.
#include "shared/HostDevice.h"

layout(local_size_x = 256) in;

layout(binding = kTextureUnitInput) uniform sampler2D uFoveal;
layout(std430, binding = kBindingHistogramParams) writeonly buffer Params { uint params[]; };
layout(std430, binding = kBindingOperatorState) buffer State { float state[]; };
layout(location = 0) uniform ivec2 uGridSize;
layout(location = 1) uniform uint uBins;
layout(location = 2) uniform uint uDuplicate;

const float kLmin = WARD_LMIN;
const float kLmax = WARD_LMAX;
const float kLn2 = 0.69314718056;

shared float sA[256];
shared float sB[256];
shared float sLwmin;
shared float sLwmax;

#define SYNC() memoryBarrierShared(); barrier()

float luminanceAt(uint index)
{
    ivec2 p = ivec2(int(index % uint(uGridSize.x)), int(index / uint(uGridSize.x)));
    vec3 rgb = texelFetch(uFoveal, p, 0).rgb;
    return hdLuminance(rgb.r, rgb.g, rgb.b);
}

void main()
{
    uint tid = gl_LocalInvocationID.x;
    uint count = uint(uGridSize.x * uGridSize.y);
    float lmin = 3.0e38;
    float lmax = -3.0e38;
    for (uint i = tid; i < count; i += 256u) {
        float L = luminanceAt(i);
        if (isnan(L) || isinf(L))
            continue;
        L = max(L, 0.0);
        lmin = min(lmin, L);
        lmax = max(lmax, L);
    }
    sA[tid] = lmin;
    sB[tid] = lmax;
    SYNC();
    for (uint s = 128u; s > 0u; s >>= 1u) {
        if (tid < s) {
            sA[tid] = min(sA[tid], sA[tid + s]);
            sB[tid] = max(sB[tid], sB[tid + s]);
        }
        SYNC();
    }
    if (tid == 0u) {
        float lwmin = sA[0];
        float lwmax = min(sB[0] * 1.01, kLmax);
        bool valid = lwmax > kLmin;
        float bwmax = log(max(lwmax, kLmin));
        float bwmin = log(kLmin);
        bool duplicated = false;
        if (lwmin < kLmin) {
            lwmin = kLmin;
        } else if (uDuplicate != 0u) {
            bwmin = bwmax - (bwmax - log(lwmin)) * float(uBins) / float(uBins - 1u);
            lwmin = exp(bwmin);
            duplicated = true;
        } else {
            bwmin = log(lwmin);
        }
        if (!valid) { // nothing above LMIN: an empty histogram over a harmless range
            bwmin = log(kLmin);
            bwmax = bwmin + 1.0;
            lwmin = kLmin;
            lwmax = exp(bwmax);
        }
        sLwmin = lwmin;
        sLwmax = valid ? lwmax : 0.0;
        params[kParamLogMin] = floatBitsToUint(bwmin / kLn2);
        params[kParamLogMax] = floatBitsToUint(bwmax / kLn2);
        params[kParamBinCount] = uBins;
        params[kParamOutOfRange] = kOutOfRangeSeparate;
        params[kParamWidth] = uint(uGridSize.x);
        params[kParamHeight] = uint(uGridSize.y);
        state[WARD_BWMIN] = bwmin;
        state[WARD_BWMAX] = bwmax;
        state[WARD_RANGE_VALID] = valid ? 1.0 : 0.0;
        state[WARD_DUPLICATED] = duplicated ? 1.0 : 0.0;
        state[WARD_GRID_W] = float(uGridSize.x);
        state[WARD_GRID_H] = float(uGridSize.y);
    }
    SYNC();
    float lwmin = sLwmin;
    float lwmax = sLwmax;
    float sumLog = 0.0;
    float counted = 0.0;
    for (uint i = tid; i < count; i += 256u) {
        float L = luminanceAt(i);
        if (isnan(L) || isinf(L) || L < lwmin || L >= lwmax)
            continue;
        sumLog += log(L);
        counted += 1.0;
    }
    sA[tid] = sumLog;
    sB[tid] = counted;
    SYNC();
    for (uint s = 128u; s > 0u; s >>= 1u) {
        if (tid < s) {
            sA[tid] += sA[tid + s];
            sB[tid] += sB[tid + s];
        }
        SYNC();
    }
    if (tid == 0u) {
        state[WARD_SAMPLES] = sB[0];
        state[WARD_BWAVG] = sB[0] > 0.0 ? sA[0] / sB[0] : 0.0;
    }
}
