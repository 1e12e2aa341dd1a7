// DeepFlattenTest.cpp: image::DeepPixelFlattener against composites computed by hand (values exact
// in float where only "over" is involved; splits and merges involve logarithms, so those are
// compared within 1e-6), and its sweep against a brute-force tidy written from "Interpreting
// OpenEXR Deep Pixels" (split every volume at every depth, merge pairwise, composite) on random pixels.
#include "image/DeepFlatten.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

namespace {
using image::DeepDepth;
using image::DeepSample;
using Rgba = std::array<float, 4>;

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

/// A point sample of grey premultiplied colour `colour`.
DeepSample point(float z, float colour, float alpha)
{
    return {z, z, colour, colour, colour, alpha};
}

DeepSample volume(float front, float back, float colour, float alpha)
{
    return {front, back, colour, colour, colour, alpha};
}

Rgba flatten(const std::vector<DeepSample>& samples, DeepDepth depth = DeepDepth::Present)
{
    image::DeepPixelFlattener flattener;
    return flattener.flatten(samples, depth);
}

void expectNear(const Rgba& actual, float colour, float alpha, float tolerance = 1e-6f)
{
    for (int c = 0; c < 3; ++c)
        EXPECT_NEAR(actual[std::size_t(c)], colour, tolerance) << "channel " << c;
    EXPECT_NEAR(actual[3], alpha, tolerance);
}

TEST(DeepFlatten, NoSamplesAreTransparentBlack)
{
    EXPECT_EQ(flatten({}), (Rgba{0, 0, 0, 0}));
    EXPECT_EQ(flatten({}, DeepDepth::Absent), (Rgba{0, 0, 0, 0}));
}

TEST(DeepFlatten, PointSamplesAreSortedByDepthThenCompositedOver)
{
    // Stored back to front and out of order; by depth: red-ish at 1, green-ish at 3, white at 5.
    const std::vector<DeepSample> samples = {
        {5.0f, 5.0f, 1.0f, 1.0f, 1.0f, 1.0f},
        {1.0f, 1.0f, 0.5f, 0.0f, 0.0f, 0.5f},
        {3.0f, 3.0f, 0.0f, 0.25f, 0.0f, 0.25f},
    };
    // C = (0.5, 0, 0) + 0.5 * (0, 0.25, 0) + 0.375 * (1, 1, 1); A = 0.5 + 0.5 * 0.25 + 0.375 * 1.
    EXPECT_EQ(flatten(samples), (Rgba{0.875f, 0.5f, 0.375f, 1.0f}));
    // Without depth the stored order holds: the opaque white sample is in front.
    EXPECT_EQ(flatten(samples, DeepDepth::Absent), (Rgba{1.0f, 1.0f, 1.0f, 1.0f}));
}

TEST(DeepFlatten, CompositingStopsAtFullOpacity)
{
    // Behind an opaque sample an infinite colour must not turn the pixel into NaN (0 * inf).
    const std::vector<DeepSample> samples = {point(4.0f, kInf, 1.0f), point(2.0f, 0.75f, 1.0f)};
    EXPECT_EQ(flatten(samples), (Rgba{0.75f, 0.75f, 0.75f, 1.0f}));
}

TEST(DeepFlatten, HdrColoursAndTouchingSamplesStayExact)
{
    // A volume [1, 2], a point at its back, a volume from there to 4, stored shuffled: tidy once
    // sorted (a point may sit at a volume's front or back), so composited from the stored values.
    const std::vector<DeepSample> samples = {volume(2.0f, 4.0f, 0.125f, 0.5f), point(2.0f, 0.5f, 0.5f),
                                             volume(1.0f, 2.0f, 16.0f, 0.5f)};
    // C = 16 + 0.5 * 0.5 + 0.25 * 0.125; A = 0.5 + 0.25 + 0.125.
    EXPECT_EQ(flatten(samples), (Rgba{16.28125f, 16.28125f, 16.28125f, 0.875f}));
}

TEST(DeepFlatten, CoincidentPointSamplesAreMerged)
{
    // Two points at one depth, alpha 0.5 each: merged alpha 0.75 and colour 0.75 * mean(c / a)
    // = 0.75 * (1 + 0.5) / 2 = 0.5625 in either stored order ("over" would give 0.625 or 0.5).
    expectNear(flatten({point(1.0f, 0.5f, 0.5f), point(1.0f, 0.25f, 0.5f)}), 0.5625f, 0.75f);
    expectNear(flatten({point(1.0f, 0.25f, 0.5f), point(1.0f, 0.5f, 0.5f)}), 0.5625f, 0.75f);
    // An opaque one wins; two opaque ones average.
    expectNear(flatten({point(1.0f, 0.25f, 0.5f), point(1.0f, 0.5f, 1.0f)}), 0.5f, 1.0f);
    expectNear(flatten({point(1.0f, 0.25f, 1.0f), point(1.0f, 0.75f, 1.0f)}), 0.5f, 1.0f);
}

TEST(DeepFlatten, OverlappingVolumesAreSplitAndMerged)
{
    // Identical ranges merge like coincident points.
    expectNear(flatten({volume(1.0f, 2.0f, 0.5f, 0.5f), volume(1.0f, 2.0f, 0.25f, 0.5f)}), 0.5625f, 0.75f);
    // A = [0, 2] (a 0.75, c 0.75) and B = [1, 3] (a 0.75, c 0.375). Halves of each have alpha 0.5:
    // [0, 1] A's half: a 0.5, c 0.5; [1, 2] A's and B's halves merged: a 0.75, c 0.75 * (1 + 0.5) / 2
    // = 0.5625; [2, 3] B's half: a 0.5, c 0.25. Over: C = 0.5 + 0.5 * 0.5625 + 0.125 * 0.25 = 0.8125,
    // A = 0.5 + 0.5 * 0.75 + 0.125 * 0.5 = 0.9375.
    expectNear(flatten({volume(1.0f, 3.0f, 0.375f, 0.75f), volume(0.0f, 2.0f, 0.75f, 0.75f)}), 0.8125f, 0.9375f);
    // A point inside a volume splits it: C = 0.5 + 0.5 * 0.5 + 0.25 * 0.5, A = 0.5 + 0.25 + 0.125.
    expectNear(flatten({point(1.0f, 0.5f, 0.5f), volume(0.0f, 2.0f, 0.75f, 0.75f)}), 0.875f, 0.875f);
    // A transparent volume (alpha 0) only adds its colour, in proportion to the part in front.
    expectNear(flatten({volume(0.0f, 4.0f, 1.0f, 0.0f), point(1.0f, 0.5f, 1.0f)}), 0.75f, 1.0f);
}

TEST(DeepFlatten, OpaqueVolumesHideWhatOverlapsThem)
{
    // Opaque pieces stay opaque with their full colour: [0, 1] of the opaque volume ends it.
    expectNear(flatten({volume(1.0f, 3.0f, 0.25f, 0.5f), volume(0.0f, 2.0f, 0.5f, 1.0f)}), 0.5f, 1.0f);
    // [0, 1]: half of a (0.75, 0.75) volume = (0.5, 0.5); [1, 2] merged with an opaque one = its colour.
    expectNear(flatten({volume(0.0f, 2.0f, 0.75f, 0.75f), volume(1.0f, 3.0f, 1.0f, 1.0f)}), 1.0f, 1.0f);
}

TEST(DeepFlatten, DegenerateDepthsHaveAPlace)
{
    // NaN Z goes behind everything; ZBack before Z, NaN or infinitely far makes a point sample.
    EXPECT_EQ(flatten({{kNaN, kNaN, 1.0f, 1.0f, 1.0f, 1.0f}, {1.0f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f}}),
              (Rgba{1.0f, 1.0f, 1.0f, 1.0f}));
    EXPECT_EQ(flatten({point(2.0f, 1.0f, 1.0f), {1.0f, kInf, 0.25f, 0.25f, 0.25f, 0.5f}}),
              (Rgba{0.75f, 0.75f, 0.75f, 1.0f}));
    EXPECT_EQ(flatten({point(2.0f, 1.0f, 1.0f), {1.0f, kNaN, 0.25f, 0.25f, 0.25f, 0.5f}}),
              (Rgba{0.75f, 0.75f, 0.75f, 1.0f}));
    // Alpha outside [0, 1] is used as stored where no split is needed, clamped where one is.
    const Rgba overlapped = flatten({volume(0.0f, 2.0f, 0.5f, 2.0f), volume(1.0f, 3.0f, kNaN, kNaN)});
    EXPECT_EQ(overlapped, (Rgba{0.5f, 0.5f, 0.5f, 1.0f}));
    // A NaN alpha ends the composite (sorted and overlapping alike): the pixel's alpha is NaN.
    for (const Rgba& nanAlpha :
         {flatten({point(2.0f, 1.0f, 1.0f), point(1.0f, 0.5f, kNaN)}),
          flatten({volume(1.0f, 3.0f, 1.0f, 1.0f), point(1.0f, 0.5f, kNaN), volume(2.0f, 4.0f, 1.0f, 1.0f)})}) {
        EXPECT_EQ(nanAlpha[0], 0.5f);
        EXPECT_TRUE(std::isnan(nanAlpha[3]));
    }
}

// ---- brute force, straight from the document ----

struct Piece
{
    double colour = 0.0, alpha = 0.0;
};

double clampAlpha(double alpha)
{
    return std::clamp(alpha, 0.0, 1.0);
}

/// The document's merge of two perfectly overlapping samples.
Piece merge(Piece a, Piece b)
{
    a.alpha = clampAlpha(a.alpha);
    b.alpha = clampAlpha(b.alpha);
    Piece merged;
    merged.alpha = a.alpha + b.alpha - a.alpha * b.alpha;
    if (a.alpha == 1.0 && b.alpha == 1.0)
        merged.colour = (a.colour + b.colour) / 2;
    else if (a.alpha == 1.0)
        merged.colour = a.colour;
    else if (b.alpha == 1.0)
        merged.colour = b.colour;
    else {
        const double ua = -std::log1p(-a.alpha), ub = -std::log1p(-b.alpha);
        const double va = a.alpha > 0 ? ua / a.alpha : 1.0, vb = b.alpha > 0 ? ub / b.alpha : 1.0;
        const double u = ua + ub;
        const double w = u > 0 ? merged.alpha / u : 1.0;
        merged.colour = (a.colour * va + b.colour * vb) * w;
    }
    return merged;
}

/// The document's split: the part of a volume sample between `from` and `to`.
Piece part(const DeepSample& sample, double from, double to)
{
    const double alpha = clampAlpha(sample.alpha);
    const double x = (to - from) / (double(sample.zBack) - double(sample.z));
    Piece piece;
    if (alpha == 1.0)
        return {sample.red, 1.0};
    piece.alpha = 1.0 - std::pow(1.0 - alpha, x);
    piece.colour = alpha > 0 ? sample.red * piece.alpha / alpha : sample.red * x;
    return piece;
}

/// Grey only: the tidy pixel composited over.
double bruteForceColour(const std::vector<DeepSample>& samples, double* alphaOut)
{
    std::vector<double> depths;
    for (const DeepSample& s : samples) {
        depths.push_back(s.z);
        depths.push_back(s.zBack);
    }
    std::sort(depths.begin(), depths.end());
    depths.erase(std::unique(depths.begin(), depths.end()), depths.end());
    double colour = 0.0, alpha = 0.0;
    auto over = [&](const Piece& piece) {
        colour += (1.0 - alpha) * piece.colour;
        alpha += (1.0 - alpha) * piece.alpha;
    };
    for (std::size_t k = 0; k < depths.size(); ++k) {
        std::vector<Piece> points;
        for (const DeepSample& s : samples)
            if (s.z == s.zBack && s.z == depths[k])
                points.push_back({s.red, s.alpha});
        if (!points.empty()) {
            // A lone sample is kept as stored (the flattener does the same; merge() would clamp).
            Piece merged = points[0];
            for (std::size_t i = 1; i < points.size(); ++i)
                merged = merge(merged, points[i]);
            over(merged);
        }
        if (k + 1 == depths.size())
            break;
        std::vector<Piece> pieces;
        for (const DeepSample& s : samples)
            if (s.zBack > s.z && s.z <= depths[k] && s.zBack >= depths[k + 1])
                pieces.push_back(s.z == depths[k] && s.zBack == depths[k + 1] ? Piece{s.red, s.alpha}
                                                                              : part(s, depths[k], depths[k + 1]));
        if (!pieces.empty()) {
            Piece merged = pieces[0];
            for (std::size_t i = 1; i < pieces.size(); ++i)
                merged = merge(merged, pieces[i]);
            over(merged);
        }
    }
    *alphaOut = alpha;
    return colour;
}

TEST(DeepFlatten, SweepMatchesTheDocumentsTidyOnRandomPixels)
{
    std::mt19937 random(18);
    std::uniform_int_distribution<int> sampleCount(1, 8);
    std::uniform_int_distribution<int> depth(0, 5);
    std::uniform_int_distribution<int> length(0, 3);
    std::uniform_real_distribution<float> colour(0.0f, 2.0f);
    const float alphas[] = {0.0f, 0.25f, 0.5f, 0.75f, 0.9f, 0.1f, 0.01f, 1e-7f};
    std::uniform_int_distribution<int> alphaIndex(0, 7);
    image::DeepPixelFlattener flattener;
    int overlapping = 0;
    for (int trial = 0; trial < 2000; ++trial) {
        std::vector<DeepSample> samples(std::size_t(sampleCount(random)));
        for (DeepSample& sample : samples) {
            sample.z = float(depth(random));
            sample.zBack = sample.z + float(length(random));
            sample.red = sample.green = sample.blue = colour(random);
            sample.alpha = alphas[alphaIndex(random)];
        }
        // No opaque samples here, so that the composite never stops early and every piece counts.
        double expectedAlpha = 0.0;
        const double expectedColour = bruteForceColour(samples, &expectedAlpha);
        const Rgba actual = flattener.flatten(samples, DeepDepth::Present);
        ASSERT_NEAR(actual[0], expectedColour, 1e-5 * std::max(1.0, expectedColour)) << "trial " << trial;
        ASSERT_NEAR(actual[3], expectedAlpha, 1e-6) << "trial " << trial;
        ASSERT_EQ(actual[0], actual[2]);
        std::vector<DeepSample> sorted = samples;
        std::sort(sorted.begin(), sorted.end(), [](const DeepSample& a, const DeepSample& b) {
            return a.z < b.z || (a.z == b.z && a.zBack < b.zBack);
        });
        for (std::size_t i = 1; i < sorted.size(); ++i)
            if (sorted[i].z < sorted[i - 1].zBack) {
                ++overlapping;
                break;
            }
    }
    EXPECT_GT(overlapping, 1000) << "the random pixels should mostly need splitting";
}

TEST(DeepFlatten, ManyOverlappingSamplesTakeLinearithmicTime)
{
    // 100000 staggered volumes, each overlapping thousands of others: a pairwise merge would take
    // minutes; the sweep takes milliseconds. Each is thin fog, so the total stays below opaque.
    std::vector<DeepSample> samples;
    for (int i = 0; i < 100000; ++i)
        samples.push_back(volume(float(i), float(i + 5000), 1e-6f, 1e-6f));
    const auto start = std::chrono::steady_clock::now();
    const Rgba result = flatten(samples);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_LT(seconds, 5.0);
    // 100000 samples of alpha 1e-6: total optical depth 0.1, A = 1 - exp(-0.1); colour = alpha (c / a = 1).
    expectNear(result, float(-std::expm1(-0.1)), float(-std::expm1(-0.1)), 1e-5f);
}

}  // namespace
