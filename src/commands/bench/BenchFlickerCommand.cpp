// BenchFlickerCommand.cpp: `hdrlab bench flicker`: the flicker figure (post/ExposureHistory.h: RMS of
// the key value's change per second between consecutive frames, EV/s) of each tone operator, and of
// the percentile operator with the app's settings and with each engine preset (percentile.preset),
// over the default scene's camera path, or over a sequence of HDR frames (--sequence: real footage,
// frames/SequenceSource.h). Each case runs in a fresh headless app from frame 0 with a fixed step (1/60 s
// on the path, 1/fps on a sequence), so the figure is the same on every run on the same GPU and driver.
// On a sequence the figure is taken within shots (the cuts the percentile operator finds,
// percentile.cut_threshold_ev; a first run with the app's settings finds them, as `tonemap --operator
// percentile` does, and hands them to every other case: the operators that do not look for cuts, and
// the engine presets, which bin over their engines' fixed ranges and so read a cut beyond the range as
// a smaller move, or miss it, as the engine would; each preset still snaps only where it finds a cut
// itself), and each percentile case runs twice: with the exposure snapping at cuts and without
// (percentile.snap_at_cuts), so the table shows what the snap saves. The cuts column counts the shots'
// cuts and the case's own, once each.
// With local exposure on (--set local_exposure.method=bilateral|fusion) each case also gets the flicker
// of the frame's mean local exposure (verify/LocalExposureMean.h: the CPU reference's per-pixel local
// exposure on the frame's own inputs, read back after every frame; the same definition, within the same
// shots), printed as "local EV/s" and written as `local_flicker_ev_per_s`.
// Limits: one scene and camera path (the default's, or --settings/--set) or one sequence; the figure
// measures the key value, not the displayed picture (a display curve's own changes are not seen).
#include "app/App.h"
#include "commands/bench/BenchCommand.h"
#include "frames/FrameSequence.h"
#include "post/ExposureHistory.h"
#include "post/PostPipeline.h"
#include "post/tonemap/EnginePresets.h"
#include "post/tonemap/ToneOperator.h"
#include "util/Log.h"
#include "util/OutputFile.h"
#include "verify/LocalExposureMean.h"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <limits>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace app {

namespace {

struct FlickerCase
{
    std::string toneOperator;
    std::string preset;  ///< "app" (the app's settings) or an engine preset id; "-" for other operators
};

std::vector<FlickerCase> flickerCases(const BenchOptions& options)
{
    std::vector<FlickerCase> cases;
    for (const post::ToneOperatorEntry& entry : post::toneOperatorRegistry()) {
        const std::string id(entry.id);
        if (options.toneOperator && *options.toneOperator != "all" && *options.toneOperator != id)
            continue;
        if (id != "percentile") {
            cases.push_back({id, "-"});
            continue;
        }
        cases.push_back({id, "app"});
        for (const post::EnginePreset& preset : post::enginePresets())
            cases.push_back({id, std::string(preset.id)});
    }
    return cases;
}

/// The headless app of one case: the camera path at the first --size, or the sequence.
AppOptions caseAppOptions(const CommonOptions& common,
                          const BenchOptions& options,
                          const FlickerCase& c,
                          std::optional<bool> snapAtCuts,
                          const std::vector<long long>& cuts)
{
    AppOptions app = benchAppOptions(common, options);
    if (options.sequence) {
        app.size.reset();  // a sequence plays at its frames' size
        app.viewImage = options.sequence;
        app.sequenceFps = options.fps;
        app.badFramePolicy = options.onBadFrame;
        if (options.framesGiven)
            app.frames = int(options.frames);  // loops when the sequence is shorter
        else
            app.frames.reset();  // once through
    }
    app.toneOperator = c.toneOperator;
    if (c.preset != "-" && c.preset != "app")
        app.settingAssignments.push_back("percentile.preset=" + c.preset);
    if (options.sequence && c.preset != "app")
        app.knownCuts = cuts;  // the shots the app's percentile run found: every figure within the same shots
    if (snapAtCuts)            // after the preset, which sets every percentile key
        app.settingAssignments.push_back(std::string("percentile.snap_at_cuts=") + (*snapAtCuts ? "true" : "false"));
    return app;
}

/// What one case measured: the key value's flicker and, with local exposure on, the mean local exposure's.
struct CaseResult
{
    App::Flicker flicker;
    bool localExposure = false;              ///< the case ran with local exposure on
    std::optional<double> localEvPerSecond;  ///< the mean local exposure's flicker within the same shots
};

/// The flicker figure of the frames' mean local exposures (frame k at k x step seconds), a pair across a
/// cut (a frame number in `cuts`) left out, as ExposureHistory takes the key value's.
std::optional<double> localExposureFlicker(const std::vector<std::pair<long long, std::optional<double>>>& frames,
                                           const std::set<long long>& cuts,
                                           double stepSeconds)
{
    post::ExposureHistory history(std::numeric_limits<double>::infinity(), frames.size() + 1);
    for (std::size_t k = 0; k < frames.size(); ++k) {
        history.addFrame(k, double(k) * stepSeconds, 0.0);
        if (frames[k].second)
            history.setKeyValue(k, float(*frames[k].second));
        if (cuts.count(frames[k].first))
            history.markCut(k);
    }
    return history.flickerEvPerSecond();
}

/// Cuts of a case: the shots' and its own, each frame once (a preset that finds a shot's cut too
/// reports it twice).
std::size_t distinctCuts(std::vector<long long> frames)
{
    std::sort(frames.begin(), frames.end());
    return std::size_t(std::unique(frames.begin(), frames.end()) - frames.begin());
}

std::string fixed6(double value)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.6f", value);
    return text;
}

}  // namespace

