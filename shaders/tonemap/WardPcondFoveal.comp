// WardPcondFoveal.comp: pcond's foveal image as "pfilt -1 -b -pa 0 -x fvxr -y fvyr" makes it, one
// workgroup per output pixel: the input pixels of its box (scanline and column ranges from
// WardPcondPlan) summed in float32 in scanline order, exactly pfilt's order, so the sums are pfilt's
// bit for bit (the block is staged through shared memory 256 pixels at a time and three invocations
// add its channels serially); the mean scaled by the correctly rounded 1/count in double; then written
// as RGBE and read back as pcond reads it ((m + 0.5) 2^(e - 136)). Stores pcond's plum() of the result
// and its ln into the sample buffer (two doubles per foveal sample, row 0 first).
#include "shared/HostDevice.h"
#include "tonemap/Float64.glsl"

layout(local_size_x = 256) in;

layout(binding = kTextureUnitInput) uniform sampler2D uInput;
layout(std430, binding = kBindingScratch0) readonly buffer Boxes { int boxes[]; };
layout(std430, binding = kBindingScratch1) writeonly buffer Samples { double samples[]; };

#include "tonemap/WardPcondCommon.glsl"

layout(location = 0) uniform ivec2 uGrid;

shared float sStage[3][256];
shared float sSum[3];

// Radiance setcolr + colr_color: what storing a colour in a picture and reading it back gives.
vec3 rgbeRoundTrip(vec3 c)
{
    double d = max(max(double(c.r), double(c.g)), double(c.b));
    if (d <= packDouble2x32(uvec2(0xd5a8a733u, 0x3949f623u))) // setcolr's 1e-32, exactly
        return vec3(0.0);
    int e;
    frexp(d, e);
    double scale = ldexp(1.0LF, 8 - e); // frexp(d) * 256 / d, exactly
    uint exponentByte = uint(e + 128) & 255u;
    if (exponentByte == 0u)
        return vec3(0.0);
    double decode = ldexp(1.0LF, int(exponentByte) - 136);
    vec3 result;
    for (int k = 0; k < 3; ++k) {
        uint m = c[k] > 0.0 ? uint(double(c[k]) * scale) : 0u;
        result[k] = float((double(m) + 0.5LF) * decode);
    }
    return result;
}

void main()
{
    uint tid = gl_LocalInvocationIndex;
    ivec2 cell = ivec2(gl_WorkGroupID.xy);
    int y0 = boxes[2 * cell.y];
    int y1 = boxes[2 * cell.y + 1];
    int x0 = boxes[2 * uGrid.y + 2 * cell.x];
    int x1 = boxes[2 * uGrid.y + 2 * cell.x + 1];
    int w = x1 - x0;
    int count = w * (y1 - y0);
    precise float sum = 0.0;
    for (int base = 0; base < count; base += 256) {
        int j = base + int(tid);
        if (j < count) {
            vec3 rgb = pcondPixel(x0 + j % w, y0 + j / w);
            sStage[0][tid] = rgb.r;
            sStage[1][tid] = rgb.g;
            sStage[2][tid] = rgb.b;
        }
        barrier();
        if (tid < 3u) {
            int n = min(256, count - base);
            for (int i = 0; i < n; ++i)
                sum = sum + sStage[tid][i];
        }
        barrier();
    }
    if (tid < 3u)
        sSum[tid] = sum;
    barrier();
    if (tid != 0u)
        return;
    vec3 mean = vec3(sSum[0], sSum[1], sSum[2]);
    if (count > 1) {
        double d = f64Divide(1.0LF, double(count));
        mean = vec3(float(double(mean.r) * d), float(double(mean.g) * d), float(double(mean.b) * d));
    }
    vec3 stored = rgbeRoundTrip(mean);
    double L = pcondLuminance(stored);
    uint index = uint(cell.y * uGrid.x + cell.x);
    samples[2u * index] = L;
    samples[2u * index + 1u] = pcondLog(L);
}
