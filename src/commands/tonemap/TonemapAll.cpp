#include "commands/tonemap/TonemapAll.h"

#include "commands/tonemap/ContactSheet.h"
#include "commands/tonemap/TonemapCore.h"
#include "image/ImageIo.h"
#include "post/PipelineParameters.h"
#include "post/SettingsFile.h"
#include "post/tonemap/EnginePresets.h"
#include "post/tonemap/ToneOperator.h"
#include "reference/Image.h"
#include "shared/HostDevice.h"
#include "util/Log.h"
#include "util/OutputFile.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <set>
#include <sstream>
#include <stdexcept>

namespace app {

namespace {

constexpr std::string_view kAll = "all";
constexpr std::string_view kNoPreset = "none";
constexpr unsigned kMinTileWidth = 128;
constexpr unsigned kMaxTileWidth = 4096;

/// The key of a KEY=VALUE text ("" when it has none).
std::string keyOf(const std::string& assignment)
{
    const std::size_t equals = assignment.find('=');
    std::string key = assignment.substr(0, equals == std::string::npos ? 0 : equals);
    key.erase(0, key.find_first_not_of(" \t"));
    key.erase(key.find_last_not_of(" \t") + 1);
    return key;
}

bool assigns(const std::vector<std::string>& assignments, std::string_view key)
{
    return std::any_of(assignments.begin(), assignments.end(),
                       [&](const std::string& text) { return keyOf(text) == key; });
}

/// The options of one plain run: operator `id`, also as a flag given (so that a --settings file's
/// operator does not replace it).
TonemapOptions runOptions(const TonemapOptions& options, const std::string& id)
{
    TonemapOptions run = options;
    run.toneOperator = id;
    run.preset.reset();
    std::erase_if(run.flagAssignments, [](const std::string& text) { return keyOf(text) == "tonemap.operator"; });
    run.flagAssignments.push_back("tonemap.operator=" + id);
    // Another operator's preset would only be parked in this tile's own pipeline (and warned about as
    // not in use): the sheet applies it to its operator's tile alone.
    std::erase_if(run.settingAssignments, [&](const std::string& text) {
        const std::string key(keyOf(text));
        return key.ends_with(".preset") && key.substr(0, key.find('.')) != id;
    });
    return run;
}

/// The percentile operator under `preset` (none: its own settings): the preset is the first --set.
TonemapOptions presetOptions(const TonemapOptions& options, const std::string& preset)
{
    TonemapOptions run = runOptions(options, "percentile");
    if (preset != kNoPreset)
        run.settingAssignments.insert(run.settingAssignments.begin(), "percentile.preset=" + preset);
    return run;
}

/// Whether --set or the settings file asks for an HDR10 display (the last assignment wins).
bool sheetWantsHdr10(const TonemapOptions& options)
{
    std::string target;
    if (options.settingsFile)
        for (const post::SettingAssignment& a : post::readSettingsFile(*options.settingsFile))
            if (a.key == "display.target")
                target = a.value;
    for (const std::string& text : options.settingAssignments)
        if (text.starts_with("display.target="))
            target = text.substr(text.find('=') + 1);
    return target == "hdr10";
}

void checkSelection(const TonemapOptions& options)
{
    const bool allOperators = options.toneOperator == kAll;
    const std::string what = allOperators ? "--operator all" : "--preset " + *options.preset;
    if (allOperators && options.preset)
        throw CliError("--operator all and --preset: give one (--preset runs the percentile operator)");
    if (options.preset && *options.preset != kAll && *options.preset != kNoPreset &&
        !post::findEnginePreset(*options.preset))
        throw CliError("--preset '" + *options.preset + "': expected " + post::enginePresetIds() + ", none or all");
    if (options.preset && *options.preset != kNoPreset) {
        if (assigns(options.flagAssignments, "histogram.bins") || assigns(options.flagAssignments, "histogram.range"))
            throw CliError(what +
                           " with --bins or --range: the engine presets set the histogram's bins and "
                           "range (refine them with --set)");
        if (assigns(options.settingAssignments, "percentile.preset"))
            throw CliError(what + " with --set percentile.preset: give the preset once");
    }
    const bool sheet = allOperators || options.preset == kAll;
    if (!sheet)
        return;
    if (assigns(options.settingAssignments, "tonemap.operator"))
        throw CliError(what + " with --set tonemap.operator: every tile has its own operator");
    if (!options.probes.empty())
        throw CliError(what + " with --probe: probe one operator's picture (--operator ID)");
    if (options.view != "tonemapped")
        throw CliError(what + " with --view " + options.view +
                       ": the sheet shows tone-mapped pictures (--operator ID for one view)");
    if (options.hdrExr)
        throw CliError(what +
                       " with --hdr-exr: the sheet is one 8-bit SDR picture; write one operator's HDR10 "
                       "display light with --operator ID --set display.target=hdr10");
    if (sheetWantsHdr10(options))
        throw CliError(what +
                       " with display.target=hdr10: the sheet is one 8-bit SDR picture of every operator; "
                       "tone-map one operator for HDR10 (--operator ID)");
    if (options.verify)
        throw CliError(what + " with --verify: verify one operator at a time (--operator ID)");
    if (options.sheetTileWidth < kMinTileWidth || options.sheetTileWidth > kMaxTileWidth)
        throw CliError(util::format("--sheet-tile-width {}: must be {}..{}", options.sheetTileWidth, kMinTileWidth,
                                    kMaxTileWidth));
}

/// `text`'s lines not printed before (each run of a sheet warns about the same --set alike).
void printNewLines(const std::string& text, std::set<std::string>& printed, std::ostream& err)
{
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);)
        if (!line.empty() && printed.insert(line).second)
            err << line << "\n";
}

