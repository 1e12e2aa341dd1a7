// CompareCommand.h: `hdrlab compare`: its options, its command line (the subcommand and its flags) and
// its run (commands/compare/CompareCommand.cpp): every available histogram method and scan on one
// frame, against the CPU reference and timed (compare/CompareMethods.h, compare/CompareScans.h).
#pragma once

#include "commands/CommandFlags.h"
#include "commands/CommonOptions.h"
#include "shared/HostDevice.h"

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace app {

/// `hdrlab compare [--scene FILE] [--size WxH] [--bins N[,N...]] [--repeat K] [--csv OUT.csv]
///  [--chart OUT.svg]`
struct CompareOptions
{
    std::optional<std::filesystem::path> scene;
    std::string size = "1280x720";
    std::vector<unsigned> bins{hd::kDefaultHistogramBins};  ///< one comparison per bin count, in this order
    unsigned repeat = 10;
    std::optional<std::filesystem::path> csv;
    std::optional<std::filesystem::path> scanCsv;  ///< the scan methods' table as CSV
    std::optional<std::filesystem::path> chart;    ///< SVG: median time against bins, one line per method
    std::optional<std::string> image;              ///< compare on an image file instead of a scene frame
    std::string exrPart;                           ///< OpenEXR part, view or layer of `image`
    std::vector<std::string> methods;              ///< histogram method ids to run; empty = all
    std::optional<std::string> frameFormat;        ///< --frame-format (default scene::kDefaultFrameFormat)
};

/// The `compare` subcommand on the command line: the constructor adds it and its flags to `cli`; once
/// CLI11 has parsed, read() checks the flags and gives the options.
class CompareParser
{
public:
    CompareParser(CLI::App& cli, CommonFlags& common);
    ~CompareParser();
    CompareParser(const CompareParser&) = delete;
    CompareParser& operator=(const CompareParser&) = delete;

    /// Whether the command line named `compare`.
    bool parsed() const;
    /// The checked options; throws CliError. Sets `standardOutputIsData` when an output is "-".
    CompareOptions read(bool& standardOutputIsData) const;

    struct Flags;  ///< what CLI11 fills (CompareCommand.cpp)

private:
    std::unique_ptr<Flags> mFlags;
};

/// Runs `compare` on a headless context; returns the exit code.
int runCompareCommand(const CommonOptions& common, const CompareOptions& options);

}  // namespace app
