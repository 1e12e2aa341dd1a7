// DisplayTransformDistanceTest.cpp: how far each of hdrlab's display curves and transforms is from
// the published definition it names, in 8-bit sRGB codes, measured on the CPU (issue 39), and the
// figures docs/TONE_OPERATORS.md quotes recomputed so they cannot go stale.
//
// hdrlab's side is its CPU reference (ref::displayCurve applied to luminance with the colour ratio
// kept, as the apply pass does; ref::displayTransform for the RGB transforms), which the GPU matches
// within 1 code (DisplayTransformGl, ToneOperatorsGl). The references are written here from their
// published definitions:
//  - Hable 2010 ("Filmic Tonemapping Operators", filmicworlds.com): the Uncharted 2 rational
//    function per channel, divided by its value at the white 11.2, not capped (the post's shader
//    also multiplies by an exposure bias of 2, which hdrlab leaves to the operator's exposure: both
//    sides here take the same exposed value);
//  - Narkowicz 2015's ACES fit, per channel as published;
//  - Reinhard et al. 2002 (eq. 3: L / (1 + L) on luminance);
//  - three.js's AgXToneMapping (r160 on; after Filament, with Blender 4's "AgX Base Rec.2020" inset
//    and outset matrices): linear Rec. 709 to Rec. 2020, the inset matrix, log2 over
//    [-12.47393, 4.026069] EV, Wrensch's polynomial sigmoid, the outset matrix, the 2.2 power, back
//    to Rec. 709, clamped to [0, 1]; for agx-punchy the same with Blender's Punchy look between the
//    sigmoid and the outset (as Filament's AgX looks: power 1.35, saturation 1.4 about Rec. 709 luma);
//  - Khronos PBR Neutral (the specification's sample code).
// Colours: 2^ev times a colour of luminance 1, ev from -10 to +10 in 1/8 EV steps, the colour each of
// the 63 non-zero mixes of channel weights {0, 1/4, 1/2, 1} (greys, primaries, secondaries and the
// mixes between them). Codes: round(255 * sRGB(clamp(v, 0, 1))) per channel.
#include "reference/DisplayTransformRef.h"
#include "reference/HdrEncode.h"
#include "reference/Image.h"
#include "reference/ToneExposureRef.h"
#include "support/TestPaths.h"
#include "tone/ToneSettings.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <map>
#include <regex>
#include <sstream>
#include <string>

namespace {

using Rgb = std::array<double, 3>;
using Transform = std::function<Rgb(const Rgb&)>;
using Matrix = std::array<std::array<double, 3>, 3>;  // rows

Rgb times(const Matrix& m, const Rgb& v)
{
    Rgb out{};
    for (int r = 0; r < 3; ++r)
        out[r] = m[r][0] * v[0] + m[r][1] * v[1] + m[r][2] * v[2];
    return out;
}

Matrix inverse(const Matrix& m)
{
    const double det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
                       m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
                       m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
    Matrix out{};
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) {
            // Cofactor of (c, r), divided by the determinant.
            const int r1 = (c + 1) % 3, r2 = (c + 2) % 3, c1 = (r + 1) % 3, c2 = (r + 2) % 3;
            out[r][c] = (m[r1][c1] * m[r2][c2] - m[r1][c2] * m[r2][c1]) / det;
        }
    return out;
}

double luma709(const Rgb& c)
{
    return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
}

/// A luminance curve as hdrlab's apply pass uses it: the colour times curve(L) / L.
Rgb onLuminance(const Rgb& c, const std::function<double(double)>& curve)
{
    const double L = luma709(c);
    if (!(L > 0.0))
        return {0.0, 0.0, 0.0};
    const double ratio = curve(L) / L;
    return {c[0] * ratio, c[1] * ratio, c[2] * ratio};
}

Rgb perChannel(const Rgb& c, const std::function<double(double)>& curve)
{
    return {curve(c[0]), curve(c[1]), curve(c[2])};
}

// ---- the published definitions ----------------------------------------------------------------

double hable2010(double x)  // Uncharted 2, divided by its value at the white 11.2, no cap
{
    const auto raw = [](double v) {
        const double a = 0.15, b = 0.50, c = 0.10, d = 0.20, e = 0.02, f = 0.30;
        return (v * (a * v + c * b) + d * e) / (v * (a * v + b) + d * f) - e / f;
    };
    return raw(std::max(x, 0.0)) / raw(11.2);
}

double acesNarkowicz(double x)
{
    x = std::max(x, 0.0);
    return std::clamp(x * (2.51 * x + 0.03) / (x * (2.43 * x + 0.59) + 0.14), 0.0, 1.0);
}

double reinhard2002(double x)
{
    return x / (1.0 + x);
}