std::string formatFloat(const char* format, double value)
{
    char text[64];
    std::snprintf(text, sizeof text, format, value);
    return text;
}

float paramFloat(const std::vector<std::uint32_t>& params, std::uint32_t index)
{
    return std::bit_cast<float>(params[index]);
}

std::string describeRect(const SheetRect& r)
{
    return util::format("{},{} {}x{}", r.x, r.y, r.width, r.height);
}

/// The sample positions (log2 Lw) of one curve's single-run --curve-out.
std::vector<double> curvePositions(const std::vector<float>& curve, float histogramLogMin, float histogramLogMax)
{
    std::vector<double> positions;
    if (curve[hd::kCurveMode] == hd::kCurveModeLinearScale) {
        constexpr int kSamples = 256;  // as tonemap's --curve-out
        for (int i = 0; i < kSamples; ++i)
            positions.push_back(histogramLogMin + (i + 0.5) * (double(histogramLogMax) - histogramLogMin) / kSamples);
        return positions;
    }
    const int samples = std::clamp(int(curve[hd::kCurveSampleCount]), 1, int(hd::kMaxCurveSamples));
    const double logMin = curve[hd::kCurveLogMin];
    const double logMax = curve[hd::kCurveLogMax];
    for (int i = 0; i < samples; ++i)
        positions.push_back(logMin + (i + 0.5) * (logMax - logMin) / samples);
    return positions;
}

bool sameLut(const std::vector<float>& a, const std::vector<float>& b)
{
    return a[hd::kCurveMode] != hd::kCurveModeLinearScale && b[hd::kCurveMode] != hd::kCurveModeLinearScale &&
           a[hd::kCurveLogMin] == b[hd::kCurveLogMin] && a[hd::kCurveLogMax] == b[hd::kCurveLogMax] &&
           a[hd::kCurveSampleCount] == b[hd::kCurveSampleCount];
}

int channelsOf(const std::vector<float>& curve)
{
    return curve[hd::kCurveMode] != hd::kCurveModeLinearScale && int(curve[hd::kCurveChannels]) == 3 ? 3 : 1;
}

}  // namespace

bool isTonemapSelection(const TonemapOptions& options)
{
    return options.toneOperator == kAll || options.preset.has_value();
}

