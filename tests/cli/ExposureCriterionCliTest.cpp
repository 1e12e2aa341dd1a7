// Defaults that look right (issues 26 and 35): every tone operator, every engine preset and every
// display curve, at its defaults, on every scene preset (scenes/*.json) and on the real photographs
// (assets/*.exr|hdr, ../shared/exr/real), through the hdrlab binary at a small size: at most 25 % of the
// pixels near black (brightest sRGB channel <= 3/255), a median luma (Rec. 709 weights on the 8-bit sRGB
// values) between 0.08 and 0.8, and at most 5 % of the picture clipped to white (every channel >= 254)
// outside light sources and sky. On a scene those are found by rendering a copy of the scene with every
// base colour black (what keeps 80 % of its luminance is emission or sky); a photograph has no mask.
// Defaults that miss a bound by design are exempt by name with their reasons (boundExemptions).
// Exempt, as issue 26 words the criterion: on the photographs the fixed exposure and the engine presets
// (the photographs' units are relative, while EV 0 and the engines' exposure clamps are absolute: UE's
// average luminance 0.03..8 cd/m2, HDRP's -1..14 EV100), and the scenes named in kMostlyDarkScenes, whose
// descriptions say they are mostly dark. One scene x preset pair is exempt by name with its reason
// (kEngineExemptions): the engine's own metering, reproduced faithfully, darkens it.
//
// How, to stay fast on two cores with llvmpipe: a scene is rendered once headless (160x90, 3 frames)
// to an EXR; `tonemap --operator all` and `tonemap --preset all` then tone-map that frame with every
// operator and preset in two runs (contact sheets; the tiles are cut out by the positions tonemap
// prints). For a scene, the operator sheet uses the live pipeline's histogram range (-10..20) and
// Ward's live sampling (frame), so each tile is the live pipeline's first frame, where the percentile
// operator snaps to its target: converged adaptation (docs/TONE_OPERATORS.md, "Defaults"). The
// photographs go through `tonemap` as a user runs it (auto range, Ward's pcond sampling), tiles 160
// wide. A third sheet runs every operator with local exposure on (Unreal's template values; the unreal
// preset turns it on too), held to the same criterion, and a fourth with the fusion method. The default
// scene is also run with the old percentile default (an unbounded highlight limit) to show that the
// criterion fails it, and its figures are compared with the table docs/TONE_OPERATORS.md quotes for it
// (issue 39: docs that cannot go stale): exposure within 0.02 EV, near black within 0.3 %, median luma
// within 0.01 (llvmpipe against a GPU).
#include "cli/CliTestSupport.h"
#include "image/ImageIo.h"
#include "post/tonemap/EnginePresets.h"
#include "post/tonemap/ToneOperator.h"
#include "tone/ToneSettings.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <utility>

