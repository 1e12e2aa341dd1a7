// CommandFlags.h: what the subcommands' parsers share: the error every bad value throws, the checked
// conversions of flag values (whole numbers, sizes, ranges, bins, probes), the output-file rule for
// "-", and the flag groups several commands take (--data-dir/--log-level, --settings/--set,
// --fps/--on-bad-frame). Each subcommand adds its own flags in its folder (commands/<name>/);
// cli/Cli.cpp only calls them and dispatches.
#pragma once

#include "app/AppOptions.h"
#include "util/Log.h"

#include <glm/vec2.hpp>

#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <iosfwd>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace app {

/// A bad value on the command line; what() is the message without the "hdrlab: error: " prefix.
class CliError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

/// Exit codes, one per class of error (docs/USAGE.md): a bad command line (a flag, a value, a --set or a
/// settings file, an output name whose folder is missing or whose extension is not the flag's) and a
/// failed run (an input file that cannot be read, an output that cannot be written, a GPU error, a
/// failed --verify).
inline constexpr int kExitUsage = 2;
inline constexpr int kExitFailed = 1;

/// Prints `error` as the one line "hdrlab: error: <what>" on `err` and returns its exit code:
/// kExitUsage for a CliError, kExitFailed otherwise.
int reportCommandError(std::ostream& err, const std::exception& error);

inline constexpr long long kMaxFrames = 10'000'000;
inline constexpr long long kMaxRepeat = 100'000;

enum class IntParse { Ok, NotANumber, TooLarge };
/// Decimal digits with an optional '-' (no spaces, no '+', no hex), as whole-number flags take them.
IntParse parseInt(std::string_view text, long long& value);
/// "'text'": a value quoted in a message.
std::string quoted(std::string_view text);
/// A whole-number flag's value in [min, max]; the message names the flag, the value and the range.
long long parseWholeNumber(std::string_view flag, std::string_view text, long long min, long long max);
/// A decimal flag's value in [min, max]; the message names the flag, the value and the range.
double parseNumberInRange(std::string_view flag, std::string_view text, double min, double max);

/// "WxH" with 1 <= W, H <= kMaxFrameSize; throws CliError naming --size and the problem.
glm::ivec2 parseSize(std::string_view text);
/// "MIN:MAX" (log2 luminance, -128 <= MIN < MAX <= 128) or "auto"; throws CliError naming --range.
RangeOption parseRange(std::string_view text);
/// 1..hd::kMaxHistogramBins; throws CliError naming --bins.
unsigned validateBins(long long bins);
/// --probe values "X,Y" (at most hd::kMaxProbes): whole pixels from the top-left corner.
std::vector<glm::ivec2> parseProbePoints(const std::vector<std::string>& texts);
/// The comma lists of `compare` and `bench pipeline`: "A[,B...]" split at the commas.
std::vector<std::string> splitList(const std::string& text);
/// "N[,N...]" or "all" (64,256,1024,4096): histogram bin counts, each 1..kMaxHistogramBins.
std::vector<unsigned> parseBinList(const std::string& text);

/// The values of --frame-format (scene::kFrameFormats) and of --view (post::ViewMode), for CLI::IsMember.
std::vector<std::string> frameFormatChoices();
std::vector<std::string> viewModeChoices();

/// Why an output flag refuses "-" (standard output): nullptr where it accepts it.
inline constexpr const char* kStreamsText = nullptr;
inline constexpr const char* kBinaryImage = "writes a binary image";
inline constexpr const char* kBenchTable = "cannot share standard output with the table bench prints there";

/// One output flag of a command; `noStandardOutput` says why it refuses "-", or is kStreamsText;
/// `extension` (".png") is what the file's name must end with, as its contents follow the flag.
struct OutputFlag
{
    const CLI::Option* option;
    const std::string* value;
    const char* noStandardOutput;
    const char* extension = nullptr;
};
/// Checks the output flags before anything runs: a file name given, "-" only where accepted and for one
/// of them, the name ending with the flag's extension, its folder existing and the name not a folder or
/// device (util::checkOutputPath), no two naming the same file. Returns whether one of them is "-".
bool checkOutputFlags(std::initializer_list<OutputFlag> outputs);

/// --data-dir and --log-level, accepted before and after a subcommand (one storage for all).
struct CommonFlags
{
    std::string dataDir;
    std::string logLevel = "info";
};
void addCommonOptions(CLI::App& command, CommonFlags& flags);
/// The level --log-level names.
util::LogLevel logLevelOf(const CommonFlags& flags);

/// --settings FILE and --set KEY=VALUE (repeatable, one assignment each) on a command.
struct SettingsFlags
{
    std::string file;
    std::vector<std::string> assignments;
    CLI::Option* fileOption = nullptr;
};
void addSettingsOptions(CLI::App& command, SettingsFlags& flags);
/// Checks every --set (or --set-b: `flag`) against the keys (no GL needed) and returns them unchanged.
std::vector<std::string> checkedAssignments(const SettingsFlags& flags, const std::string& flag = "--set");
/// The --settings (or --settings-b: `flag`) file when given; an empty name is an error.
std::optional<std::filesystem::path> settingsFile(const SettingsFlags& flags, const std::string& flag = "--settings");

/// The sequence options `view`, `tonemap` and `bench flicker` share (--fps, --on-bad-frame).
struct SequenceFlags
{
    std::string fps;
    std::string onBadFrame;
    CLI::Option* fpsOption = nullptr;
    CLI::Option* onBadFrameOption = nullptr;
};
/// `what` starts each help text ("Sequence input", "flicker --sequence").
void addSequenceOptions(CLI::App& command, SequenceFlags& flags, const std::string& what);
void readSequenceOptions(const SequenceFlags& flags, std::optional<double>& fps, std::optional<std::string>& policy);

}  // namespace app
