// GridBlur.comp: the bilateral local exposure's blurred luminance, made from the grid (one workgroup):
// 1. per tile, the pixel count N and the sum of positions P over its 32 cells (the tile's mean log2 L
//    is P / N: a 64 x 64 box of log2 L), and the frame's totals (the frame's mean log2 L: mid for
//    operators whose curve carries no exposure);
// 2. a Gaussian over the tiles (sigma from local_exposure.kernel_size_percent: its +-3 sigma spans that
//    share of the view's width; taps at tile centres, indices mirrored at the borders), separable,
//    horizontal then vertical, on (N, P) together: the blurred value is the count-weighted Gaussian
//    mean sum(g N m) / sum(g N), so empty tiles (every pixel NaN or black) weigh nothing;
// 3. per tile its blurred log2 L into the blur buffer (tiles with no counted pixel within reach: the
//    frame's mean). The apply pass interpolates it bilinearly between tile centres.
// Every sum in float, in a fixed order (deterministic); ref::localExposureBlur computes it in double.
#include "shared/HostDevice.h"
#include "shared/LocalExposure.h"

layout(local_size_x = 256) in;
layout(std430, binding = kBindingHistogramParams) readonly buffer Params { uint params[]; };
layout(std430, binding = kBindingLocalExposureGrid) readonly buffer Grid { uint grid[]; };
layout(std430, binding = kBindingLocalExposureBlur) coherent buffer Blur { float blur[]; };
layout(location = 0) uniform ivec2 uTiles;
layout(location = 1) uniform float uSigmaTiles;

shared float sCount[256];
shared float sPosition[256];

void main()
{
    const uint local = gl_LocalInvocationIndex;
    const int tiles = uTiles.x * uTiles.y;
    const uint scratchA = kLocalExposureBlurHeaderWords + uint(tiles);  // per tile N, P
    const uint scratchB = scratchA + 2u * uint(tiles);                  // horizontal pass: N, P
    float count = 0.0;
    float position = 0.0;
    for (int t = int(local); t < tiles; t += 256) {
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
        count += n;
        position += p;
    }
    sCount[local] = count;
    sPosition[local] = position;
    memoryBarrierBuffer();
    barrier();
    for (uint stride = 128u; stride > 0u; stride >>= 1u) {
        if (local < stride) {
            sCount[local] += sCount[local + stride];
            sPosition[local] += sPosition[local + stride];
        }
        barrier();
    }
    const float logMin = uintBitsToFloat(params[kParamLogMin]);
    const float scale = hdBinScale(logMin, uintBitsToFloat(params[kParamLogMax]), kLocalExposureBins);
    const float inverseScale = scale > 0.0 ? 1.0 / scale : 0.0;
    const float frameMean = sCount[0] > 0.0 ? logMin + sPosition[0] / sCount[0] * inverseScale : logMin;
    if (local == 0u) {
        blur[kLocalExposureFrameMean] = frameMean;
        blur[kLocalExposureFrameCount] = sCount[0];
    }
    const int radius = min(int(ceil(3.0 * uSigmaTiles)), 1024);
    const float inverseTwoSigma2 = uSigmaTiles > 0.0 ? 0.5 / (uSigmaTiles * uSigmaTiles) : 0.0;
    for (int pass = 0; pass < 2; ++pass) {
        const uint from = pass == 0 ? scratchA : scratchB;
        for (int t = int(local); t < tiles; t += 256) {
            const ivec2 at = ivec2(t % uTiles.x, t / uTiles.x);
            float n = 0.0;
            float p = 0.0;
            for (int d = -radius; d <= radius; ++d) {
                const float g = radius == 0 ? 1.0 : exp(-float(d * d) * inverseTwoSigma2);
                const ivec2 other = pass == 0 ? ivec2(hdLocalExposureMirror(at.x + d, uTiles.x), at.y)
                                              : ivec2(at.x, hdLocalExposureMirror(at.y + d, uTiles.y));
                const uint word = from + 2u * uint(other.y * uTiles.x + other.x);
                n += g * blur[word];
                p += g * blur[word + 1u];
            }
            if (pass == 0) {
                blur[scratchB + 2u * uint(t)] = n;
                blur[scratchB + 2u * uint(t) + 1u] = p;
            } else {
                blur[kLocalExposureBlurHeaderWords + uint(t)] = n > 0.0 ? logMin + p / n * inverseScale : frameMean;
            }
        }
        memoryBarrierBuffer();
        barrier();
    }
}
