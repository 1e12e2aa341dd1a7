// CommandFlags.cpp: the flag conversions and flag groups the subcommands share (commands/CommandFlags.h).
#include "commands/CommandFlags.h"

#include "frames/FrameSequence.h"
#include "post/FalseColour.h"
#include "post/PipelineParameters.h"
#include "post/SettingsFile.h"
#include "scene/PreExposure.h"
#include "shared/HostDevice.h"
#include "util/Log.h"
#include "util/OutputFile.h"

#include <CLI/CLI.hpp>

#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <limits>
#include <utility>

namespace app {
namespace {

/// --log-level's values, in the order its help text names them.
constexpr std::pair<const char*, util::LogLevel> kLogLevels[] = {
    {"debug", util::LogLevel::Debug}, {"info", util::LogLevel::Info},   {"warning", util::LogLevel::Warning},
    {"error", util::LogLevel::Error}, {"quiet", util::LogLevel::Quiet},
};

std::vector<std::string> logLevelNames()
{
    std::vector<std::string> names;
    for (const auto& entry : kLogLevels)
        names.emplace_back(entry.first);
    return names;
}

/// A finite decimal number (e.g. "-10", "2.5", "1e3"); NaN, infinities and trailing text are refused.
bool parseFloat(std::string_view text, double& value)
{
    if (text.empty() || std::isspace(static_cast<unsigned char>(text.front())))
        return false;
    std::string copy(text);
    char* end = nullptr;
    errno = 0;
    value = std::strtod(copy.c_str(), &end);
    return end == copy.c_str() + copy.size() && errno != ERANGE && std::isfinite(value);
}

std::string rangeText(long long min, long long max)
{
    return std::to_string(min) + ".." + std::to_string(max);
}

/// --fps F: a sequence's frames per second.
double parseFps(const std::string& text)
{
    return parseNumberInRange("--fps", text, kMinSequenceFps, kMaxSequenceFps);
}

/// One --probe value "X,Y": whole pixels from the top-left corner (the frame's size is checked later,
/// when it is known).
glm::ivec2 parseProbePoint(std::string_view text)
{
    const std::size_t comma = text.find(',');
    long long x = 0, y = 0;
    if (comma == std::string_view::npos || parseInt(text.substr(0, comma), x) != IntParse::Ok ||
        parseInt(text.substr(comma + 1), y) != IntParse::Ok)
        throw CliError("--probe " + quoted(text) + " is not X,Y (whole pixels from the top-left corner, e.g. 640,360)");
    if (x < 0 || y < 0 || x >= kMaxFrameSize || y >= kMaxFrameSize)
        throw CliError("--probe " + std::string(text) + " is outside 0.." + std::to_string(kMaxFrameSize - 1) +
                       " on an axis");
    return {int(x), int(y)};
}

}  // namespace

IntParse parseInt(std::string_view text, long long& value)
{
    if (text.empty())
        return IntParse::NotANumber;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (end != text.data() + text.size() || ec == std::errc::invalid_argument)
        return IntParse::NotANumber;
    if (ec == std::errc::result_out_of_range) {
        value = text.front() == '-' ? std::numeric_limits<long long>::min() : std::numeric_limits<long long>::max();
        return IntParse::TooLarge;
    }
    return IntParse::Ok;
}

std::string quoted(std::string_view text)
{
    return "'" + std::string(text) + "'";
}

long long parseWholeNumber(std::string_view flag, std::string_view text, long long min, long long max)
{
    long long value = 0;
    switch (parseInt(text, value)) {
        case IntParse::Ok:
            if (value < min || value > max)
                throw CliError(std::string(flag) + " " + std::string(text) + " is outside " + rangeText(min, max));
            return value;
        case IntParse::TooLarge:
            throw CliError(std::string(flag) + " " + std::string(text) + " is outside " + rangeText(min, max));
        case IntParse::NotANumber:
            break;
    }
    if (text.empty())
        throw CliError(std::string(flag) + " needs a whole number in " + rangeText(min, max));
    throw CliError(std::string(flag) + " " + quoted(text) + " is not a whole number; give one in " +
                   rangeText(min, max));
}

double parseNumberInRange(std::string_view flag, std::string_view text, double min, double max)
{
    double value = 0.0;
    if (!parseFloat(text, value))
        throw CliError(std::string(flag) + " " + quoted(text) + " is not a number; give one in " +
                       util::format("{}..{}", min, max));
    if (value < min || value > max)
        throw CliError(std::string(flag) + " " + std::string(text) + " is outside " + util::format("{}..{}", min, max));
    return value;
}

int reportCommandError(std::ostream& err, const std::exception& error)
{
    std::string text = error.what();
    while (!text.empty() && (text.back() == '\n' || text.back() == ' '))
        text.pop_back();
    for (std::size_t at = text.find('\n'); at != std::string::npos; at = text.find('\n', at))
        text.replace(at, 1, "; ");
    std::cout.flush();
    err << "hdrlab: error: " << text << "\n";
    return dynamic_cast<const CliError*>(&error) != nullptr ? kExitUsage : kExitFailed;
}

bool checkOutputFlags(std::initializer_list<OutputFlag> outputs)
{
    const CLI::Option* toStandardOutput = nullptr;
    for (const OutputFlag& output : outputs) {
        if (!output.option->count())
            continue;
        const std::string name = output.option->get_name();
        if (output.value->empty())
            throw CliError(name + " needs a file name");
        if (*output.value != "-")
            continue;
        if (output.noStandardOutput)
            throw CliError(name + " " + output.noStandardOutput +
                           "; '-' (standard output) is accepted only by "
                           "capture and CSV outputs; give a file name");
        if (toStandardOutput)
            throw CliError(toStandardOutput->get_name() + " and " + name +
                           " both name '-'; only one output can go "
                           "to standard output");
        toStandardOutput = output.option;
    }
    std::vector<std::pair<std::string, std::filesystem::path>> named;
    for (const OutputFlag& output : outputs) {
        if (!output.option->count() || *output.value == "-")
            continue;
        const std::string name = output.option->get_name();
        try {
            if (output.extension)
                util::checkOutputPath(*output.value, name, {std::string_view(output.extension)});
            else
                util::checkOutputPath(*output.value, name, {});
        } catch (const util::OutputError& error) {
            throw CliError(error.what());
        }
        for (const auto& [otherName, otherPath] : named) {
            try {
                util::checkDistinctOutputs({{otherName, otherPath}, {name, std::filesystem::path(*output.value)}});
            } catch (const util::OutputError& error) {
                throw CliError(error.what());
            }
        }
        named.emplace_back(name, *output.value);
    }
    return toStandardOutput != nullptr;
}

void addCommonOptions(CLI::App& command, CommonFlags& flags)
{
    command
        .add_option("--data-dir", flags.dataDir,
                    "Folder holding hdrlab's shaders/, scenes/ and assets/ (default: found "
                    "beside the executable, or $HDRLAB_DATA_DIR)")
        ->type_name("DIR");
    command
        .add_option("--log-level", flags.logLevel,
                    "Messages on stderr: debug, info, warning, error or quiet (default info)")
        ->check(CLI::IsMember(logLevelNames()));
}

util::LogLevel logLevelOf(const CommonFlags& flags)
{
    for (const auto& [name, level] : kLogLevels)
        if (flags.logLevel == name)
            return level;
    return util::LogLevel::Info;  // not reached: CLI11 checked the name
}

void addSettingsOptions(CLI::App& command, SettingsFlags& flags)
{
    flags.fileOption = command
                           .add_option("--settings", flags.file,
                                       "Apply a settings file (JSON, as the Pipeline panel saves it) before the "
                                       "other flags")
                           ->type_name("FILE.json");
    command
        .add_option("--set", flags.assignments,
                    "Set one setting, after --settings and the other flags; repeatable, applied in order "
                    "(hdrlab settings --list shows every key)")
        ->type_name("KEY=VALUE")
        ->allow_extra_args(false);
}
std::vector<std::string> checkedAssignments(const SettingsFlags& flags, const std::string& flag)
{
    for (const std::string& text : flags.assignments) {
        try {
            post::parseAssignment(text, flag);
        } catch (const std::runtime_error& error) {
            throw CliError(error.what());
        }
    }
    return flags.assignments;
}
std::optional<std::filesystem::path> settingsFile(const SettingsFlags& flags, const std::string& flag)
{
    if (!flags.fileOption->count())
        return std::nullopt;
    if (flags.file.empty())
        throw CliError(flag + " needs a file name");
    try {  // read and checked now: a bad settings file is a bad command line, as a bad --set (exit 2)
        post::readSettingsFile(flags.file);
    } catch (const std::runtime_error& error) {
        throw CliError(flag + ": " + error.what());
    }
    return flags.file;
}

void addSequenceOptions(CLI::App& command, SequenceFlags& flags, const std::string& what)
{
    flags.fpsOption = command
                          .add_option("--fps", flags.fps,
                                      what +
                                          ": frames per second of playback (default 24); headless the time "
                                          "step is 1/fps")
                          ->type_name("F");
    flags.onBadFrameOption =
        command
            .add_option("--on-bad-frame", flags.onBadFrame,
                        what +
                            ": a missing, damaged or mismatched frame (other size or channels) stops the run "
                            "with its name and why (default), or is skipped with a warning")
            ->type_name("stop|skip")
            ->check(CLI::IsMember({"stop", "skip"}));
}
void readSequenceOptions(const SequenceFlags& flags, std::optional<double>& fps, std::optional<std::string>& policy)
{
    if (flags.fpsOption->count())
        fps = parseFps(flags.fps);
    if (flags.onBadFrameOption->count())
        policy = flags.onBadFrame;
}

std::vector<glm::ivec2> parseProbePoints(const std::vector<std::string>& texts)
{
    if (texts.size() > hd::kMaxProbes)
        throw CliError("--probe is given " + std::to_string(texts.size()) + " times; at most " +
                       std::to_string(hd::kMaxProbes) + " probes");
    std::vector<glm::ivec2> points;
    for (const std::string& text : texts)
        points.push_back(parseProbePoint(text));
    return points;
}

glm::ivec2 parseSize(std::string_view text)
{
    const std::string limits = "width and height must be in 1.." + std::to_string(kMaxFrameSize);
    std::size_t x = text.find_first_of("xX");
    long long width = 0, height = 0;
    IntParse parsedWidth = x == std::string_view::npos ? IntParse::NotANumber : parseInt(text.substr(0, x), width);
    IntParse parsedHeight = x == std::string_view::npos ? IntParse::NotANumber : parseInt(text.substr(x + 1), height);
    if (parsedWidth == IntParse::NotANumber || parsedHeight == IntParse::NotANumber)
        throw CliError("--size " + quoted(text) + " is not WxH (e.g. 1280x720)");
    if (width < 1 || height < 1)
        throw CliError("--size " + quoted(text) + " is empty or negative; " + limits);
    if (width > kMaxFrameSize || height > kMaxFrameSize)
        throw CliError("--size " + quoted(text) + " is too large; width and height must be at most " +
                       std::to_string(kMaxFrameSize));
    return {int(width), int(height)};
}

RangeOption parseRange(std::string_view text)
{
    RangeOption range;
    if (text == "auto") {
        range.automatic = true;
        return range;
    }
    constexpr double kLimit = 64.0;  // the range histogram.log_min/log_max accept, so a capture's settings load back
    std::size_t colon = text.find(':');
    double logMin = 0.0, logMax = 0.0;
    if (colon == std::string_view::npos || !parseFloat(text.substr(0, colon), logMin) ||
        !parseFloat(text.substr(colon + 1), logMax))
        throw CliError("--range " + quoted(text) + " is not MIN:MAX (finite log2 luminances, e.g. -10:20) or auto");
    if (!(logMin < logMax))
        throw CliError("--range " + quoted(text) + " is empty; MIN must be below MAX");
    if (logMin < -kLimit || logMax > kLimit)
        throw CliError("--range " + quoted(text) + " is outside -64:64 (log2 luminance, as histogram.log_min/log_max)");
    range.logMin = float(logMin);
    range.logMax = float(logMax);
    return range;
}

unsigned validateBins(long long bins)
{
    if (bins < 1 || bins > (long long)hd::kMaxHistogramBins)
        throw CliError("--bins " + std::to_string(bins) + " is outside 1.." + std::to_string(hd::kMaxHistogramBins));
    return unsigned(bins);
}

std::vector<std::string> splitList(const std::string& text)
{
    std::vector<std::string> parts;
    std::size_t start = 0;
    for (std::size_t comma = text.find(',');; comma = text.find(',', start)) {
        parts.push_back(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
        if (comma == std::string::npos)
            return parts;
        start = comma + 1;
    }
}

std::vector<unsigned> parseBinList(const std::string& text)
{
    if (text == "all")
        return {64, 256, 1024, 4096};
    std::vector<unsigned> bins;
    for (const std::string& part : splitList(text))
        bins.push_back(unsigned(parseWholeNumber("--bins", part, 1, hd::kMaxHistogramBins)));
    return bins;
}

std::vector<std::string> frameFormatChoices()
{
    std::vector<std::string> names;
    for (const scene::FrameFormatInfo& format : scene::kFrameFormats)
        names.emplace_back(format.name);
    return names;
}

std::vector<std::string> viewModeChoices()
{
    std::vector<std::string> names;
    for (post::ViewMode mode :
         {post::ViewMode::ToneMapped, post::ViewMode::FalseColour, post::ViewMode::Metering, post::ViewMode::LocalGain,
          post::ViewMode::LocalTiles, post::ViewMode::LocalBase, post::ViewMode::LocalBlurred,
          post::ViewMode::LocalDetail, post::ViewMode::LocalExposure})
        names.emplace_back(post::viewModeName(mode));
    return names;
}

}  // namespace app
