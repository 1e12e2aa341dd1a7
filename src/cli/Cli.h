// Cli.h: hdrlab's command line (CLI11): the live/headless application's flags and the subcommands
// tonemap, compare, equalize8 and bench. Parsing never exits the process and never prints: it returns
// what to run, or the text to print and the exit code, so tests can drive it.
#pragma once

#include "app/AppOptions.h"
#include "cli/Commands.h"
#include "util/Log.h"

#include <glm/vec2.hpp>

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace app {

/// A bad value on the command line; what() is the message without the "hdrlab: error: " prefix.
class CliError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

/// "WxH" with 1 <= W, H <= kMaxFrameSize; throws CliError naming --size and the problem.
glm::ivec2 parseSize(std::string_view text);
/// "MIN:MAX" (log2 luminance, -128 <= MIN < MAX <= 128) or "auto"; throws CliError naming --range.
RangeOption parseRange(std::string_view text);
/// 1..hd::kMaxHistogramBins; throws CliError naming --bins.
unsigned validateBins(long long bins);

enum class CommandKind { Run, Tonemap, Compare, Equalize8, Bench, Exit };

struct ParsedCommandLine
{
    CommandKind kind = CommandKind::Run;
    AppOptions app;
    CommonOptions common;
    TonemapOptions tonemap;
    CompareOptions compare;
    Equalize8Options equalize8;
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

}  // namespace app
