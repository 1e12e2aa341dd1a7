// The contact sheet of `tonemap --operator all|--preset all` without GL (commands/tonemap/ContactSheet.h,
// commands/tonemap/TonemapAll.h, ui/CpuText.h): the layout (one tile per run, nothing overlapping, inside the
// sheet), the drawing (each picture copied exactly, every caption line drawn, the same bytes twice),
// the box-filter downscale, the text of ImGui's font on the CPU, the combined curve CSV, the key value
// text, and the runs a selection stands for with its refusals.
#include "commands/tonemap/ContactSheet.h"
#include "commands/tonemap/TonemapAll.h"
#include "post/tonemap/EnginePresets.h"
#include "post/tonemap/ToneOperator.h"
#include "shared/HostDevice.h"
#include "ui/CpuText.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

namespace {

bool overlap(const app::SheetRect& a, const app::SheetRect& b)
{
    return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

bool inside(const app::SheetRect& r, int width, int height)
{
    return r.x >= 0 && r.y >= 0 && r.width > 0 && r.height > 0 && r.x + r.width <= width && r.y + r.height <= height;
}

/// Pixels of `rect` in `image` that differ from `background`.
int pixelsUnlike(const image::Image8& image, const app::SheetRect& rect, std::array<std::uint8_t, 3> background)
{
    int count = 0;
    for (int y = rect.y; y < rect.y + rect.height; ++y)
        for (int x = rect.x; x < rect.x + rect.width; ++x)
            if (!std::equal(background.begin(), background.end(), image.at(x, y)))
                ++count;
    return count;
}

/// A LUT curve buffer: `samples` values over [logMin, logMax] from f(i).
template <typename F>
std::vector<float> lutCurve(float logMin, float logMax, int samples, F f, int channels = 1)
{
    std::vector<float> curve(hd::kCurveBufferWords, 0.0f);
    curve[hd::kCurveLogMin] = logMin;
    curve[hd::kCurveLogMax] = logMax;
    curve[hd::kCurveSampleCount] = float(samples);
    curve[hd::kCurveChannels] = float(channels);
    curve[hd::kCurveMode] = hd::kCurveModeLut;
    for (int c = 0; c < channels; ++c)
        for (int i = 0; i < samples; ++i)
            curve[hd::kCurveHeaderWords + std::size_t(c) * hd::kMaxCurveSamples + std::size_t(i)] = f(i, c);
    return curve;
}

image::Image8 gradient(int width, int height)
{
    image::Image8 picture(width, height, 3);
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            std::uint8_t* p = picture.at(x, y);
            p[0] = std::uint8_t(x * 255 / std::max(1, width - 1));
            p[1] = std::uint8_t(y * 255 / std::max(1, height - 1));
            p[2] = std::uint8_t((x + y) % 256);
        }
    return picture;
}

app::ContactSheetContent sheetContent(std::size_t tiles, int width, int height)
{
    app::ContactSheetContent content;
    content.title = "title";
    content.subtitle = "subtitle";
    content.histogramTitle = "histogram";
    content.histogram.bins = {0, 5, 40, 100, 30, 3, 0, 1};
    content.histogram.logMin = -4.0f;
    content.histogram.logMax = 4.0f;
    for (std::size_t i = 0; i < tiles; ++i) {
        app::SheetTile tile;
        tile.name = "op" + std::to_string(i);
        tile.description = "Operator number " + std::to_string(i);
        tile.keyValue = "exposure +" + std::to_string(i) + ".00 EV";
        tile.picture = gradient(width, height);
        tile.picture.pixels[0] = std::uint8_t(i);  // each tile its own
        tile.curve = lutCurve(-4.0f, 4.0f, 64, [&](int s, int) { return float(s) / 63.0f / float(i + 1); });
        content.tiles.push_back(std::move(tile));
    }
    return content;
}

TEST(ContactSheet, LayoutHasOneTilePerRunInsideTheSheetWithoutOverlap)
{
    for (std::size_t count : {1u, 2u, 3u, 4u, 5u, 9u}) {
        const app::ContactSheetLayout layout = app::layOutContactSheet(count, 200, 120);
        ASSERT_EQ(layout.tiles.size(), count);
        std::size_t columns = 1;
        while (columns * columns < count)
            ++columns;
        EXPECT_EQ(layout.columns, int(columns)) << count;
        std::vector<app::SheetRect> parts{layout.header, layout.histogram};
        for (const app::SheetTileLayout& tile : layout.tiles) {
            EXPECT_EQ(tile.picture.width, 200);
            EXPECT_EQ(tile.picture.height, 120);
            EXPECT_GE(tile.caption.y, tile.picture.y + tile.picture.height) << "the caption is under its picture";
            EXPECT_GE(tile.caption.height, 3 * ui::textLineHeight()) << "three caption lines";
            parts.insert(parts.end(), {tile.picture, tile.caption, tile.thumbnail});
        }
        for (std::size_t i = 0; i < parts.size(); ++i) {
            EXPECT_TRUE(inside(parts[i], layout.width, layout.height)) << count << " tiles, part " << i;
            for (std::size_t j = i + 1; j < parts.size(); ++j)
                EXPECT_FALSE(overlap(parts[i], parts[j])) << count << " tiles, parts " << i << " and " << j;
        }
        EXPECT_GT(layout.histogram.y, layout.tiles.back().caption.y) << "the histogram is below the tiles";
    }
    EXPECT_THROW(app::layOutContactSheet(0, 200, 120), std::invalid_argument);
}

TEST(ContactSheet, DrawsEveryPictureExactlyAndEveryCaptionLine)
{
    const app::ContactSheetContent content = sheetContent(4, 150, 90);
    const app::ContactSheetLayout layout = app::layOutContactSheet(4, 150, 90);
    const image::Image8 sheet = app::drawContactSheet(content, layout);
    ASSERT_EQ(sheet.width, layout.width);
    ASSERT_EQ(sheet.height, layout.height);
    ASSERT_EQ(sheet.channels, 3);
    const std::array<std::uint8_t, 3> background{sheet.at(0, 0)[0], sheet.at(0, 0)[1], sheet.at(0, 0)[2]};
    for (std::size_t i = 0; i < content.tiles.size(); ++i) {
        const app::SheetTileLayout& tile = layout.tiles[i];
        for (int y = 0; y < 90; ++y)
            for (int x = 0; x < 150; ++x)
                ASSERT_TRUE(std::equal(sheet.at(tile.picture.x + x, tile.picture.y + y),
                                       sheet.at(tile.picture.x + x, tile.picture.y + y) + 3,
                                       content.tiles[i].picture.at(x, y)))
                    << "tile " << i << " pixel " << x << "," << y;
        // Each of the three caption lines has lettering: none of the rows is blank.
        const int pitch = tile.caption.height / 3;
        for (int line = 0; line < 3; ++line) {
            const app::SheetRect row{tile.caption.x + 16, tile.caption.y + line * pitch, tile.caption.width - 16,
                                     ui::textLineHeight()};
            EXPECT_GT(pixelsUnlike(sheet, row, background), 20) << "tile " << i << " caption line " << line;
        }
        // The swatch has the tile's curve colour.
        const auto colour = app::sheetCurveColour(i);
        EXPECT_TRUE(std::equal(colour.begin(), colour.end(), sheet.at(tile.caption.x + 2, tile.caption.y + 4)));
        EXPECT_GT(pixelsUnlike(sheet, tile.thumbnail, background), tile.thumbnail.width * 4) << "curve thumbnail";
    }
    EXPECT_GT(pixelsUnlike(sheet, layout.header, background), 100) << "title lines";
    EXPECT_GT(pixelsUnlike(sheet, layout.histogram, background), 1000) << "histogram panel";

    const image::Image8 again = app::drawContactSheet(content, layout);
    EXPECT_EQ(again.pixels, sheet.pixels) << "the same content gives the same bytes";

    app::ContactSheetContent wrongSize = content;
    wrongSize.tiles[1].picture = gradient(149, 90);
    EXPECT_THROW(app::drawContactSheet(wrongSize, layout), std::invalid_argument);
}

TEST(ContactSheet, CurveColoursAreDistinctAndNotTheHistogramsRed)
{
    for (std::size_t i = 0; i < 8; ++i) {
        const auto a = app::sheetCurveColour(i);
        EXPECT_FALSE(a[0] > 200 && a[1] < 80 && a[2] < 80) << i;
        for (std::size_t j = i + 1; j < 8; ++j)
            EXPECT_NE(a, app::sheetCurveColour(j)) << i << " " << j;
    }
}

TEST(ContactSheet, DownscaleIsABoxFilterInLinearLight)
{
    // A 2x2 black/white checker halves to one mid-grey pixel per 2x2 block: linear 0.5 -> sRGB 188.
    image::Image8 checker(8, 4, 3);
    for (int y = 0; y < 4; ++y)
        for (int x = 0; x < 8; ++x)
            std::fill_n(checker.at(x, y), 3, std::uint8_t((x + y) % 2 ? 255 : 0));
    const image::Image8 half = app::downscaleToWidth(checker, 4);
    ASSERT_EQ(half.width, 4);
    ASSERT_EQ(half.height, 2);
    for (std::uint8_t value : half.pixels)
        EXPECT_EQ(value, 188);
    // A uniform colour stays itself at any ratio; the height keeps the aspect, rounded.
    image::Image8 flat(301, 97, 3);
    for (std::size_t i = 0; i < flat.pixels.size(); i += 3) {
        flat.pixels[i] = 10;
        flat.pixels[i + 1] = 128;
        flat.pixels[i + 2] = 250;
    }
    const image::Image8 small = app::downscaleToWidth(flat, 128);
    EXPECT_EQ(small.width, 128);
    EXPECT_EQ(small.height, 41);  // 97 * 128 / 301 = 41.25
    for (std::size_t i = 0; i < small.pixels.size(); i += 3) {
        ASSERT_EQ(small.pixels[i], 10);
        ASSERT_EQ(small.pixels[i + 1], 128);
        ASSERT_EQ(small.pixels[i + 2], 250);
    }
    EXPECT_EQ(app::downscaleToWidth(flat, 1).height, 1);
    // No upscaling: a picture no wider than the tile is kept as it is.
    EXPECT_EQ(app::downscaleToWidth(checker, 8).pixels, checker.pixels);
    EXPECT_EQ(app::downscaleToWidth(checker, 500).width, 8);
    EXPECT_THROW(app::downscaleToWidth(image::Image8(4, 4, 4), 2), std::invalid_argument);
}

TEST(ContactSheet, CpuTextDrawsImGuisFont)
{
    EXPECT_EQ(ui::textLineHeight(), 13);
    EXPECT_EQ(ui::textLineHeight(2), 26);
    EXPECT_EQ(ui::textWidth("abc"), 3 * ui::textWidth("a"));  // ProggyClean is monospaced
    EXPECT_EQ(ui::textWidth("abc", 2), 2 * ui::textWidth("abc"));
    EXPECT_EQ(ui::textWidth(""), 0);
    image::Image8 canvas(80, 20, 3);
    EXPECT_EQ(ui::drawText(canvas, 2, 2, "", {255, 255, 255}), 2);
    EXPECT_TRUE(std::all_of(canvas.pixels.begin(), canvas.pixels.end(), [](std::uint8_t v) { return v == 0; }));
    const int end = ui::drawText(canvas, 2, 2, "Hi 1.5", {255, 255, 255});
    EXPECT_EQ(end, 2 + ui::textWidth("Hi 1.5"));
    const int lit = pixelsUnlike(canvas, {0, 0, 80, 20}, {0, 0, 0});
    EXPECT_GT(lit, 20);
    EXPECT_EQ(pixelsUnlike(canvas, {0, 16, 80, 4}, {0, 0, 0}), 0) << "nothing below the line";
    ui::drawText(canvas, -5, -5, "clipped at the edges, no crash", {255, 0, 0});
}

TEST(ContactSheet, CombinedCurveCsvHasAColumnPerCurve)
{
    const auto ramp = lutCurve(-2.0f, 2.0f, 4, [](int i, int) { return 0.25f * float(i + 1); });
    const auto half = lutCurve(-2.0f, 2.0f, 4, [](int i, int) { return 0.125f * float(i + 1); });
    const auto other = lutCurve(-4.0f, 4.0f, 8, [](int i, int) { return 0.1f * float(i); });
    const auto rgb = lutCurve(
        -2.0f, 2.0f, 4, [](int i, int c) { return float(c) + 0.5f * float(i); }, 3);
    std::vector<float> linear(hd::kCurveBufferWords, 0.0f);
    linear[hd::kCurveMode] = hd::kCurveModeLinearScale;
    linear[hd::kCurveScale] = 0.5f;

    const std::string csv =
        app::combinedCurveCsv({"a", "b", "c", "d", "e"}, {ramp, half, other, rgb, linear}, -10.0f, 10.0f);
    std::istringstream lines(csv);
    std::string line;
    std::getline(lines, line);
    EXPECT_EQ(line, "log2_Lw,a,b,c,d_r,d_g,d_b,e");
    std::getline(lines, line);  // x = -1.5: the first sample of the first curve
    EXPECT_EQ(line.substr(0, line.find(',')), "-1.5");
    std::vector<double> values;
    std::istringstream cells(line);
    for (std::string cell; std::getline(cells, cell, ',');)
        values.push_back(std::stod(cell));
    ASSERT_EQ(values.size(), 8u);
    EXPECT_EQ(values[1], 0.25);   // a's sample
    EXPECT_EQ(values[2], 0.125);  // b's sample: the same positions
    // c: 8 samples over [-4, 4] (centres -3.5, -2.5, ...): -1.5 is sample 2 exactly.
    EXPECT_NEAR(values[3], 0.2, 1e-6);
    EXPECT_EQ(values[4], 0.0);
    EXPECT_EQ(values[5], 1.0);
    EXPECT_EQ(values[6], 2.0);
    EXPECT_NEAR(values[7], 0.5 * std::exp2(-1.5), 1e-6);  // the linear scale at x
    int rows = 0;
    while (std::getline(lines, line))
        ++rows;
    EXPECT_EQ(rows, 3) << "one row per sample of the first curve";

    // A linear-scale first curve: 256 positions over the histogram range, as tonemap's --curve-out.
    const std::string linearFirst = app::combinedCurveCsv({"e", "a"}, {linear, ramp}, -8.0f, 8.0f);
    EXPECT_EQ(std::count(linearFirst.begin(), linearFirst.end(), '\n'), 257);
    EXPECT_THROW(app::combinedCurveCsv({"a"}, {}, 0.0f, 1.0f), std::invalid_argument);
}

TEST(ContactSheet, KeyValueTextHasNameValueAndUnit)
{
    EXPECT_EQ(app::describeKeyValue("exposure", 1.25f), "exposure +1.25 EV");
    EXPECT_EQ(app::describeKeyValue("exposure", -0.5f), "exposure -0.50 EV");
    EXPECT_EQ(app::describeKeyValue("log-average", -2.0f), "log-average 0.25 (-2.00 EV)");
    EXPECT_EQ(app::describeKeyValue("median", std::nullopt), "median: none");
    EXPECT_EQ(app::describeKeyValue("", 1.0f), "no key value");
}

app::TonemapOptions selection(std::string op)
{
    app::TonemapOptions options;
    options.input = "in.exr";
    options.output = "out.png";
    options.toneOperator = std::move(op);
    return options;
}

TEST(ContactSheet, OperatorAllRunsEveryRegisteredOperator)
{
    app::TonemapOptions options = selection("all");
    options.flagAssignments = {"tonemap.operator=all", "histogram.bins=64"};
    options.settingAssignments = {"ward.bins=50"};
    options.curveOut = "curves.csv";
    ASSERT_TRUE(app::isTonemapSelection(options));
    const std::vector<app::TonemapRun> runs = app::tonemapRuns(options);
    // Every operator, then the percentile operator with each RGB display transform.
    const std::size_t operators = post::toneOperatorRegistry().size();
    ASSERT_EQ(runs.size(), operators + 3);
    const char* transforms[] = {"agx", "agx-punchy", "pbr-neutral"};
    for (std::size_t i = operators; i < runs.size(); ++i) {
        const std::string name = transforms[i - operators];
        EXPECT_EQ(runs[i].name, "percentile+" + name);
        EXPECT_EQ(runs[i].options.toneOperator, "percentile");
        EXPECT_EQ(runs[i].options.settingAssignments.back(), "percentile.display_curve=" + name);
    }
    for (std::size_t i = 0; i < operators; ++i) {
        const std::string id(post::toneOperatorRegistry()[i].id);
        EXPECT_EQ(runs[i].name, id);
        EXPECT_EQ(runs[i].options.toneOperator, id);
        EXPECT_FALSE(app::isTonemapSelection(runs[i].options));
        EXPECT_EQ(runs[i].options.flagAssignments,
                  (std::vector<std::string>{"histogram.bins=64", "tonemap.operator=" + id}));
        EXPECT_EQ(runs[i].options.settingAssignments, options.settingAssignments);
        EXPECT_FALSE(runs[i].options.curveOut) << "the sheet writes the one CSV";
    }
    EXPECT_FALSE(app::isTonemapSelection(selection("ward")));
}

TEST(ContactSheet, PresetAllRunsNoneThenEveryEnginePresetAsTheFirstSet)
{
    app::TonemapOptions options = selection("ward");
    options.preset = "all";
    options.settingAssignments = {"percentile.key=0.2"};
    const std::vector<app::TonemapRun> runs = app::tonemapRuns(options);
    ASSERT_EQ(runs.size(), post::enginePresets().size() + 1);
    EXPECT_EQ(runs[0].name, "none");
    EXPECT_EQ(runs[0].options.settingAssignments, options.settingAssignments);
    for (std::size_t i = 0; i < runs.size(); ++i) {
        EXPECT_EQ(runs[i].options.toneOperator, "percentile");
        EXPECT_FALSE(runs[i].options.preset);
        if (i == 0)
            continue;
        const std::string id(post::enginePresets()[i - 1].id);
        EXPECT_EQ(runs[i].name, id);
        EXPECT_EQ(runs[i].options.settingAssignments,
                  (std::vector<std::string>{"percentile.preset=" + id, "percentile.key=0.2"}));
    }
    options.preset = "unreal";  // one preset: one plain run
    ASSERT_EQ(app::tonemapRuns(options).size(), 1u);
}

TEST(ContactSheet, BadCombinationsAreRefusedWithOneLine)
{
    auto refusal = [](const app::TonemapOptions& options) -> std::string {
        try {
            app::tonemapRuns(options);
        } catch (const std::exception& error) {
            return error.what();
        }
        return "(accepted)";
    };
    std::vector<std::pair<app::TonemapOptions, std::string>> cases;
    app::TonemapOptions o = selection("all");
    o.preset = "all";
    cases.emplace_back(o, "--operator all and --preset");
    o = selection("all");
    o.probes = {{1, 1}};
    cases.emplace_back(o, "--operator all with --probe");
    o = selection("all");
    o.view = "false-colour";
    cases.emplace_back(o, "--operator all with --view false-colour");
    o = selection("all");
    o.verify = true;
    cases.emplace_back(o, "--operator all with --verify");
    o = selection("all");
    o.settingAssignments = {"tonemap.operator = ward"};
    cases.emplace_back(o, "--operator all with --set tonemap.operator");
    o = selection("all");
    o.sheetTileWidth = 64;
    cases.emplace_back(o, "--sheet-tile-width 64: must be 128..4096");
    o = selection("ward");
    o.preset = "all";
    o.flagAssignments = {"histogram.bins=64"};
    cases.emplace_back(o, "--preset all with --bins or --range");
    o = selection("ward");
    o.preset = "bevy";
    o.settingAssignments = {"percentile.preset=unreal"};
    cases.emplace_back(o, "--preset bevy with --set percentile.preset");
    o = selection("ward");
    o.preset = "unity";
    cases.emplace_back(o, "--preset 'unity': expected unreal, unity-hdrp, bevy, none or all");
    for (const auto& [options, message] : cases) {
        const std::string text = refusal(options);
        EXPECT_EQ(text.rfind(message, 0), 0u) << text;
        EXPECT_EQ(text.find('\n'), std::string::npos) << text;
    }
    // `none` is the percentile operator with its own settings: --bins applies to it.
    o = selection("ward");
    o.preset = "none";
    o.flagAssignments = {"histogram.bins=64"};
    EXPECT_EQ(refusal(o), "(accepted)");
}

}  // namespace