namespace {

namespace fs = std::filesystem;
using cli_test::hdrlab;

constexpr double kMaxNearBlack = 0.25;
constexpr double kMinMedianLuma = 0.08;
constexpr double kMaxMedianLuma = 0.8;
constexpr double kMaxClipped = 0.05;  ///< of the picture: white, but not a light source or the sky
constexpr int kNearBlackLevel = 3;
constexpr int kClippedLevel = 254;  ///< every 8-bit sRGB channel at or above this: clipped to white
/// A scene pixel is a light source or sky where the scene with every base colour black (emission and
/// sky only) keeps at least this share of its luminance.
constexpr double kLightOrSkyShare = 0.8;
/// Local exposure as Unreal Engine 5's new-project templates set it (the `unreal` preset's).
constexpr const char* kLocalExposureFlags =
    "--set local_exposure.method=bilateral --set local_exposure.highlight_contrast_scale=0.8 "
    "--set local_exposure.shadow_contrast_scale=0.8";
/// The same with the fusion method (Unreal 5.5's "Fusion"), at the same template values.
constexpr const char* kFusionFlags =
    "--set local_exposure.method=fusion --set local_exposure.highlight_contrast_scale=0.8 "
    "--set local_exposure.shadow_contrast_scale=0.8";  ///< brightest 8-bit sRGB channel at or below this: near black
/// Scenes that really are mostly dark (their descriptions say so): no operator can make them bright.
const std::set<std::string> kMostlyDarkScenes = {"stress-almost-black"};
/// Scene x engine preset pairs where the engine's own defaults, reproduced, miss the criterion.
const std::set<std::pair<std::string, std::string>> kEngineExemptions = {
    // HDRP meters the 40..90 % band with its centre-weighted mask: the sunlit road and exit (the centre)
    // set the exposure and the sodium-lit walls fall dark: median luma 0.055, 11 % near black
    // (docs/TONE_OPERATORS.md, "Defaults").
    {"tunnel-exit", "percentile/unity-hdrp"},
};

struct Input
{
    std::string name;  ///< the test's name: scene_<stem> or photo_<stem>
    fs::path path;
    bool scene = false;
};

/// Names the input in gtest's listings and messages (instead of its bytes).
void PrintTo(const Input& input, std::ostream* out)
{
    *out << input.path.filename().string();
}

std::string testName(std::string text)
{
    for (char& c : text)
        if (!std::isalnum(static_cast<unsigned char>(c)))
            c = '_';
    return text;
}

std::vector<Input> inputs()
{
    std::vector<Input> out;
    std::vector<fs::path> scenes;
    for (const fs::directory_entry& entry : fs::directory_iterator(testing_support::sourceDir() / "scenes"))
        if (entry.path().extension() == ".json")
            scenes.push_back(entry.path());
    std::sort(scenes.begin(), scenes.end());
    for (const fs::path& scene : scenes)
        out.push_back({"scene_" + testName(scene.stem().string()), scene, true});
    std::vector<fs::path> photos;
    for (const fs::directory_entry& entry : fs::directory_iterator(testing_support::sourceDir() / "assets"))
        if (entry.path().extension() == ".exr" || entry.path().extension() == ".hdr")
            photos.push_back(entry.path());
    if (auto exr = testing_support::sharedData("exr"); exr && fs::is_directory(*exr / "real"))
        for (const fs::directory_entry& entry : fs::directory_iterator(*exr / "real"))
            if (entry.path().extension() == ".exr" &&
                std::none_of(photos.begin(), photos.end(),
                             [&](const fs::path& p) { return p.filename() == entry.path().filename(); }))
                photos.push_back(entry.path());
    std::sort(photos.begin(), photos.end(),
              [](const fs::path& a, const fs::path& b) { return a.filename() < b.filename(); });
    for (const fs::path& photo : photos)
        out.push_back({"photo_" + testName(photo.stem().string()), photo, false});
    return out;
}

/// Where the picture shows a light source or the sky (1) or a lit surface (0); empty: nowhere known.
struct LightMask
{
    int width = 0;
    int height = 0;
    std::vector<std::uint8_t> lightOrSky;
};

struct Exposure
{
    double nearBlack = 0.0;   ///< fraction of pixels whose brightest channel is <= kNearBlackLevel
    double medianLuma = 0.0;  ///< Rec. 709 luma of the sRGB values, 0..1
    double clipped = 0.0;     ///< fraction of pixels at white (every channel >= kClippedLevel) outside the mask
    std::string keyValue;     ///< the tile caption's key value ("exposure -6.58 EV"), where printed
};

/// A row of the default scene's table in docs/TONE_OPERATORS.md ("Defaults").
struct DocumentedRow
{
    std::string exposure;  ///< "-6.58 EV", "(log-average 4.45)" or empty
    double nearBlack = 0.0;
    double medianLuma = 0.0;
};

/// The default scene's table, by the tile it describes: `percentile`, `ward`, `percentile/unreal`...
/// (rows naming an operator in backquotes, or a preset as "`ID` preset"; other rows are left out).
std::map<std::string, DocumentedRow> documentedDefaults()
{
    std::ifstream in(testing_support::sourceDir() / "docs" / "TONE_OPERATORS.md");
    std::stringstream text;
    text << in.rdbuf();
    const std::string doc = text.str();
    std::map<std::string, DocumentedRow> rows;
    const std::size_t start =
        doc.find("| operator | what its default does here | exposure | near black | median luma |");
    if (start == std::string::npos)
        return rows;
    std::istringstream table(doc.substr(start));
    std::string line;
    const std::regex row(R"(^\| `([a-z-]+)`( preset)? \|[^|]*\|\s*([^|]*?)\s*\|\s*([0-9.]+) % \|\s*([0-9.]+) \|$)");
    while (std::getline(table, line) && !line.empty()) {
        std::smatch m;
        if (!std::regex_match(line, m, row))
            continue;
        const std::string id = m[2].matched ? "percentile/" + m[1].str() : m[1].str();
        rows[id] = {m[3].str(), std::stod(m[4]) / 100.0, std::stod(m[5])};
    }
    return rows;
}

/// The EV in "exposure -6.58 EV" or "-6.58 EV"; NaN where there is none.
double evOf(const std::string& text)
{
    std::smatch m;
    return std::regex_search(text, m, std::regex(R"(([-+][0-9.]+) EV)")) ? std::stod(m[1]) : std::nan("");
}

/// `mask` (scaled to the tile by nearest pixel) leaves the light sources and the sky out of `clipped`.
Exposure measure(const image::Image8& sheet, int x0, int y0, int width, int height, const LightMask& mask = {})
{
    std::vector<double> lumas;
    std::size_t black = 0;
    std::size_t clipped = 0;
    for (int y = y0; y < y0 + height; ++y)
        for (int x = x0; x < x0 + width; ++x) {
            const std::uint8_t* p = sheet.at(x, y);
            black += std::max({p[0], p[1], p[2]}) <= kNearBlackLevel ? 1 : 0;
            lumas.push_back((0.2126 * p[0] + 0.7152 * p[1] + 0.0722 * p[2]) / 255.0);
            const bool light = !mask.lightOrSky.empty() &&
                               mask.lightOrSky[std::size_t((y - y0) * mask.height / height) * std::size_t(mask.width) +
                                               std::size_t((x - x0) * mask.width / width)] != 0;
            clipped += !light && std::min({p[0], p[1], p[2]}) >= kClippedLevel ? 1 : 0;
        }
    const std::size_t middle = lumas.size() / 2;
    std::nth_element(lumas.begin(), lumas.begin() + std::ptrdiff_t(middle), lumas.end());
    return {double(black) / double(lumas.size()), lumas[middle], double(clipped) / double(lumas.size())};
}

double luminanceOf(const image::ImageF& image, std::size_t pixel)
{
    const float* p = &image.pixels[4 * pixel];
    return 0.2126 * p[0] + 0.7152 * p[1] + 0.0722 * p[2];
}

/// The light sources and sky of a scene frame: pixels that keep kLightOrSkyShare of their luminance
/// when every surface is black (`lightsOnly`, the scene rendered by lightsOnlyScene's copy).
LightMask lightMaskOf(const fs::path& frame, const fs::path& lightsOnly)
{
    const image::ImageF full = image::loadHdrImage(frame);
    const image::ImageF lights = image::loadHdrImage(lightsOnly);
    LightMask mask{full.width, full.height, {}};
    EXPECT_TRUE(lights.width == full.width && lights.height == full.height);
    mask.lightOrSky.assign(std::size_t(full.width) * std::size_t(full.height), 0);
    for (std::size_t i = 0; i < mask.lightOrSky.size() && lights.width == full.width && lights.height == full.height;
         ++i) {
        const double l = luminanceOf(full, i);
        mask.lightOrSky[i] = l > 0.0 && luminanceOf(lights, i) >= kLightOrSkyShare * l ? 1 : 0;
    }
    return mask;
}

/// The tiles of a contact sheet, by the "tile N ID: picture X,Y WxH" lines tonemap prints.
std::vector<std::pair<std::string, Exposure>> sheetTiles(const std::string& output,
                                                         const fs::path& png,
                                                         const LightMask& mask)
{
    const image::Image8 sheet = image::loadImage8(png, 3);
    std::vector<std::pair<std::string, Exposure>> tiles;
    const std::regex line(R"(tile \d+ ([a-z+-]+): picture (\d+),(\d+) (\d+)x(\d+)[^\n]*?("[^"\n]*")?\n)");
    for (std::sregex_iterator it(output.begin(), output.end(), line), end; it != end; ++it) {
        const int x = std::stoi((*it)[2]), y = std::stoi((*it)[3]);
        const int w = std::stoi((*it)[4]), h = std::stoi((*it)[5]);
        if (x < 0 || y < 0 || w < 1 || h < 1 || x + w > sheet.width || y + h > sheet.height) {
            ADD_FAILURE() << "tile outside the sheet: " << it->str();
            continue;
        }
        Exposure e = measure(sheet, x, y, w, h, mask);
        if ((*it)[6].matched)
            e.keyValue = (*it)[6].str().substr(1, (*it)[6].length() - 2);  // the caption's last quoted text
        tiles.emplace_back((*it)[1], e);
    }
    return tiles;
}

std::string quoted(const fs::path& path)
{
    return "'" + path.string() + "'";
}

/// The scene's "description" text (empty when the file has none).
std::string sceneDescription(const fs::path& scene)
{
    std::ifstream in(scene);
    std::stringstream text;
    text << in.rdbuf();
    const std::string json = text.str();
    std::smatch match;
    return std::regex_search(json, match, std::regex(R"("description"\s*:\s*"([^"]*)\")")) ? match[1].str() : "";
}

/// A copy of `scene` in `dir` with every base colour black: what is left lit is emission and sky (and a
/// dielectric's few per cent of specular reflection). glTF paths are made absolute (they are relative
/// to the scene's folder; environment maps are relative to the data folder and stay as they are).
fs::path lightsOnlyScene(const fs::path& scene, const fs::path& dir)
{
    std::ifstream in(scene);
    std::stringstream text;
    text << in.rdbuf();
    std::string json =
        std::regex_replace(text.str(), std::regex(R"("baseColor"\s*:\s*\[[^\]]*\])"), R"("baseColor": [0, 0, 0])");
    json = std::regex_replace(json, std::regex(R"("gltf"\s*:\s*")"),
                              "\"gltf\": \"" + fs::absolute(scene).parent_path().string() + "/");
    const fs::path out = dir / "lights-only.json";
    std::ofstream(out) << json;
    return out;
}

/// The luminance display curves (the RGB transforms have their own tiles on the operator sheet).
std::vector<std::string> luminanceCurves()
{
    std::vector<std::string> out;
    for (int curve = 0; curve < post::kDisplayCurveCount; ++curve)
        if (!post::isRgbTransform(post::DisplayCurve(curve)))
            out.emplace_back(post::toString(post::DisplayCurve(curve)));
    return out;
}

/// The bounds a tile may be exempt from (Exemption::bounds, a mask).
enum Bound : unsigned { kNearBlackBound = 1, kDarkMedianBound = 2, kBrightMedianBound = 4, kClippedBound = 8 };

struct Exemption
{
    unsigned bounds = 0;
    const char* why = "";
};

/// Defaults that miss a bound by design, each with its reason (docs/TONE_OPERATORS.md, "Defaults"), by
/// {input stem or "*" (every input), tile id without its local exposure prefix}: local exposure on top
/// changes none of the reasons.
const std::map<std::pair<std::string, std::string>, Exemption>& boundExemptions()
{
    static const std::map<std::pair<std::string, std::string>, Exemption> exemptions = {
        {{"*", "exposure"},
         {kBrightMedianBound | kClippedBound,
          "a fixed exposure does not look at the picture: EV 0 shows 1 cd/m2 as 0.5 (Reinhard), and the scenes' "
          "medians span 1e-2..1e4 cd/m2, 20 EV against the upper and lower bounds' window of about 5 EV"}},
        {{"*", "equalize"},
         {kBrightMedianBound,
          "equalization sets the median by construction: the middle pixel gets half the display range (sRGB "
          "0.74), above 0.8 where the frame has a wide flat bright band (sky, sunlit facades)"}},
        {{"*", "clahe"},
         {kBrightMedianBound,
          "each tile is equalized to its own range: a frame of mostly sky or sunlit tiles puts its median at "
          "0.87..0.90 (equalization, not an exposure choice)"}},
        {{"*", "percentile+clamp"},
         {kClippedBound, "clamp is min(x, 1): everything above the exposure's white is white by definition"}},
        {{"MtTamWest", "percentile+agx-punchy"},
         {kNearBlackBound,
          "the punchy look's power 1.35 after AgX's toe darkens the photograph's shaded foreground: 37 % near "
          "black (the base agx: 14 %)"}},
        {{"sunset-street", "percentile+pbr-neutral"},
         {kDarkMedianBound,
          "PBR Neutral is linear below 0.76 (no toe lift) and the percentile's key 0.18 is Reinhard's: the "
          "street's shaded half lands at median 0.074"}},
    };
    return exemptions;
}

unsigned exemptBounds(const std::string& stem, std::string id)
{
    for (const char* prefix : {"local-exposure/", "local-exposure-fusion/"})
        if (id.rfind(prefix, 0) == 0)
            id = id.substr(std::string(prefix).size());
    unsigned bounds = 0;
    const auto& e = boundExemptions();
    for (const std::string& input : {stem, std::string("*")})
        if (const auto it = e.find({input, id}); it != e.end())
            bounds |= it->second.bounds;
    return bounds;
}

class ExposureCriterionCli : public testing::TestWithParam<Input>
{
protected:
    /// Tone-maps `hdr` into a sheet of every operator and one of every preset; the tiles, named by operator
    /// (the percentile operator's tile of the preset sheet as "percentile/none").
    std::vector<std::pair<std::string, Exposure>> tonemapAll(const fs::path& hdr,
                                                             const std::string& operatorFlags,
                                                             const LightMask& mask)
    {
        std::vector<std::pair<std::string, Exposure>> all;
        const auto run = [&](const std::string& selection, const std::string& flags, const std::string& stem,
                             const std::string& prefix) {
            const fs::path sheet = dir / (stem + ".png");
            const auto result =
                cli_test::runIn(dir, hdrlab("tonemap " + quoted(hdr) + " -o " + quoted(sheet) + " " + selection +
                                            " --sheet-tile-width 160 " + flags + " --log-level warning"));
            EXPECT_EQ(result.exitCode, 0) << result.output;
            if (result.exitCode != 0)
                return;
            for (auto& [id, exposure] : sheetTiles(result.output, sheet, mask))
                all.emplace_back(prefix + id, exposure);
        };
        run("--operator all", operatorFlags, "operators", "");
        run("--preset all", "", "presets", "percentile/");
        // Every operator again with local exposure on, at Unreal's template values (issue 34).
        run("--operator all", operatorFlags + " " + std::string(kLocalExposureFlags), "local-exposure",
            "local-exposure/");
        run("--operator all", operatorFlags + " " + std::string(kFusionFlags), "local-exposure-fusion",
            "local-exposure-fusion/");
        // The percentile operator under each luminance display curve (its default among them).
        for (const std::string& curve : luminanceCurves()) {
            const fs::path png = dir / ("curve-" + curve + ".png");
            const auto result = cli_test::runIn(
                dir, hdrlab("tonemap " + quoted(hdr) + " -o " + quoted(png) + " --operator percentile " +
                            operatorFlags + " --set percentile.display_curve=" + curve + " --log-level warning"));
            EXPECT_EQ(result.exitCode, 0) << result.output;
            if (result.exitCode != 0)
                continue;
            const image::Image8 picture = image::loadImage8(png, 3);
            all.emplace_back("percentile+" + curve, measure(picture, 0, 0, picture.width, picture.height, mask));
        }
        return all;
    }

    fs::path dir = testing_support::scratchDir("cli-exposure-criterion-" + GetParam().name);
};

TEST_P(ExposureCriterionCli, WellExposedAtTheDefaults)
{
    const Input& input = GetParam();
    fs::path hdr = input.path;
    std::string operatorFlags;
    LightMask mask;
    if (input.scene) {
        hdr = dir / "frame.exr";
        const auto renderTo = [&](const fs::path& scene, const fs::path& exr) {
            return cli_test::runIn(dir, hdrlab("--headless --size 160x90 --frames 3 --scene " + quoted(scene) +
                                               " --screenshot-exr " + quoted(exr) + " --log-level warning"));
        };
        const auto render = renderTo(input.path, hdr);
        ASSERT_EQ(render.exitCode, 0) << render.output;
        const fs::path lights = dir / "lights-only.exr";
        const auto lightsRender = renderTo(lightsOnlyScene(input.path, dir), lights);
        ASSERT_EQ(lightsRender.exitCode, 0) << lightsRender.output;
        mask = lightMaskOf(hdr, lights);
        const auto masked = std::count(mask.lightOrSky.begin(), mask.lightOrSky.end(), std::uint8_t(1));
        std::printf("%-22s light sources and sky: %5.1f %% of the frame\n", input.name.c_str(),
                    100.0 * double(masked) / double(std::max<std::size_t>(mask.lightOrSky.size(), 1)));
        operatorFlags = "--range -10:20 --set ward.sampling=frame";  // the live pipeline's defaults
    }
    const std::string stem = input.path.stem().string();
    const bool mostlyDark = input.scene && kMostlyDarkScenes.count(stem) > 0;
    if (mostlyDark) {
        const std::string description = sceneDescription(input.path);
        EXPECT_TRUE(description.find("dark") != std::string::npos || description.find("black") != std::string::npos)
            << stem << " is exempt as mostly dark, so its description must say so: " << description;
    }
    const auto tiles = tonemapAll(hdr, operatorFlags, mask);
    const std::size_t rgbTransforms = std::size_t(post::kDisplayCurveCount) - luminanceCurves().size();
    EXPECT_EQ(tiles.size(), 3 * (post::toneOperatorRegistry().size() + rgbTransforms) + 1 +
                                post::enginePresets().size() + luminanceCurves().size())
        << "every registered operator and RGB display transform (without and with local exposure, bilateral and "
           "fusion), the percentile operator with none and every engine preset, and under each luminance curve";
    for (const auto& [id, e] : tiles) {
        std::printf("%-22s %-34s near black %5.1f %%  median luma %.3f  clipped %5.1f %%  %s\n", input.name.c_str(),
                    id.c_str(), 100.0 * e.nearBlack, e.medianLuma, 100.0 * e.clipped, e.keyValue.c_str());
        const bool enginePreset = id.rfind("percentile/", 0) == 0 && id != "percentile/none";
        const bool fixedExposure =
            id == "exposure" || id == "local-exposure/exposure" || id == "local-exposure-fusion/exposure";
        if (mostlyDark || (!input.scene && (fixedExposure || enginePreset)) || kEngineExemptions.count({stem, id}))
            continue;
        const unsigned exempt = exemptBounds(stem, id);
        if (!(exempt & kNearBlackBound))
            EXPECT_LE(e.nearBlack, kMaxNearBlack) << id << " on " << input.name << ": too much near black";
        if (!(exempt & kDarkMedianBound))
            EXPECT_GE(e.medianLuma, kMinMedianLuma) << id << " on " << input.name << ": too dark a median";
        if (!(exempt & kBrightMedianBound))
            EXPECT_LE(e.medianLuma, kMaxMedianLuma) << id << " on " << input.name << ": too bright a median";
        if (!(exempt & kClippedBound))
            EXPECT_LE(e.clipped, kMaxClipped) << id << " on " << input.name << ": too much clipped to white";
    }
    if (input.scene && stem == "default") {
        // The docs quote these figures: they must be what the command gives now.
        const auto documented = documentedDefaults();
        EXPECT_GE(documented.size(), 7u) << "docs/TONE_OPERATORS.md's default-scene table was not found";
        for (const auto& [id, e] : tiles) {
            const auto row = documented.find(id);
            if (row == documented.end())
                continue;
            const DocumentedRow& doc = row->second;
            EXPECT_NEAR(e.medianLuma, doc.medianLuma, 0.01) << id << ": docs/TONE_OPERATORS.md's median luma is stale";
            EXPECT_NEAR(e.nearBlack, doc.nearBlack, 0.003) << id << ": docs/TONE_OPERATORS.md's near black is stale";
            if (!std::isnan(evOf(doc.exposure)))
                EXPECT_NEAR(evOf(e.keyValue), evOf(doc.exposure), 0.02)
                    << id << ": docs/TONE_OPERATORS.md's exposure is stale (tile caption '" << e.keyValue << "')";
        }
        // The criterion can fail: the percentile operator with its old default (the 99th percentile to white
        // however far that pulls the median down) blackens the default room.
        const fs::path png = dir / "old-default.png";
        const auto result = cli_test::runIn(
            dir, hdrlab("tonemap " + quoted(hdr) + " -o " + quoted(png) + " --operator percentile " + operatorFlags +
                        " --set percentile.max_highlight_pull_ev=64 --log-level warning"));
        ASSERT_EQ(result.exitCode, 0) << result.output;
        const image::Image8 picture = image::loadImage8(png, 3);
        const Exposure e = measure(picture, 0, 0, picture.width, picture.height);
        std::printf("%-22s %-24s near black %5.1f %%  median luma %.3f (must fail)\n", input.name.c_str(),
                    "percentile, old default", 100.0 * e.nearBlack, e.medianLuma);
        EXPECT_TRUE(e.nearBlack > kMaxNearBlack || e.medianLuma < kMinMedianLuma)
            << "the old default passes: near black " << e.nearBlack << ", median " << e.medianLuma;
        // The table's two other percentile rows: the old default above and the highlight limit off.
        const auto row = [&](const std::string& start) {
            std::ifstream in(testing_support::sourceDir() / "docs" / "TONE_OPERATORS.md");
            std::string line;
            while (std::getline(in, line))
                if (line.rfind(start, 0) == 0)
                    return line;
            ADD_FAILURE() << "docs/TONE_OPERATORS.md has no row starting " << start;
            return line;
        };
        const auto expectRow = [&](const std::string& line, const Exposure& measured, const std::string& what) {
            std::smatch m;
            if (!std::regex_search(line, m, std::regex(R"(\| ([0-9.]+) % \| ([0-9.]+) \|$)"))) {
                ADD_FAILURE() << what << ": no figures in " << line;
                return;
            }
            EXPECT_NEAR(measured.nearBlack, std::stod(m[1]) / 100.0, 0.003) << what << ": the docs are stale";
            EXPECT_NEAR(measured.medianLuma, std::stod(m[2]), 0.01) << what << ": the docs are stale";
        };
        expectRow(row("| `percentile` before issue 26 |"), e, "percentile, old default");
        const fs::path off = dir / "limit-off.png";
        const auto offRun = cli_test::runIn(
            dir, hdrlab("tonemap " + quoted(hdr) + " -o " + quoted(off) + " --operator percentile " + operatorFlags +
                        " --set percentile.limit_highlights=false --log-level warning"));
        ASSERT_EQ(offRun.exitCode, 0) << offRun.output;
        const image::Image8 offPicture = image::loadImage8(off, 3);
        const Exposure offE = measure(offPicture, 0, 0, offPicture.width, offPicture.height);
        std::printf("%-22s %-24s near black %5.1f %%  median luma %.3f\n", input.name.c_str(), "percentile, limit off",
                    100.0 * offE.nearBlack, offE.medianLuma);
        expectRow(row("| `percentile`, limit off |"), offE, "percentile, limit off");
    }
}

INSTANTIATE_TEST_SUITE_P(Defaults,
                         ExposureCriterionCli,
                         testing::ValuesIn(inputs()),
                         [](const testing::TestParamInfo<Input>& info) { return info.param.name; });

}  // namespace