/// three.js's AgXToneMapping; `punchy` adds Blender's Punchy look (Filament's AgX looks).
Rgb threeJsAgx(const Rgb& colour, bool punchy)
{
    // Blender 4's AgX Base Rec.2020 inset (rows), and the outset three.js ships (rows).
    static const Matrix inset = {{{0.856627153315983, 0.0951212405381588, 0.0482516061458583},
                                  {0.137318972929847, 0.761241990602591, 0.101439036467562},
                                  {0.11189821299995, 0.0767994186031903, 0.811302368396859}}};
    static const Matrix outset = {{{1.1271005818144368, -0.11060664309660323, -0.016493938717834573},
                                   {-0.1413297634984383, 1.157823702216272, -0.016493938717834257},
                                   {-0.14132976349843826, -0.11060664309660294, 1.2519364065950405}}};
    // Rec. 709 <-> Rec. 2020 (BT.2087): hdrlab's own matrix, derived from the primaries; three.js
    // rounds it to 4 decimals (a difference well below one code).
    static const Matrix toRec2020 = ref::rec709ToBt2020();
    static const Matrix toRec709 = inverse(toRec2020);
    const double minEv = -12.47393, maxEv = 4.026069;
    Rgb v = times(inset, times(toRec2020, colour));
    for (double& c : v) {
        const double t = std::clamp((std::log2(std::max(c, 1e-10)) - minEv) / (maxEv - minEv), 0.0, 1.0);
        c = ((((((15.5 * t - 40.14) * t + 31.96) * t - 6.868) * t + 0.4298) * t + 0.1191) * t) - 0.00232;
    }
    if (punchy) {
        for (double& c : v)
            c = std::pow(std::max(c, 0.0), 1.35);
        const double luma = luma709(v);
        for (double& c : v)
            c = luma + 1.4 * (c - luma);
    }
    v = times(outset, v);
    for (double& c : v)
        c = std::pow(std::max(c, 0.0), 2.2);
    v = times(toRec709, v);
    for (double& c : v)
        c = std::clamp(c, 0.0, 1.0);
    return v;
}

Rgb khronosPbrNeutral(const Rgb& colour)
{
    const double start = 0.8 - 0.04, desaturation = 0.15;
    Rgb c = {std::max(colour[0], 0.0), std::max(colour[1], 0.0), std::max(colour[2], 0.0)};
    const double x = std::min({c[0], c[1], c[2]});
    const double offset = x < 0.08 ? x - 6.25 * x * x : 0.04;
    for (double& v : c)
        v -= offset;
    const double peak = std::max({c[0], c[1], c[2]});
    if (peak < start)
        return c;
    const double d = 1.0 - start;
    const double newPeak = 1.0 - d * d / (peak + d - start);
    for (double& v : c)
        v *= newPeak / peak;
    const double g = 1.0 - 1.0 / (desaturation * (peak - newPeak) + 1.0);
    for (double& v : c)
        v = v * (1.0 - g) + newPeak * g;
    return c;
}

// ---- the measurement --------------------------------------------------------------------------

int code(double linear)
{
    return int(std::lround(ref::encodeSrgb(linear) * 255.0));
}

struct Distance
{
    int codes = 0;
    Rgb where{};  ///< the exposed colour of the largest difference
};

Distance largestCodeDifference(const Transform& hdrlab, const Transform& reference)
{
    Distance largest;
    const double weights[] = {0.0, 0.25, 0.5, 1.0};
    for (double r : weights)
        for (double g : weights)
            for (double b : weights) {
                const double L = luma709({r, g, b});
                if (!(L > 0.0))
                    continue;
                for (int step = -80; step <= 80; ++step) {
                    const double scale = std::exp2(step / 8.0) / L;
                    const Rgb colour = {r * scale, g * scale, b * scale};
                    const Rgb a = hdrlab(colour), e = reference(colour);
                    for (int c = 0; c < 3; ++c) {
                        const int difference = std::abs(code(a[c]) - code(e[c]));
                        if (difference > largest.codes)
                            largest = {difference, colour};
                    }
                }
            }
    return largest;
}

std::function<double(double)> hdrlabCurve(post::DisplayCurve curve)
{
    return [curve](double x) { return ref::displayCurve(x, post::DisplayCurveSettings{curve, 0.0f}); };
}