std::vector<TonemapRun> tonemapRuns(const TonemapOptions& options)
{
    checkSelection(options);
    std::vector<TonemapRun> runs;
    if (options.toneOperator == kAll) {
        for (const post::ToneOperatorEntry& entry : post::toneOperatorRegistry())
            runs.push_back({std::string(entry.id), runOptions(options, std::string(entry.id))});
        if (runs.empty())
            throw std::invalid_argument("--operator all: no tone operator is registered");
        // The RGB display transforms, each after the percentile operator (its display curve set last,
        // so it wins over the settings): "percentile+agx" ...
        const auto& registry = post::toneOperatorRegistry();
        if (std::any_of(registry.begin(), registry.end(), [](const auto& e) { return e.id == "percentile"; }))
            for (int curve = 0; curve < post::kDisplayCurveCount; ++curve)
                if (post::isRgbTransform(post::DisplayCurve(curve))) {
                    const std::string name(post::toString(post::DisplayCurve(curve)));
                    TonemapRun run{"percentile+" + name, runOptions(options, "percentile")};
                    run.options.settingAssignments.push_back("percentile.display_curve=" + name);
                    runs.push_back(std::move(run));
                }
    } else if (options.preset == kAll) {
        runs.push_back({std::string(kNoPreset), presetOptions(options, std::string(kNoPreset))});
        for (const post::EnginePreset& preset : post::enginePresets())
            runs.push_back({std::string(preset.id), presetOptions(options, std::string(preset.id))});
    } else if (options.preset) {
        runs.push_back({*options.preset, presetOptions(options, *options.preset)});
    }
    for (TonemapRun& run : runs)
        if (runs.size() > 1) {  // a sheet's runs write nothing of their own
            run.options.curveOut.reset();
            run.options.histogramOut.reset();
        }
    return runs;
}

std::string describeKeyValue(const std::string& name, std::optional<float> ev)
{
    if (name.empty())
        return "no key value";
    if (!ev)
        return name + ": none";
    if (name == "exposure")  // an exposure: E in Lw * 2^E
        return name + " " + formatFloat("%+.2f", double(*ev)) + " EV";
    // A luminance of the scene (the histogram's axis): the value and its log2.
    return name + " " + formatFloat("%.3g", std::exp2(double(*ev))) + " (" + formatFloat("%+.2f", double(*ev)) + " EV)";
}

std::string combinedCurveCsv(const std::vector<std::string>& names,
                             const std::vector<std::vector<float>>& curves,
                             float histogramLogMin,
                             float histogramLogMax)
{
    if (curves.empty() || names.size() != curves.size())
        throw std::invalid_argument("combinedCurveCsv: one name per curve, at least one curve");
    for (const std::vector<float>& curve : curves)
        if (curve.size() < hd::kCurveBufferWords)
            throw std::invalid_argument("combinedCurveCsv: a curve buffer is too short");
    const std::vector<double> positions = curvePositions(curves.front(), histogramLogMin, histogramLogMax);
    std::ostringstream csv;
    csv.precision(9);
    csv << "log2_Lw";
    for (std::size_t k = 0; k < curves.size(); ++k) {
        if (channelsOf(curves[k]) == 3)
            csv << "," << names[k] << "_r," << names[k] << "_g," << names[k] << "_b";
        else
            csv << "," << names[k];
    }
    csv << "\n";
    for (std::size_t i = 0; i < positions.size(); ++i) {
        csv << positions[i];
        for (const std::vector<float>& curve : curves)
            for (int c = 0; c < channelsOf(curve); ++c) {
                csv << ",";
                if (sameLut(curve, curves.front()))
                    csv << curve[hd::kCurveHeaderWords + std::size_t(c) * hd::kMaxCurveSamples + i];
                else
                    csv << float(ref::evaluateCurve(curve.data(), c, std::exp2(positions[i])));
            }
        csv << "\n";
    }
    return csv.str();
}

