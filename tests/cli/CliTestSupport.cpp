#include "cli/CliTestSupport.h"

#include <cmath>
#include <cstdlib>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>

namespace cli_test {

std::string hdrlab(const std::string& arguments)
{
    return "'" + testing_support::hdrlabBinary().string() + "' " + arguments;
}

testing_support::CommandResult runIn(const std::filesystem::path& dir, const std::string& commandLine)
{
    return testing_support::runCommand("cd '" + dir.string() + "' && " + commandLine);
}

std::vector<std::string> lines(const std::string& output)
{
    std::vector<std::string> out;
    std::istringstream in(output);
    for (std::string line; std::getline(in, line);)
        if (!line.empty())
            out.push_back(line);
    return out;
}

std::string lineStarting(const std::string& output, const std::string& prefix)
{
    for (const std::string& line : lines(output))
        if (line.rfind(prefix, 0) == 0)
            return line;
    return {};
}

std::string flickerLine(const std::string& output)
{
    return lineStarting(output, "flicker: ");
}

double flickerValue(const std::string& line)
{
    try {
        return std::stod(line.substr(std::string("flicker: ").size()));
    } catch (const std::exception&) {
        return std::nan("");
    }
}

std::optional<ReportedViewport> reportedViewport(const std::string& output)
{
    std::smatch match;
    if (!std::regex_search(output, match, std::regex(R"(viewport (\d+),(\d+) (\d+)x(\d+) of (\d+)x(\d+))")))
        return std::nullopt;
    return ReportedViewport{std::stoi(match[1]), std::stoi(match[2]), std::stoi(match[3]),
                            std::stoi(match[4]), std::stoi(match[5]), std::stoi(match[6])};
}

std::size_t distinctColours(const image::Image8& image, std::size_t cap)
{
    std::set<std::uint32_t> colours;
    for (int y = 0; y < image.height && colours.size() < cap; ++y)
        for (int x = 0; x < image.width; ++x) {
            const std::uint8_t* p = image.at(x, y);
            colours.insert(std::uint32_t(p[0]) << 16 | std::uint32_t(p[1]) << 8 | p[2]);
        }
    return colours.size();
}

std::size_t countColour(const image::Image8& image, int r, int g, int b, int tolerance)
{
    std::size_t count = 0;
    for (int y = 0; y < image.height; ++y)
        for (int x = 0; x < image.width; ++x) {
            const std::uint8_t* p = image.at(x, y);
            if (std::abs(p[0] - r) <= tolerance && std::abs(p[1] - g) <= tolerance && std::abs(p[2] - b) <= tolerance)
                ++count;
        }
    return count;
}

}  // namespace cli_test
