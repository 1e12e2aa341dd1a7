// PeerMeteringRef.cpp: see PeerMeteringRef.h. One section per engine, each mirroring its shaders.
#include "reference/PeerMeteringRef.h"

#include "shared/Peers.h"

#include <glm/gtc/packing.hpp>

#include <algorithm>
#include <cmath>

namespace ref {

namespace {

float luminanceOf(const PeerFrame& frame, const float* texel)
{
    return texel[0] * frame.weights[0] + texel[1] * frame.weights[1] + texel[2] * frame.weights[2];
}

const float* texelAt(const PeerFrame& frame, int x, int y)
{
    return frame.rgba + (std::size_t(y) * std::size_t(frame.width) + std::size_t(x)) * 4;
}

float clamp01(float value)
{
    return std::clamp(value, 0.0f, 1.0f);
}

}  // namespace

// ---- Bevy (BevyHistogram.comp, BevyAverage.comp) ------------------------------------------------

std::vector<std::uint32_t> bevyHistogram(const PeerFrame& frame)
{
    std::vector<std::uint32_t> bins(hd::kBevyBins, 0u);
    const std::uint32_t weight = std::uint32_t(1.0f * hd::kBevyMaskLevels);  // the white mask
    for (int y = 0; y < frame.height; ++y)
        for (int x = 0; x < frame.width; ++x) {
            const float lum = luminanceOf(frame, texelAt(frame, x, y));
            std::uint32_t bin = 0;
            if (!(lum < std::exp2(hd::kBevyLogMin))) {
                const float position =
                    clamp01((std::log2(lum) - hd::kBevyLogMin) / (hd::kBevyLogMax - hd::kBevyLogMin));
                bin = std::uint32_t(position * float(hd::kBevyBins - 2u) + 1.0f);
            }
            bins[bin] += weight;
        }
    return bins;
}

PeerResult bevyMetering(const PeerFrame& frame, const PeerAdaptation& adaptation)
{
    const std::vector<std::uint32_t> bins = bevyHistogram(frame);
    std::vector<std::uint32_t> cumulative(bins.size());
    std::uint32_t total = 0;
    for (std::size_t i = 0; i < bins.size(); ++i)
        cumulative[i] = total += bins[i];
    const auto first = std::uint32_t(float(total) * hd::kBevyLowPercent);
    const auto last = std::uint32_t(float(total) * hd::kBevyHighPercent);
    std::uint32_t count = 0;
    float weighted = 0.0f;
    for (std::size_t i = 1; i < bins.size(); ++i) {
        const std::uint32_t share = std::clamp(cumulative[i], first, last) - std::clamp(cumulative[i - 1], first, last);
        weighted += float(share) * float(i);
        count += share;
    }
    float avgLog = hd::kBevyLogMin;
    if (count > 0)
        avgLog = weighted / (float(count) * float(hd::kBevyBins - 1u)) * (hd::kBevyLogMax - hd::kBevyLogMin) +
                 hd::kBevyLogMin;
    const float target = -avgLog;
    float exposure = adaptation.snap ? target : adaptation.engineState;
    const float delta = target - exposure;
    if (target > exposure) {
        const float step = hd::kBevySpeedDarken * adaptation.seconds;
        exposure += std::min(step, delta * step / hd::kBevyTransition);
    } else {
        const float step = hd::kBevySpeedBrighten * adaptation.seconds;
        exposure += std::max(-step, delta * step / hd::kBevyTransition);
    }
    return {exposure, exposure, target};
}

// ---- Unreal Engine 5 (UnrealDownsample, UnrealHistogram, UnrealReduce, UnrealEyeAdaptation) -----

std::vector<float> unrealHistogram(const PeerFrame& frame)
{
    const int halfW = (frame.width + 1) / 2, halfH = (frame.height + 1) / 2;
    // The half-resolution image, rounded to half floats as the RGBA16F image stores it.
    std::vector<float> half(std::size_t(halfW) * std::size_t(halfH) * 4);
    for (int y = 0; y < halfH; ++y)
        for (int x = 0; x < halfW; ++x)
            for (int c = 0; c < 4; ++c) {
                const int x0 = std::min(2 * x, frame.width - 1), x1 = std::min(2 * x + 1, frame.width - 1);
                const int y0 = std::min(2 * y, frame.height - 1), y1 = std::min(2 * y + 1, frame.height - 1);
                const float sum = texelAt(frame, x0, y0)[c] + texelAt(frame, x1, y0)[c] + texelAt(frame, x0, y1)[c] +
                                  texelAt(frame, x1, y1)[c];
                half[(std::size_t(y) * std::size_t(halfW) + std::size_t(x)) * 4 + std::size_t(c)] =
                    glm::unpackHalf1x16(glm::packHalf1x16(sum * 0.25f));
            }
    std::vector<double> bins(hd::kUnrealBins, 0.0);
    const float scale = 1.0f / (hd::kUnrealLogMax - hd::kUnrealLogMin);
    const float bias = -hd::kUnrealLogMin * scale;
    const auto splat = [&](const float* texel) {
        const float position = std::log2(luminanceOf(frame, texel)) * scale + bias;
        const float bucket = clamp01(position) * float(hd::kUnrealBins - 1u);
        const std::uint32_t bin0 = std::min(std::uint32_t(bucket), hd::kUnrealBins - 1u);
        const std::uint32_t bin1 = std::min(bin0 + 1u, hd::kUnrealBins - 1u);
        const float weight1 = bucket - std::floor(bucket);
        float weight0 = 1.0f - weight1;
        if (bin0 == 0u)
            weight0 *= hd::kUnrealBlackBinWeight;
        bins[bin0] += weight0;
        bins[bin1] += weight1;
    };
    // The quads the shader visits: in each 64x32 tile, x = 0, 2, .. 62 and y = 0..7 and 16..23 (even).
    const int tileW = int(hd::kUnrealGroupX * hd::kUnrealLoopX), tileH = int(hd::kUnrealGroupY * hd::kUnrealLoopY);
    for (int ty = 0; ty < halfH; ty += tileH)
        for (int tx = 0; tx < halfW; tx += tileW)
            for (int y = 0; y < tileH; y += int(hd::kUnrealLoopY) * 2)
                for (int x = 0; x < tileW; x += int(hd::kUnrealLoopX) * 2)
                    for (int gy = 0; gy < int(hd::kUnrealGroupY); ++gy)
                        for (int gx = 0; gx < int(hd::kUnrealGroupX); ++gx) {
                            const int px = tx + x + 2 * gx, py = ty + y + 2 * gy;
                            if (px >= halfW - 1 || py >= halfH - 1)
                                continue;
                            const auto at = [&](int qx, int qy) {
                                return &half[(std::size_t(qy) * std::size_t(halfW) + std::size_t(qx)) * 4];
                            };
                            splat(at(px, py));
                            splat(at(px + 1, py));
                            splat(at(px, py + 1));
                            splat(at(px + 1, py + 1));
                        }
    std::vector<float> out(bins.size());
    const double area = double(halfW) * double(halfH);
    for (std::size_t i = 0; i < bins.size(); ++i)
        out[i] = float(bins[i] / area);
    return out;
}

PeerResult unrealMetering(const PeerFrame& frame, const PeerAdaptation& adaptation)
{
    const std::vector<float> histogram = unrealHistogram(frame);
    float total = 0.0f;
    for (float value : histogram)
        total += value;
    float low = total * hd::kUnrealLowPercent;
    float high = total * hd::kUnrealHighPercent;
    float keptLog = 0.0f, kept = 0.0f;
    for (std::uint32_t i = 0; i < hd::kUnrealBins; ++i) {
        float value = histogram[i];
        const float removedLow = std::min(value, low);
        value -= removedLow;
        low -= removedLow;
        high -= removedLow;
        value = std::min(value, high);
        high -= value;
        const float logL =
            hd::kUnrealLogMin + float(i) / float(hd::kUnrealBins - 1u) * (hd::kUnrealLogMax - hd::kUnrealLogMin);
        keptLog += logL * value;
        kept += value;
    }
    const float average =
        std::clamp(std::exp2(keptLog / std::max(0.0001f, kept)), hd::kUnrealMinAverage, hd::kUnrealMaxAverage);
    const float target = std::log2(hd::kUnrealKey / average);
    float exposure = adaptation.snap ? target : adaptation.engineState;
    const float difference = target - exposure;
    const float speed = difference > 0.0f ? hd::kUnrealSpeedUp : hd::kUnrealSpeedDown;
    if (std::abs(difference) > hd::kUnrealTransition)
        exposure += std::copysign(std::min(std::abs(difference), speed * adaptation.seconds), difference);
    else
        exposure += difference * (1.0f - std::exp2(-speed * adaptation.seconds));
    return {exposure, exposure, target};
}

// ---- Unity HDRP (HdrpHistogram.comp, HdrpReduce.comp) -------------------------------------------

std::vector<std::uint32_t> hdrpHistogram(const PeerFrame& frame)
{
    std::vector<std::uint32_t> bins(hd::kHdrpBins, 0u);
    const float scale = 1.0f / (hd::kHdrpLimitMax - hd::kHdrpLimitMin);
    const float bias = -hd::kHdrpLimitMin * scale;
    const float w = float(frame.width), h = float(frame.height);
    for (int y = 0; y < frame.height; y += 2)
        for (int x = 0; x < frame.width; x += 2) {
            const float luminance = luminanceOf(frame, texelAt(frame, x, y));
            const float ev100 = std::log2(luminance * 100.0f / 12.5f);
            const auto bin = std::uint32_t(clamp01(ev100 * scale + bias) * float(hd::kHdrpBins - 1u));
            const float dx = float(x) - 0.5f * w, dy = float(y) - 0.5f * h;
            const float weight = clamp01(1.0f - std::sqrt(dx * dx + dy * dy) / (0.5f * (w + h)));
            bins[bin] += std::uint32_t(weight * hd::kHdrpWeightScale);
        }
    return bins;
}

PeerResult hdrpMetering(const PeerFrame& frame, const PeerAdaptation& adaptation)
{
    const std::vector<std::uint32_t> bins = hdrpHistogram(frame);
    float total = 0.0f;
    for (std::uint32_t bin : bins)
        total += float(bin) / hd::kHdrpWeightScale;
    float lowLeft = hd::kHdrpLowPercent * total, highLeft = hd::kHdrpHighPercent * total;
    float evSum = 0.0f, kept = 0.0f;
    const float scale = 1.0f / (hd::kHdrpLimitMax - hd::kHdrpLimitMin);
    const float bias = -hd::kHdrpLimitMin * scale;
    for (std::uint32_t i = 0; i < hd::kHdrpBins; ++i) {
        float mass = float(bins[i]) / hd::kHdrpWeightScale;
        const float shadows = std::min(lowLeft, mass);
        lowLeft -= shadows;
        highLeft -= shadows;
        mass -= shadows;
        mass = std::min(highLeft, mass);
        highLeft -= mass;
        evSum += mass * ((float(i) / float(hd::kHdrpBins - 1u) - bias) / scale);
        kept += mass;
    }
    const float target = evSum / std::max(kept, 1e-4f);
    const float previous = adaptation.snap ? target : adaptation.engineState;
    const float delta = target - previous;
    const float speed = delta > 0.0f ? hd::kHdrpSpeedDarkToLight : hd::kHdrpSpeedLightToDark;
    const float ev100 = std::clamp(previous + delta * (1.0f - std::exp2(-adaptation.seconds * speed)),
                                   hd::kHdrpLimitMin, hd::kHdrpLimitMax);
    const float lens = std::log2(hd::kHdrpLensImperfection);
    return {ev100, -ev100 - lens, -std::clamp(target, hd::kHdrpLimitMin, hd::kHdrpLimitMax) - lens};
}

// ---- Godot 4 (GodotReduce.comp) ------------------------------------------------------------------

float godotAverage(const PeerFrame& frame)
{
    const int block = int(hd::kGodotBlock);
    int width = frame.width, height = frame.height;
    std::vector<float> source(std::size_t(width) * std::size_t(height));
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            const float* texel = texelAt(frame, x, y);
            source[std::size_t(y) * std::size_t(width) + std::size_t(x)] =
                std::max(texel[0], std::max(texel[1], texel[2])) * frame.cdPerUnit;
        }
    do {
        const int outW = (width + block - 1) / block, outH = (height + block - 1) / block;
        std::vector<float> out(std::size_t(outW) * std::size_t(outH));
        for (int by = 0; by < outH; ++by)
            for (int bx = 0; bx < outW; ++bx) {
                float values[64];  // kGodotBlock^2, in the shader's invocation order, then its tree sum
                for (int t = 0; t < block * block; ++t) {
                    const int x = bx * block + t % block, y = by * block + t / block;
                    values[t] =
                        x < width && y < height ? source[std::size_t(y) * std::size_t(width) + std::size_t(x)] : 0.0f;
                }
                for (int size = block * block / 2; size >= 1; size /= 2)
                    for (int t = 0; t < size; ++t)
                        values[t] += values[t + size];
                const int rectW = std::min(width - bx * block, block), rectH = std::min(height - by * block, block);
                out[std::size_t(by) * std::size_t(outW) + std::size_t(bx)] = values[0] / float(rectW * rectH);
            }
        source = std::move(out);
        width = outW;
        height = outH;
    } while (width > 1 || height > 1);
    return source[0];
}

PeerResult godotMetering(const PeerFrame& frame, const PeerAdaptation& adaptation)
{
    const float target = godotAverage(frame);
    const float previous = adaptation.snap ? target : adaptation.engineState;
    const float average = std::clamp(previous + (target - previous) * hd::kGodotSpeed * adaptation.seconds,
                                     hd::kGodotMinLuminance, hd::kGodotMaxLuminance);
    return {average, std::log2(hd::kGodotScale / average),
            std::log2(hd::kGodotScale / std::clamp(target, hd::kGodotMinLuminance, hd::kGodotMaxLuminance))};
}

}  // namespace ref