int tonemapSelection(const TonemapOptions& options,
                     gl::ShaderLibrary& shaders,
                     const post::GpuCaps& caps,
                     std::ostream& out,
                     std::ostream& err)
{
    const std::vector<TonemapRun> runs = tonemapRuns(options);
    if (runs.size() == 1)
        return tonemapImage(runs.front().options, shaders, caps, out, err);

    std::vector<TonemapFrame> frames(runs.size());
    std::set<std::string> printed;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        std::ostringstream runErr;
        try {
            tonemapToFrame(runs[i].options, shaders, caps, runErr, frames[i]);
        } catch (const std::exception& error) {
            if (dynamic_cast<const CliError*>(&error))
                throw CliError(runs[i].name + ": " + error.what());
            throw std::runtime_error(runs[i].name + ": " + error.what());
        }
        printNewLines(runErr.str(), printed, err);
    }

    const TonemapFrame& first = frames.front();
    const std::vector<std::uint32_t>& params = first.params;
    const float logMin = paramFloat(params, hd::kParamLogMin);
    const float logMax = paramFloat(params, hd::kParamLogMax);
    const std::uint32_t bins = std::clamp(params[hd::kParamBinCount], 1u, hd::kMaxHistogramBins);

    ContactSheetContent content;
    const bool presets = options.preset == kAll;
    const std::string inputName = options.input.filename().string();
    content.title =
        util::format("hdrlab tonemap {} {}: {}, {}x{}", inputName, presets ? "--preset all" : "--operator all",
                     presets ? "the percentile operator under each engine preset" : "every tone operator",
                     first.picture.width, first.picture.height);
    content.subtitle =
        presets ? util::format("none's histogram: {} bins ({}), log2 L [{}, {}]; each preset meters its own", bins,
                               first.histogramMethod, formatFloat("%.2f", logMin), formatFloat("%.2f", logMax))
                : util::format("{} bins ({}), log2 L [{}, {}]; one frame each from a reset state", bins,
                               first.histogramMethod, formatFloat("%.2f", logMin), formatFloat("%.2f", logMax));
    content.histogramTitle = util::format("Histogram of {} ({} bins{}) and each tone curve: display 0..1 over log2 L",
                                          inputName, bins, presets ? ", none's" : "");
    content.histogram.bins.assign(first.histogram.begin(), first.histogram.begin() + bins);
    content.histogram.logMin = logMin;
    content.histogram.logMax = logMax;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        SheetTile tile;
        tile.name = runs[i].name;
        const std::size_t plus = runs[i].name.find('+');
        if (!presets && plus != std::string::npos)
            tile.description = runs[i].name.substr(plus + 1) + " display transform";  // fits the caption
        else if (!presets)
            tile.description = frames[i].toneOperatorLabel;
        else if (const post::EnginePreset* preset = post::findEnginePreset(runs[i].name))
            tile.description = "percentile, " + std::string(preset->label) + ", " +
                               std::string(post::toString(preset->settings.display.curve));
        else
            tile.description = "percentile, its own settings";
        tile.keyValue = describeKeyValue(frames[i].keyValueName, frames[i].keyValueEv);
        tile.picture = downscaleToWidth(frames[i].picture, int(options.sheetTileWidth));
        tile.curve = frames[i].curve;
        content.tiles.push_back(std::move(tile));
    }
    const image::Image8& picture = content.tiles.front().picture;
    const ContactSheetLayout layout = layOutContactSheet(content.tiles.size(), picture.width, picture.height);
    const image::Image8 sheet = drawContactSheet(content, layout);
    image::writePng(options.output, sheet);

    if (options.curveOut) {
        std::vector<std::string> names;
        std::vector<std::vector<float>> curves;
        for (std::size_t i = 0; i < runs.size(); ++i) {
            names.push_back(runs[i].name);
            curves.push_back(frames[i].curve);
        }
        util::writeTextOutput(*options.curveOut, combinedCurveCsv(names, curves, logMin, logMax));
    }
    if (options.histogramOut)
        util::writeTextOutput(*options.histogramOut, histogramCsv(first.histogram, params, first.countersValid));

    out << "contact sheet of " << runs.size() << (presets ? " engine presets" : " tone operators") << " on "
        << first.picture.width << "x" << first.picture.height << " -> " << options.output.string() << " ("
        << layout.width << "x" << layout.height << ", tiles " << picture.width << "x" << picture.height << ")\n";
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const SheetTile& tile = content.tiles[i];
        out << "tile " << i + 1 << " " << tile.name << ": picture " << describeRect(layout.tiles[i].picture)
            << ", caption " << describeRect(layout.tiles[i].caption) << ", curve "
            << describeRect(layout.tiles[i].thumbnail) << ": \"" << tile.name << "  " << tile.description << "\" \""
            << tile.keyValue << "\"\n";
    }
    out << "histogram: " << describeRect(layout.histogram) << ": " << bins << " bins, log2 L [" << logMin << ", "
        << logMax << "], " << runs.size() << " curves\n";
    return 0;
}

}  // namespace app
