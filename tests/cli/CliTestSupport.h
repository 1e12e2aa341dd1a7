// CliTestSupport.h: helpers for the tests that run the hdrlab binary.
#pragma once

#include "image/Image.h"
#include "support/TestPaths.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace cli_test {

/// The quoted hdrlab binary followed by `arguments` (a shell fragment).
std::string hdrlab(const std::string& arguments);
/// Runs a command line in `dir` (cd first).
testing_support::CommandResult runIn(const std::filesystem::path& dir, const std::string& commandLine);
/// Non-empty lines of the output.
std::vector<std::string> lines(const std::string& output);
/// The first line of `output` that starts with `prefix`, empty when there is none.
std::string lineStarting(const std::string& output, const std::string& prefix);
/// The "flicker: ..." line of a run's output, empty when there is none.
std::string flickerLine(const std::string& output);
/// X of "flicker: X EV/s ..."; NaN when the line has no figure.
double flickerValue(const std::string& line);
/// Number of distinct RGB colours of an 8-bit image (up to a cap).
std::size_t distinctColours(const image::Image8& image, std::size_t cap = 1000);
/// The viewport hdrlab reports with a screenshot of its panels ("viewport X,Y WxH of AxB"), in
/// pixels from the screenshot's top-left corner; nullopt where the output has none.
struct ReportedViewport
{
    int x = 0, y = 0, width = 0, height = 0;
    int canvasWidth = 0, canvasHeight = 0;  ///< the screenshot's size
};
std::optional<ReportedViewport> reportedViewport(const std::string& output);
/// Number of pixels within `tolerance` of (r, g, b) per channel.
std::size_t countColour(const image::Image8& image, int r, int g, int b, int tolerance = 1);

}  // namespace cli_test
