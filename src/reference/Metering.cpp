#include "reference/Metering.h"

#include "shared/HostDevice.h"

#include <algorithm>
#include <cmath>

namespace ref {

namespace {

float centreWeight(float px, float py, float width, float height)
{
    const float dx = px - 0.5f * width;
    const float dy = py - 0.5f * height;
    return std::clamp(1.0f - std::sqrt(dx * dx + dy * dy) / (0.5f * (width + height)), 0.0f, 1.0f);
}

float ellipseWeight(const post::MeteringSettings& s, float px, float py, float width, float height, float luminance)
{
    const float low = std::exp2(s.gateMinEv);
    const float high = std::exp2(s.gateMaxEv);
    if (!(luminance > low && luminance < high))
        return 0.0f;
    const float dx = (px - s.centreX * width) / (s.radiusX * width);
    const float dy = (py - s.centreY * height) / (s.radiusY * height);
    const float t = std::sqrt(dx * dx + dy * dy);
    return std::clamp(1.0f - std::pow(t, 1.0f / s.softness), 0.0f, 1.0f);
}

}  // namespace

float meteringWeight(const post::MeteringSettings& s, const MeteringScene& scene, int x, int y, float luminance)
{
    if (s.excludeSky && scene.depth) {
        const int dx = hd::hdNearestTexel(x, scene.width, scene.depthWidth);
        const int dy = hd::hdNearestTexel(y, scene.height, scene.depthHeight);
        if (scene.depth[std::size_t(dy) * std::size_t(scene.depthWidth) + std::size_t(dx)] >= 1.0f)
            return 0.0f;
    }
    const int row = scene.topDownRows ? y : scene.height - 1 - y;
    const float px = float(x) + 0.5f;
    const float py = float(row) + 0.5f;
    const float width = float(scene.width);
    const float height = float(scene.height);
    switch (s.mask) {
        case post::MeteringMaskType::Average:
            return 1.0f;
        case post::MeteringMaskType::CentreWeighted:
            return centreWeight(px, py, width, height);
        case post::MeteringMaskType::Ellipse:
            return ellipseWeight(s, px, py, width, height, luminance);
        case post::MeteringMaskType::Texture: {
            if (!scene.maskValues)
                return 1.0f;  // no texture: the whole frame, as the operator does
            const int mx = hd::hdNearestTexel(x, scene.width, scene.maskWidth);
            const int my = hd::hdNearestTexel(row, scene.height, scene.maskHeight);
            return scene.maskValues[std::size_t(my) * std::size_t(scene.maskWidth) + std::size_t(mx)];
        }
    }
    return 1.0f;
}

std::uint32_t meteringWeightQuantised(const post::MeteringSettings& settings,
                                      const MeteringScene& scene,
                                      int x,
                                      int y,
                                      float luminance)
{
    return hd::hdQuantiseMeteringWeight(meteringWeight(settings, scene, x, y, luminance));
}

WeightedHistogram weightedHistogram(const float* rgba,
                                    const post::MeteringSettings& settings,
                                    const MeteringScene& scene,
                                    float logMin,
                                    float logMax,
                                    std::uint32_t binCount,
                                    std::uint32_t outOfRange)
{
    WeightedHistogram out;
    out.bins.assign(binCount, 0);
    out.pixels.assign(binCount, 0);
    for (int y = 0; y < scene.height; ++y)
        for (int x = 0; x < scene.width; ++x) {
            const float* p = rgba + (std::size_t(y) * std::size_t(scene.width) + std::size_t(x)) * 4;
            const float luminance = hd::hdLuminance(p[0], p[1], p[2], scene.luminance);
            const int bin = hd::hdBinOf(luminance, logMin, logMax, binCount, outOfRange);
            if (bin < 0)
                continue;
            out.bins[std::size_t(bin)] += meteringWeightQuantised(settings, scene, x, y, luminance);
            out.pixels[std::size_t(bin)] += 1;
        }
    for (std::uint64_t b : out.bins)
        out.total += b;
    out.cdf = normalisedCdf(out.bins);
    return out;
}

std::vector<std::uint32_t> normalisedCdf(const std::vector<std::uint64_t>& bins)
{
    std::uint64_t total = 0;
    for (std::uint64_t b : bins)
        total += b;
    std::vector<std::uint32_t> cdf(bins.size(), 0u);
    std::uint64_t running = 0;
    for (std::size_t i = 0; i < bins.size(); ++i) {
        running += bins[i];
        if (total > 0)
            cdf[i] = std::uint32_t(std::floor(double(running) * double(hd::kMeteringCdfTotal) / double(total) + 0.5));
    }
    return cdf;
}

std::array<std::uint8_t, 4> meteringViewPixel(const std::uint8_t* toned, std::uint32_t q)
{
    std::array<std::uint8_t, 4> out{0, 0, 0, 255};
    const float tint[3] = {0.1f, 0.3f, 1.0f};
    for (int c = 0; c < 3; ++c) {
        const float value = float(toned[c]) / 255.0f;
        const float shown = q == 0u ? 0.5f * (value * 0.25f) + 0.5f * tint[c]
                                    : value * (0.25f + 0.75f * (float(q) / hd::kMeteringWeightScale));
        out[std::size_t(c)] = std::uint8_t(std::lround(std::clamp(shown, 0.0f, 1.0f) * 255.0f));
    }
    return out;
}

}  // namespace ref