/// Every figure the docs quote: name -> the largest difference.
std::map<std::string, Distance> measuredDistances()
{
    using post::DisplayCurve;
    std::map<std::string, Distance> d;
    const auto luminance = [](DisplayCurve curve) {
        return [f = hdrlabCurve(curve)](const Rgb& c) { return onLuminance(c, f); };
    };
    d["clamp"] = largestCodeDifference(luminance(DisplayCurve::Clamp),
                                       [](const Rgb& c) { return perChannel(c, [](double x) { return x; }); });
    d["reinhard"] = largestCodeDifference(luminance(DisplayCurve::Reinhard),
                                          [](const Rgb& c) { return onLuminance(c, reinhard2002); });
    d["hable"] =
        largestCodeDifference(luminance(DisplayCurve::Hable), [](const Rgb& c) { return onLuminance(c, hable2010); });
    d["hable-per-channel"] =
        largestCodeDifference(luminance(DisplayCurve::Hable), [](const Rgb& c) { return perChannel(c, hable2010); });
    d["aces-fit"] = largestCodeDifference(luminance(DisplayCurve::AcesFit),
                                          [](const Rgb& c) { return perChannel(c, acesNarkowicz); });
    d["agx"] = largestCodeDifference([](const Rgb& c) { return ref::agx(c, false); },
                                     [](const Rgb& c) { return threeJsAgx(c, false); });
    d["agx-punchy"] = largestCodeDifference([](const Rgb& c) { return ref::agx(c, true); },
                                            [](const Rgb& c) { return threeJsAgx(c, true); });
    d["agx-greys"] = largestCodeDifference(
        [](const Rgb& c) {
            return ref::agx({luma709(c), luma709(c), luma709(c)}, false);
        },
        [](const Rgb& c) {
            return threeJsAgx({luma709(c), luma709(c), luma709(c)}, false);
        });
    d["pbr-neutral"] = largestCodeDifference([](const Rgb& c) { return ref::pbrNeutral(c); }, khronosPbrNeutral);
    return d;
}

/// The figures of the table between "<!-- display-transform-distances -->" and the next blank line
/// in docs/TONE_OPERATORS.md: the row's first cell (`name`) and its last cell (a whole number).
std::map<std::string, int> documentedDistances()
{
    std::ifstream in(testing_support::sourceDir() / "docs" / "TONE_OPERATORS.md");
    std::stringstream text;
    text << in.rdbuf();
    const std::string doc = text.str();
    const std::string marker = "<!-- display-transform-distances -->";
    std::map<std::string, int> figures;
    const std::size_t at = doc.find(marker);
    if (at == std::string::npos)
        return figures;
    std::istringstream table(doc.substr(at + marker.size()));
    std::string line;
    std::getline(table, line);  // the rest of the marker's line
    static const std::regex row(R"(^\| `([a-z0-9-]+)` \|.*\| \*?\*?(\d+)\*?\*? \|\s*$)");
    while (std::getline(table, line) && !line.empty()) {
        std::smatch m;
        if (std::regex_match(line, m, row))
            figures[m[1]] = std::stoi(m[2]);
    }
    return figures;
}

TEST(DisplayTransformDistance, ReferencesAgreeWithTheirDefinitionsWhereTheyShould)
{
    // The written references, checked at points their sources state.
    EXPECT_NEAR(hable2010(11.2), 1.0, 1e-12);
    EXPECT_GT(hable2010(100.0), 1.2);  // the published curve keeps rising past the white
    EXPECT_NEAR(threeJsAgx({0.18, 0.18, 0.18}, false)[0], std::pow(0.4965, 2.2), 0.01);  // about 0.5 encoded
    EXPECT_NEAR(khronosPbrNeutral({0.18, 0.18, 0.18})[0], 0.14, 1e-3);
    // The three.js inset matrix maps grey to grey (its rows sum to 1): AgX keeps greys neutral.
    const Rgb grey = threeJsAgx({1.0, 1.0, 1.0}, false);
    EXPECT_NEAR(grey[0], grey[1], 1e-3);
    EXPECT_NEAR(grey[1], grey[2], 1e-3);
}

TEST(DisplayTransformDistance, DocsQuoteTheMeasuredFigures)
{
    const auto measured = measuredDistances();
    const auto documented = documentedDistances();
    std::string table;
    for (const auto& [name, distance] : measured) {
        char line[200];
        std::snprintf(line, sizeof line, "%-18s %3d codes at exposed RGB %.4g %.4g %.4g\n", name.c_str(),
                      distance.codes, distance.where[0], distance.where[1], distance.where[2]);
        table += line;
    }
    std::printf("%s", table.c_str());
    ASSERT_FALSE(documented.empty()) << "docs/TONE_OPERATORS.md has no <!-- display-transform-distances --> table";
    for (const auto& [name, distance] : measured) {
        auto it = documented.find(name);
        ASSERT_NE(it, documented.end()) << "docs/TONE_OPERATORS.md's table has no row `" << name << "`:\n" << table;
        EXPECT_EQ(it->second, distance.codes) << "`" << name << "`: the docs say " << it->second << " codes\n" << table;
    }
    EXPECT_EQ(documented.size(), measured.size()) << "rows in the docs that nothing measures";
}

TEST(DisplayTransformDistance, TheMeasureSeesAChangedCurve)
{
    // A test that cannot fail is a defect: a curve off by 2 % is several codes from itself.
    const auto f = hdrlabCurve(post::DisplayCurve::AcesFit);
    const Distance d =
        largestCodeDifference([&](const Rgb& c) { return onLuminance(c, f); },
                              [&](const Rgb& c) { return onLuminance(c, [&](double x) { return 1.02 * f(x); }); });
    EXPECT_GE(d.codes, 2);
    const Distance same = largestCodeDifference([&](const Rgb& c) { return onLuminance(c, f); },
                                                [&](const Rgb& c) { return onLuminance(c, f); });
    EXPECT_EQ(same.codes, 0);
}

}  // namespace
