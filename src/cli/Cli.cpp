// Cli.cpp: the top of hdrlab's command line: the CLI::App, each command's parser in the order the help
// lists them, and the dispatch of what was parsed.
#include "cli/Cli.h"

#include "app/FileArgument.h"
#include "commands/settings/SettingsCommand.h"
#include "commands/view/ViewCommand.h"
#include "util/BuildInfo.h"
#include "util/OutputFile.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <sstream>

namespace app {
namespace {

/// CLI11 says "--frames: At Most 1 required but received 2" for a repeated flag; say it plainly.
std::string explainParseError(const CLI::ParseError& error)
{
    const std::string message = error.what();
    const std::string marker = ": At Most 1 required but received ";
    std::size_t at = message.find(marker);
    if (at == std::string::npos)
        return message;
    return message.substr(0, at) + " is given " + message.substr(at + marker.size()) + " times; give it once";
}

/// "--frames --screenshot s.png": CLI11 then blames "s.png" ("not expected"). The real culprit is the
/// flag before, whose value is missing: name it. Returns empty when no flag lacks its value.
std::string missingValue(CLI::App& cli, const std::vector<std::string>& args)
{
    std::vector<CLI::App*> apps{&cli};
    for (CLI::App* sub : cli.get_subcommands([](CLI::App*) { return true; }))
        apps.push_back(sub);
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& arg = args[i];
        if (arg.size() < 3 || !arg.starts_with("--") || arg.find('=') != std::string::npos)
            continue;
        for (CLI::App* app : apps) {
            const CLI::Option* option = app->get_option_no_throw(arg);
            if (!option || option->get_items_expected_min() < 1)
                continue;
            const bool next = i + 1 < args.size();
            if (!next)
                return arg + " needs a value, and none follows it";
            const std::string& value = args[i + 1];
            if (value.size() >= 3 && value.starts_with("--") &&
                std::any_of(apps.begin(), apps.end(), [&](CLI::App* a) { return a->get_option_no_throw(value); }))
                return arg + " needs a value; the next word, " + value + ", is a flag";
            break;
        }
    }
    return {};
}

/// Before the commands: option defaults and --version (which the subcommands copy when added).
void setupTopLevel(CLI::App& cli)
{
    cli.option_defaults()->always_capture_default(false);
    cli.set_version_flag("--version",
                         std::string(HDRLAB_VERSION) + " (" + util::gitRevision() + ", " + HDRLAB_BUILD_TYPE + ")");
}

/// After the commands: at most one subcommand, and the footer of the top help only (a subcommand
/// added after it would copy it).
void finishTopLevel(CLI::App& cli)
{
    cli.require_subcommand(0, 1);
    cli.footer(
        "Subcommands take their own --help, e.g. hdrlab tonemap --help. Every setting has a key for --set "
        "KEY=VALUE and --settings FILE.json: hdrlab settings --list prints them. docs/USAGE.md has examples.");
}

/// Help and version: the text CLI11 prints and its exit code.
template <typename Call>
void takeCall(CLI::App& cli, const Call& call, ParsedCommandLine& result)
{
    std::ostringstream out, err;
    result.exitCode = cli.exit(call, out, err);
    result.output = out.str();
    result.kind = CommandKind::Exit;
}

}  // namespace

