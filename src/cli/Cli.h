// Cli.h: hdrlab's command line (CLI11). It only dispatches: each subcommand adds its own flags and
// checks them (commands/<name>/<Name>Command.h: tonemap, compare, equalize8, clahe, bench, settings, and
// commands/view/ViewCommand.h for the live mode and `view`). Parsing never exits the process and never
// prints: it returns what to run, or the text to print and the exit code, so tests can drive it.
#pragma once

#include "app/AppOptions.h"
#include "commands/CommandFlags.h"
#include "commands/CommonOptions.h"
#include "commands/bench/BenchCommand.h"
#include "commands/clahe/ClaheCommand.h"
#include "commands/compare/CompareCommand.h"
#include "commands/equalize8/Equalize8Command.h"
#include "commands/tonemap/TonemapCommand.h"
#include "util/Log.h"

#include <string>
#include <vector>

namespace app {

enum class CommandKind { Run, Tonemap, Compare, Equalize8, Clahe, Bench, Exit };

struct ParsedCommandLine
{
    CommandKind kind = CommandKind::Run;
    AppOptions app;
    CommonOptions common;
    TonemapOptions tonemap;
    CompareOptions compare;
    Equalize8Options equalize8;
    ClaheOptions clahe;
    BenchOptions bench;
    util::LogLevel logLevel = util::LogLevel::Info;  ///< --log-level
    int exitCode = 0;                                ///< for CommandKind::Exit
    std::string output;                              ///< for CommandKind::Exit: help or version text (stdout)
    std::string error;                               ///< for CommandKind::Exit with exitCode != 0: one line, no prefix
    /// One output is "-": standard output carries its data, and hdrlab's messages go to standard error.
    bool standardOutputIsData = false;
};

/// Parses the arguments after the program name.
ParsedCommandLine parseCommandLine(const std::vector<std::string>& args);

/// Runs what `parsed` says: the subcommand or the live mode, or prints the help, version or error of
/// CommandKind::Exit. Returns the process's exit code; a command's failure may throw.
int runParsedCommandLine(const ParsedCommandLine& parsed);

/// `text` on one line: trailing blanks dropped, line breaks as "; " (messages from deeper layers may
/// span lines, e.g. the places searched for data).
std::string oneLine(std::string text);

}  // namespace app