int runBenchFlicker(const CommonOptions& common, const BenchOptions& options)
{
    try {
        if (options.frames < 2 || options.frames > 100000)
            throw std::invalid_argument(util::format("--frames {}: must be 2..100000", options.frames));
        if (options.toneOperator && *options.toneOperator != "all" && !post::createToneOperator(*options.toneOperator))
            throw std::invalid_argument("--operator: unknown tone operator '" + *options.toneOperator +
                                        "' (see hdrlab --list, or use all)");
        const glm::ivec2 size = options.sizes.front();
        if (options.sequence) {
            const FrameSequence sequence = listFrameSequence(*options.sequence);  // a bad name fails before any case
            const double fps = options.fps.value_or(kDefaultSequenceFps);
            const std::string frames = options.framesGiven ? util::format("{} frames (looping)", options.frames)
                                                           : util::format("its {} frames", sequence.fileCount());
            std::printf("hdrlab bench flicker: sequence %s, %s per case at %g fps (fixed 1/%g s)\n",
                        options.sequence->string().c_str(), frames.c_str(), fps, fps);
        } else {
            std::printf("hdrlab bench flicker: %d x %d, %u frames of the camera path per case (fixed 1/60 s)\n", size.x,
                        size.y, options.frames);
        }
        // On a sequence: the cuts found and, for the percentile operator, the figure without the snap.
        const bool shots = options.sequence.has_value();
        const double stepSeconds = shots ? 1.0 / options.fps.value_or(kDefaultSequenceFps) : 1.0 / 60.0;
        std::ostringstream csv;
        std::vector<long long> cuts;  // on a sequence: where the percentile operator (app settings) finds cuts
        const auto runCase = [&](const FlickerCase& c, std::optional<bool> snap, std::string& keyName) {
            App runner(caseAppOptions(common, options, c, snap, cuts));
            CaseResult result;
            result.localExposure = runner.pipeline().settings().localExposure.active();
            std::vector<std::pair<long long, std::optional<double>>> localFrames;
            if (result.localExposure)
                runner.setFrameObserver([&](long long frameNumber) {
                    localFrames.emplace_back(frameNumber, verify::meanLocalExposureEv(runner.pipeline()));
                });
            if (options.sequence && !options.framesGiven)
                runner.renderToEnd();
            else
                runner.renderFrames(int(options.frames));
            runner.waitForTimings();
            keyName = std::string(runner.pipeline().toneOperator().keyValueName());
            result.flicker = runner.flicker();
            if (result.localExposure) {
                std::set<long long> allCuts(cuts.begin(), cuts.end());
                allCuts.insert(result.flicker.cutFrames.begin(), result.flicker.cutFrames.end());
                result.localEvPerSecond = localExposureFlicker(localFrames, allCuts, stepSeconds);
            }
            return result;
        };
        if (shots) {
            std::string ignored;
            cuts = runCase({"percentile", "app"}, std::nullopt, ignored).flicker.cutFrames;
        }
        bool headerDone = false;
        bool localColumn = false;
        for (const FlickerCase& c : flickerCases(options)) {
            const bool percentile = c.toneOperator == "percentile";
            std::string keyName;
            const CaseResult result =
                runCase(c, shots && percentile ? std::optional<bool>(true) : std::nullopt, keyName);
            const App::Flicker& flicker = result.flicker;
            if (!headerDone) {  // the local exposure column only where the settings turn it on
                localColumn = result.localExposure;
                const char* local = localColumn ? "   local EV/s" : "";
                if (shots)
                    std::printf("%-12s %-12s %14s %14s%s %5s %8s  %s\n", "operator", "preset", "flicker EV/s",
                                "no snap EV/s", local, "cuts", "frames", "key value");
                else
                    std::printf("%-12s %-12s %14s%s %8s  %s\n", "operator", "preset", "flicker EV/s", local, "frames",
                                "key value");
                csv << "operator,preset,flicker_ev_per_s,frames,key_value"
                    << (shots ? ",cuts,flicker_no_snap_ev_per_s" : "") << (localColumn ? ",local_flicker_ev_per_s" : "")
                    << "\n";
                headerDone = true;
            }
            const std::string value = flicker.evPerSecond ? fixed6(*flicker.evPerSecond) : std::string("none");
            const std::string key = keyName.empty() ? "none" : keyName;
            const std::string localValue = !result.localExposure     ? "off"  // a preset that turns it off
                                           : result.localEvPerSecond ? fixed6(*result.localEvPerSecond)
                                                                     : "none";
            char localCellText[32] = "";
            if (localColumn)
                std::snprintf(localCellText, sizeof localCellText, " %13s", localValue.c_str());
            const std::string localCell = localCellText;
            csv << c.toneOperator << ',' << c.preset << ',' << (flicker.evPerSecond ? value : std::string()) << ','
                << flicker.framesWithKeyValue << ',' << key;
            const std::string localCsv =
                localColumn ? "," + (result.localEvPerSecond ? localValue : std::string()) : std::string();
            if (!shots) {
                std::printf("%-12s %-12s %14s%s %8zu  %s\n", c.toneOperator.c_str(), c.preset.c_str(), value.c_str(),
                            localCell.c_str(), flicker.framesWithKeyValue, key.c_str());
                csv << localCsv << '\n';
                continue;
            }
            std::string noSnap = "-";
            if (percentile) {
                std::string ignored;
                const App::Flicker without = runCase(c, false, ignored).flicker;
                noSnap = without.evPerSecond ? fixed6(*without.evPerSecond) : std::string("none");
            }
            const std::size_t cutCount = distinctCuts(flicker.cutFrames);
            std::printf("%-12s %-12s %14s %14s%s %5zu %8zu  %s\n", c.toneOperator.c_str(), c.preset.c_str(),
                        value.c_str(), noSnap.c_str(), localCell.c_str(), cutCount, flicker.framesWithKeyValue,
                        key.c_str());
            csv << ',' << cutCount << ',' << (noSnap == "-" || noSnap == "none" ? std::string() : noSnap) << localCsv
                << '\n';
        }
        if (options.csv) {
            util::writeFileAtomically(*options.csv, csv.str());
            std::printf("\nwrote %s\n", options.csv->string().c_str());
        }
        return 0;
    } catch (const std::exception& error) {
        return reportCommandError(std::cerr, error);
    }
}

}  // namespace app