ParsedCommandLine parseCommandLine(const std::vector<std::string>& args)
{
    ParsedCommandLine result;
    CLI::App cli(
        "hdrlab: real-time HDR post-processing lab (GPU log-luminance histograms, CDF scans, histogram-driven "
        "tone operators, per-pass GPU timings).\nWith a display it opens a window; with --headless (or "
        "without a display) it renders frames off-screen and writes the requested files.",
        "hdrlab");
    setupTopLevel(cli);
    CommonFlags common;
    ViewParser live(cli, common);
    TonemapParser tonemap(cli, common);
    live.addViewSubcommand(cli);
    CompareParser compare(cli, common);
    Equalize8Parser equalize8(cli, common);
    ClaheParser clahe(cli, common);
    BenchParser bench(cli, common);
    SettingsParser settings(cli);
    finishTopLevel(cli);

    // `hdrlab FILE`: an image opens as `view FILE`, a scene as `--scene FILE` (cli/FileArgument.h).
    const std::vector<std::string> rewritten = openFileArgument(cli, args);
    std::vector<std::string> reversed(rewritten.rbegin(), rewritten.rend());
    try {
        cli.parse(reversed);
        result.logLevel = logLevelOf(common);
        result.common.verbose = result.logLevel == util::LogLevel::Debug;
        if (!common.dataDir.empty())
            result.common.dataDir = common.dataDir;
        if (tonemap.parsed()) {
            result.kind = CommandKind::Tonemap;
            result.tonemap = tonemap.read(result.standardOutputIsData);
        } else if (compare.parsed()) {
            result.kind = CommandKind::Compare;
            result.compare = compare.read(result.standardOutputIsData);
        } else if (equalize8.parsed()) {
            result.kind = CommandKind::Equalize8;
            result.equalize8 = equalize8.read();
        } else if (clahe.parsed()) {
            result.kind = CommandKind::Clahe;
            result.clahe = clahe.read();
        } else if (bench.parsed()) {
            result.kind = CommandKind::Bench;
            result.bench = bench.read();
        } else if (settings.parsed()) {
            result.output = settings.read();
            result.kind = CommandKind::Exit;
        } else {
            result.kind = CommandKind::Run;
            result.app = live.read(args.empty(), result.standardOutputIsData);
        }
        result.app.dataDir = result.common.dataDir;
    } catch (const CLI::CallForHelp& e) {
        takeCall(cli, e, result);
    } catch (const CLI::CallForAllHelp& e) {
        takeCall(cli, e, result);
    } catch (const CLI::CallForVersion& e) {
        takeCall(cli, e, result);
    } catch (const CLI::ParseError& e) {
        result.kind = CommandKind::Exit;
        result.exitCode = 2;
        const std::string culprit = missingValue(cli, args);
        result.error = culprit.empty() ? explainParseError(e) : culprit;
    } catch (const CliError& e) {
        result.kind = CommandKind::Exit;
        result.exitCode = 2;
        result.error = e.what();
    }
    return result;
}

namespace {
int runCommand(const ParsedCommandLine& parsed)
{
    switch (parsed.kind) {
        case CommandKind::Exit:
            if (!parsed.output.empty())
                std::cout << parsed.output;
            if (!parsed.error.empty())
                std::cerr << "hdrlab: error: " << oneLine(parsed.error) << " (see hdrlab --help)\n";
            return parsed.exitCode;
        case CommandKind::Tonemap:
            return runTonemapCommand(parsed.common, parsed.tonemap);
        case CommandKind::Compare:
            return runCompareCommand(parsed.common, parsed.compare);
        case CommandKind::Equalize8:
            return runEqualize8Command(parsed.common, parsed.equalize8);
        case CommandKind::Clahe:
            return runClaheCommand(parsed.common, parsed.clahe);
        case CommandKind::Bench:
            return runBenchCommand(parsed.common, parsed.bench);
        case CommandKind::Run:
            return runViewCommand(parsed.app);
    }
    return 1;
}
}  // namespace

int runParsedCommandLine(const ParsedCommandLine& parsed)
{
    // All or nothing (util/OutputFile.h): a run's files are renamed into place when it succeeded (exit 0,
    // or bench's 3: a stage under its floor, the tables still written) and removed otherwise. A window
    // writes each file when asked (a screenshot key), so it has no batch.
    const bool noDisplay = std::getenv("DISPLAY") == nullptr && std::getenv("WAYLAND_DISPLAY") == nullptr;
    const bool batched =
        parsed.kind != CommandKind::Exit && (parsed.kind != CommandKind::Run || parsed.app.headless || noDisplay);
    std::optional<util::OutputBatch> batch;
    if (batched)
        batch.emplace();
    const int code = runCommand(parsed);
    if (batch && (code == 0 || (parsed.kind == CommandKind::Bench && code == 3)))
        batch->commit();
    return code;
}

std::string oneLine(std::string text)
{
    while (!text.empty() && (text.back() == '\n' || text.back() == ' '))
        text.pop_back();
    for (std::size_t at = text.find('\n'); at != std::string::npos; at = text.find('\n', at))
        text.replace(at, 1, "; ");
    return text;
}

}  // namespace app
