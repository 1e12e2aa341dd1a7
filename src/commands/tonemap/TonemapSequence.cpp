// TonemapSequence.cpp: `hdrlab tonemap SEQUENCE -o out.%04d.png`: a sequence of HDR frames (a folder,
// a glob or a %d pattern, frames/FrameSequence.h) tone-mapped frame by frame by the live pipeline,
// headless: a fresh App on a SequenceSource, so the operator adapts over time exactly as `view
// SEQUENCE --headless` shows it, at --fps (dt = 1/fps: the same PNGs and flicker figure on every
// run). One PNG per frame, numbered like the input frame; the timing summary and the flicker line as
// headless runs print them; --capture, --verify and --probe as the app's. tonemap's own default
// (the automatic histogram range) comes first, then --settings, the flags given and --set, in
// tonemap's order. Limits: --curve-out and --histogram-out describe one image and are refused.
#include "app/App.h"
#include "commands/tonemap/TonemapCore.h"
#include "frames/FrameSequence.h"

#include <iostream>
#include <stdexcept>

namespace app {

namespace {

/// Whether the command line gave the flag whose key is `key` (TonemapOptions::flagAssignments).
bool flagGiven(const TonemapOptions& options, std::string_view key)
{
    for (const std::string& assignment : options.flagAssignments)
        if (assignment.size() > key.size() && assignment.starts_with(key) && assignment[key.size()] == '=')
            return true;
    return false;
}

AppOptions sequenceAppOptions(const CommonOptions& common, const TonemapOptions& options)
{
    AppOptions app;
    app.headless = true;
    app.vsync = false;
    app.dataDir = common.dataDir;
    app.viewImage = options.input;
    app.exrPart = options.exrPart;
    app.displaySequenceOut = options.output;
    app.sequenceFps = options.fps;
    app.badFramePolicy = options.onBadFrame;
    app.capture = options.capture;
    app.captureCsv = options.captureCsv;
    app.verify = options.verify;
    app.view = options.view;
    app.probes = options.probes;
    app.settingDefaults = {"histogram.range=auto"};  // tonemap's default: each frame's own range
    app.settingsFile = options.settingsFile;
    app.settingAssignments = options.settingAssignments;
    // The flags given, as the app's dedicated flags (after --settings, before --set, as tonemap applies them).
    if (flagGiven(options, "tonemap.operator"))
        app.toneOperator = options.toneOperator;
    app.histogramMethod = options.histogramMethod;
    if (flagGiven(options, "scan.method"))
        app.scanMethod = options.scanMethod;
    if (flagGiven(options, "histogram.bins"))
        app.bins = options.bins;
    if (flagGiven(options, "histogram.range")) {
        RangeOption range;
        const auto manual = options.range ? parseTonemapRange(*options.range) : std::nullopt;
        range.automatic = !manual;
        if (manual) {
            range.logMin = manual->first;
            range.logMax = manual->second;
        }
        app.range = range;
    }
    return app;
}

}  // namespace

bool usesSequenceOptions(const TonemapOptions& options)
{
    return isSequenceInput(options.input) || options.fps || options.onBadFrame || options.capture || options.captureCsv;
}

int runTonemapSequence(const CommonOptions& common, const TonemapOptions& options)
{
    try {
        if (!isSequenceInput(options.input))
            throw CliError(
                "--fps, --on-bad-frame, --capture and --capture-csv apply to a sequence (a folder, a glob or a %d "
                "pattern); '" +
                options.input.string() + "' is one image");
        if (options.hdrExr)
            throw CliError(
                "--hdr-exr writes one image's display light; a sequence is written by -o alone (with "
                "display.target=hdr10, one PQ PNG a frame)");
        if (options.histogramIn)
            throw CliError("--histogram-in replaces one image's histogram; a sequence measures every frame");
        if (options.curveOut || options.histogramOut)
            throw CliError(
                "--curve-out and --histogram-out describe one image; a sequence's curve and histogram change every "
                "frame (--capture records the key value per frame)");
        listFrameSequence(options.input);  // a bad input is reported before a bad -o (the app lists it again)
        try {
            checkOutputPattern(options.output, "-o");
        } catch (const std::runtime_error& error) {
            throw CliError(error.what());  // a bad -o is a bad command line (exit 2)
        }
        App runner(sequenceAppOptions(common, options));
        return runner.run();
    } catch (const std::exception& error) {
        return reportCommandError(std::cerr, error);
    }
}

}  // namespace app
