// GridBlur.comp: the bilateral local exposure's blurred luminance, made from the grid in three
// dispatches of one invocation per tile (uStage; BilateralLocalExposure::blur). It was one workgroup
// doing every tile in turn: 227 us at 4K on the H200 (docs/PERF.md), a serial pass.
// Stage 0: per tile, the pixel count N and the sum of positions P over its 32 cells (the tile's mean
//    log2 L is P / N: a 64 x 64 box of log2 L).
// Stage 1: a Gaussian over the tiles, horizontal (sigma from local_exposure.kernel_size_percent: its
//    +-3 sigma spans that share of the view's width; taps at tile centres, indices mirrored at the
//    borders), on (N, P) together.
// Stage 2: the same vertically; the blurred value is the count-weighted Gaussian mean
//    sum(g N m) / sum(g N), so empty tiles (every pixel NaN or black) weigh nothing; per tile its
//    blurred log2 L into the blur buffer (tiles with no counted pixel within reach: the frame's mean).
//    Every workgroup also sums the tiles' (N, P) for the frame's mean log2 L (mid for operators whose
//    curve carries no exposure; workgroup 0 stores it): 2040 tiles at 4K, eight loads an invocation.
// The apply pass interpolates the result bilinearly between tile centres. Every sum in float, in a
// fixed order (deterministic); ref::localExposureBlur computes it in double.
#include "shared/HostDevice.h"
#include "shared/LocalExposure.h"

layout(local_size_x = 256) in;
layout(std430, binding = kBindingHistogramParams) readonly buffer Params { uint params[]; };
layout(std430, binding = kBindingLocalExposureGrid) readonly buffer Grid { uint grid[]; };
layout(std430, binding = kBindingLocalExposureBlur) buffer Blur { float blur[]; };
layout(location = 0) uniform ivec2 uTiles;
layout(location = 1) uniform float uSigmaTiles;
layout(location = 2) uniform int uStage; // 0 per-tile sums, 1 horizontal, 2 vertical (see above)

shared float sCount[256];
shared float sPosition[256];

void tileSums(int t, uint scratchA)
{
    float n = 0.0;
    float binSum = 0.0;
    float qSum = 0.0;
    for (uint b = 0u; b < kLocalExposureBins; ++b) {
        const uint cell = (uint(t) * kLocalExposureBins + b) * 2u;
        const float c = float(grid[cell]);
        n += c;
        binSum += c * float(b);
        qSum += float(grid[cell + 1u]);
    }
    const float p = n > 0.0 ? binSum + (qSum + 0.5 * n) / kLocalExposureFractionSteps : 0.0;
    blur[scratchA + 2u * uint(t)] = n;
    blur[scratchA + 2u * uint(t) + 1u] = p;
}

// The frame's mean log2 L from every tile's (N, P), summed in a fixed order.
float frameMeanOf(uint local, int tiles, uint scratchA, float logMin, float inverseScale)
{
    float count = 0.0;
    float position = 0.0;
    for (int t = int(local); t < tiles; t += 256) {
        count += blur[scratchA + 2u * uint(t)];
        position += blur[scratchA + 2u * uint(t) + 1u];
    }
    sCount[local] = count;
    sPosition[local] = position;
    barrier();
    for (uint stride = 128u; stride > 0u; stride >>= 1u) {
        if (local < stride) {
            sCount[local] += sCount[local + stride];
            sPosition[local] += sPosition[local + stride];
        }
        barrier();
    }
    const float frameMean = sCount[0] > 0.0 ? logMin + sPosition[0] / sCount[0] * inverseScale : logMin;
    if (local == 0u && gl_WorkGroupID.x == 0u) {
        blur[kLocalExposureFrameMean] = frameMean;
        blur[kLocalExposureFrameCount] = sCount[0];
    }
    return frameMean;
}

void main()
{
    const uint local = gl_LocalInvocationIndex;
    const int t = int(gl_GlobalInvocationID.x);
    const int tiles = uTiles.x * uTiles.y;
    const uint scratchA = kLocalExposureBlurHeaderWords + uint(tiles);  // per tile N, P
    const uint scratchB = scratchA + 2u * uint(tiles);                  // horizontal pass: N, P
    if (uStage == 0) {
        if (t < tiles)
            tileSums(t, scratchA);
        return;
    }
    const float logMin = uintBitsToFloat(params[kParamLogMin]);
    const float scale = hdBinScale(logMin, uintBitsToFloat(params[kParamLogMax]), kLocalExposureBins);
    const float inverseScale = scale > 0.0 ? 1.0 / scale : 0.0;
    // Uniform control flow up to here: the reduction's barriers are reached by the whole workgroup.
    const float frameMean = uStage == 2 ? frameMeanOf(local, tiles, scratchA, logMin, inverseScale) : 0.0;
    if (t >= tiles)
        return;
    const int radius = min(int(ceil(3.0 * uSigmaTiles)), 1024);
    const float inverseTwoSigma2 = uSigmaTiles > 0.0 ? 0.5 / (uSigmaTiles * uSigmaTiles) : 0.0;
    const bool horizontal = uStage == 1;
    const uint from = horizontal ? scratchA : scratchB;
    const ivec2 at = ivec2(t % uTiles.x, t / uTiles.x);
    float n = 0.0;
    float p = 0.0;
    for (int d = -radius; d <= radius; ++d) {
        const float g = radius == 0 ? 1.0 : exp(-float(d * d) * inverseTwoSigma2);
        const ivec2 other = horizontal ? ivec2(hdLocalExposureMirror(at.x + d, uTiles.x), at.y)
                                       : ivec2(at.x, hdLocalExposureMirror(at.y + d, uTiles.y));
        const uint word = from + 2u * uint(other.y * uTiles.x + other.x);
        n += g * blur[word];
        p += g * blur[word + 1u];
    }
    if (horizontal) {
        blur[scratchB + 2u * uint(t)] = n;
        blur[scratchB + 2u * uint(t) + 1u] = p;
    } else {
        blur[kLocalExposureBlurHeaderWords + uint(t)] = n > 0.0 ? logMin + p / n * inverseScale : frameMean;
    }
}
