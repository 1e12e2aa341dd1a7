// `hdrlab tonemap --operator all|--preset all` (commands/tonemap/TonemapAll.h) in the shared test context on a small
// synthetic EXR: the printed layout (one tile per operator or preset, both caption labels present),
// each tile's picture equal to the single `tonemap --operator ID` (or `--preset ID`) PNG downscaled the
// same way, the one histogram and the combined curve CSV against the single runs' CSVs, and the same
// sheet bytes on a second run; a --settings file naming an operator does not replace the tiles' own.
#include "commands/tonemap/ContactSheet.h"
#include "commands/tonemap/TonemapAll.h"
#include "commands/tonemap/TonemapCore.h"
#include "image/ImageIo.h"
#include "post/tonemap/EnginePresets.h"
#include "post/tonemap/ToneOperator.h"
#include "support/GlTestEnvironment.h"
#include "support/HistogramTestSupport.h"
#include "support/TestPaths.h"

#include <cmath>
#include <fstream>
#include <regex>
#include <sstream>

namespace ts = testing_support;

namespace {

struct PrintedTile
{
    std::string name;
    app::SheetRect picture;
    std::string title;
    std::string keyValue;
};

/// The `tile N NAME: picture X,Y WxH, ...: "TITLE" "KEY VALUE"` lines of a sheet run's output.
std::vector<PrintedTile> printedTiles(const std::string& output)
{
    static const std::regex kTile(
        R"re(^tile (\d+) (\S+): picture (\d+),(\d+) (\d+)x(\d+), caption \S+ \S+, curve \S+ \S+: "(.*)" "(.*)"$)re");
    std::vector<PrintedTile> tiles;
    std::istringstream lines(output);
    for (std::string line; std::getline(lines, line);) {
        std::smatch m;
        if (!std::regex_match(line, m, kTile))
            continue;
        EXPECT_EQ(std::stoul(m[1]), tiles.size() + 1) << line;
        tiles.push_back({m[2], {std::stoi(m[3]), std::stoi(m[4]), std::stoi(m[5]), std::stoi(m[6])}, m[7], m[8]});
    }
    return tiles;
}

std::string readText(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

/// Column `index` of a CSV (header included), one cell per line.
std::vector<std::string> csvColumn(const std::string& csv, std::size_t index)
{
    std::vector<std::string> column;
    std::istringstream lines(csv);
    for (std::string line; std::getline(lines, line);) {
        std::istringstream cells(line);
        std::string cell;
        for (std::size_t i = 0; i <= index && std::getline(cells, cell, ','); ++i) {
        }
        column.push_back(cell);
    }
    return column;
}

class TonemapSheet : public ts::GlTest
{
protected:
    void SetUp() override
    {
        scratch = ts::scratchDir("tonemap-sheet");
        // A ramp over 14 EV with a bright patch: every operator has something to adapt to.
        image::ImageF hdr(200, 120);
        for (int y = 0; y < hdr.height; ++y)
            for (int x = 0; x < hdr.width; ++x) {
                float* p = hdr.at(x, y);
                const float L = std::exp2(-8.0f + 14.0f * float(x) / float(hdr.width - 1));
                const bool patch = x > 150 && y < 30;
                p[0] = L * (0.6f + 0.4f * float(y) / float(hdr.height)) * (patch ? 8.0f : 1.0f);
                p[1] = L * (patch ? 8.0f : 1.0f);
                p[2] = L * 0.7f;
                p[3] = 1.0f;
            }
        input = scratch / "ramp.exr";
        image::writeExr(input, hdr, image::ExrPixelType::Float);
    }

    int run(const app::TonemapOptions& options)
    {
        out.str("");
        err.str("");
        return app::tonemapImage(options, ts::shaderLibrary(), ts::testGpuCaps(), out, err);
    }

    app::TonemapOptions options(const std::string& output) const
    {
        app::TonemapOptions o;
        o.input = input;
        o.output = scratch / output;
        o.sheetTileWidth = 128;
        return o;
    }

    /// The single run's PNG downscaled as the sheet does, against the sheet's pixels at `tile`.
    void expectTileIsTheSingleRun(const image::Image8& sheet, const PrintedTile& tile, app::TonemapOptions single)
    {
        single.output = scratch / ("single-" + tile.name + ".png");
        ASSERT_EQ(run(single), 0) << err.str();
        const image::Image8 expected = app::downscaleToWidth(image::loadImage8(single.output, 3), 128);
        ASSERT_EQ(expected.width, tile.picture.width) << tile.name;
        ASSERT_EQ(expected.height, tile.picture.height) << tile.name;
        int differing = 0;
        for (int y = 0; y < expected.height; ++y)
            for (int x = 0; x < expected.width; ++x)
                if (!std::equal(expected.at(x, y), expected.at(x, y) + 3,
                                sheet.at(tile.picture.x + x, tile.picture.y + y)))
                    ++differing;
        EXPECT_EQ(differing, 0) << tile.name << ": the tile is not the single run's picture";
    }

    std::filesystem::path scratch;
    std::filesystem::path input;
    std::ostringstream out;
    std::ostringstream err;
};

TEST_F(TonemapSheet, OperatorAllTilesAreTheSingleRunsAndTheSheetRepeats)
{
    const auto& registry = post::toneOperatorRegistry();
    if (registry.empty())
        GTEST_SKIP() << "no tone operator registered";
    app::TonemapOptions all = options("sheet.png");
    all.toneOperator = "all";
    all.curveOut = scratch / "curves.csv";
    all.histogramOut = scratch / "histogram.csv";
    ASSERT_EQ(run(all), 0) << err.str();
    const std::string printed = out.str();
    const std::vector<PrintedTile> tiles = printedTiles(printed);
    // Every operator, then the percentile operator under each RGB display transform ("percentile+agx").
    const std::vector<app::TonemapRun> runs = app::tonemapRuns(all);
    ASSERT_EQ(tiles.size(), runs.size()) << printed;
    ASSERT_GT(runs.size(), registry.size());
    for (std::size_t i = registry.size(); i < runs.size(); ++i)
        EXPECT_EQ(tiles[i].name.rfind("percentile+", 0), 0u) << tiles[i].name;
    EXPECT_NE(printed.find("contact sheet of " + std::to_string(runs.size())), std::string::npos) << printed;
    const image::Image8 sheet = image::loadImage8(all.output, 3);
    for (std::size_t i = 0; i < registry.size(); ++i) {
        const std::string id(registry[i].id);
        EXPECT_EQ(tiles[i].name, id);
        EXPECT_EQ(tiles[i].title.rfind(id + "  ", 0), 0u) << tiles[i].title;
        EXPECT_GT(tiles[i].title.size(), id.size() + 2) << "the operator's label follows its id";
        EXPECT_FALSE(tiles[i].keyValue.empty());
        EXPECT_EQ(tiles[i].keyValue == "no key value", registry[i].create()->keyValueName().empty())
            << tiles[i].keyValue;
        EXPECT_EQ(tiles[i].picture.width, 128);
        EXPECT_EQ(tiles[i].picture.height, 77);  // 120 * 128 / 200 = 76.8
        app::TonemapOptions single = options("");
        single.toneOperator = id;
        if (i == 0) {
            single.curveOut = scratch / "single-curve.csv";
            single.histogramOut = scratch / "single-histogram.csv";
        }
        expectTileIsTheSingleRun(sheet, tiles[i], single);
        if (i == 0) {
            // The one histogram is the first operator's; the curve CSV starts with its x and Ld columns.
            EXPECT_EQ(readText(*all.histogramOut), readText(*single.histogramOut));
            const std::string curves = readText(*all.curveOut);
            const std::string singleCurve = readText(*single.curveOut);
            std::vector<std::string> ld = csvColumn(singleCurve, 1);
            ld.front() = id;  // the column is named after the operator
            EXPECT_EQ(csvColumn(curves, 0), csvColumn(singleCurve, 0));
            EXPECT_EQ(csvColumn(curves, 1), ld);
            EXPECT_EQ(curves.substr(0, curves.find('\n')).find("log2_Lw," + id + ","), 0u);
        }
    }

    // The same input gives the same bytes.
    const std::string firstBytes = readText(all.output);
    app::TonemapOptions again = all;
    again.output = scratch / "sheet-again.png";
    ASSERT_EQ(run(again), 0) << err.str();
    EXPECT_EQ(readText(again.output), firstBytes);
}

TEST_F(TonemapSheet, PresetAllHasNoneAndEachEnginePreset)
{
    app::TonemapOptions all = options("presets.png");
    all.preset = "all";
    ASSERT_EQ(run(all), 0) << err.str();
    const std::vector<PrintedTile> tiles = printedTiles(out.str());
    ASSERT_EQ(tiles.size(), post::enginePresets().size() + 1) << out.str();
    EXPECT_EQ(tiles[0].name, "none");
    for (std::size_t i = 1; i < tiles.size(); ++i) {
        EXPECT_EQ(tiles[i].name, post::enginePresets()[i - 1].id);
        EXPECT_EQ(tiles[i].keyValue.rfind("exposure ", 0), 0u) << tiles[i].keyValue;
    }
    // The unreal tile is `tonemap --preset unreal`.
    const image::Image8 sheet = image::loadImage8(all.output, 3);
    app::TonemapOptions single = options("");
    single.preset = "unreal";
    expectTileIsTheSingleRun(sheet, tiles[1], single);
    EXPECT_NE(out.str().find("with percentile (compute-shared-atomic, 64 bins"), std::string::npos)
        << "the single preset run is a plain tonemap with the preset's histogram: " << out.str();
}

TEST_F(TonemapSheet, SettingsFileOperatorDoesNotReplaceTheTilesOperators)
{
    const auto& registry = post::toneOperatorRegistry();
    if (registry.size() < 2)
        GTEST_SKIP() << "fewer than two tone operators registered";
    app::TonemapOptions all = options("settings.png");
    all.toneOperator = "all";
    all.settingsFile = scratch / "settings.json";
    std::ofstream(*all.settingsFile) << "{\"tonemap.operator\": \"" << registry.back().id << "\"}\n";
    ASSERT_EQ(run(all), 0) << err.str();
    const std::vector<PrintedTile> tiles = printedTiles(out.str());
    ASSERT_GE(tiles.size(), registry.size()) << out.str();  // then the RGB display transforms' tiles
    for (std::size_t i = 0; i < registry.size(); ++i) {
        const std::string label(registry[i].create()->label());
        EXPECT_EQ(tiles[i].title, std::string(registry[i].id) + "  " + label) << "the tile ran its own operator";
    }
}

TEST_F(TonemapSheet, BadCombinationGivesOneErrorLine)
{
    app::TonemapOptions all = options("bad.png");
    all.toneOperator = "all";
    all.probes = {{1, 1}};
    EXPECT_EQ(run(all), 2);  // a bad combination is a bad command line
    EXPECT_EQ(err.str(), "hdrlab: error: --operator all with --probe: probe one operator's picture (--operator ID)\n");
    EXPECT_FALSE(std::filesystem::exists(all.output));
}

}  // namespace
