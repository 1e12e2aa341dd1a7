// LayoutHoldsStillTest.cpp: a layout that holds still (issue 35): choosing another histogram method,
// scan or tone operator moves none of the Pipeline panel's three combos, since they come first, each
// as tall as its longest name, and a method's own widgets come after them (ui/PipelinePanel.h). Each
// method and operator that runs here is picked in turn (headless --ui at 800x600, the tightest
// layout, and 1280x720) and the combos' tops the --ui line reports ("combo tops (y): method 109, scan
// 162, operator 215") must equal those of the defaults.
#include "cli/CliTestSupport.h"

#include <gtest/gtest.h>

#include <regex>
#include <sstream>

namespace {

namespace fs = std::filesystem;

/// The ids `hdrlab --list` marks available under `heading` ("Tone operators (--operator):").
std::vector<std::string> availableIds(const std::string& listing, const std::string& heading)
{
    std::vector<std::string> ids;
    std::istringstream lines(listing);
    std::string line;
    bool inSection = false;
    const std::regex entry(R"(^  (\S+)\s.* - available)");
    while (std::getline(lines, line)) {
        if (!line.empty() && line[0] != ' ')
            inSection = line.rfind(heading, 0) == 0;
        std::smatch match;
        if (inSection && std::regex_search(line, match, entry))
            ids.push_back(match[1]);
    }
    return ids;
}

std::string comboTops(const std::string& output)
{
    std::smatch match;
    if (!std::regex_search(output, match, std::regex(R"(combo tops \(y\): ([^;\n]*))")))
        return {};
    return match[1];
}

TEST(LayoutHoldsStillTest, PickingAnyMethodOrOperatorMovesNoCombo)
{
    const fs::path dir = testing_support::scratchDir("cli-layout-holds-still");
    const auto list = cli_test::runIn(dir, cli_test::hdrlab("--list"));
    ASSERT_EQ(list.exitCode, 0) << list.output;
    const std::vector<std::pair<std::string, std::string>> stages = {
        {"Histogram methods", "--histogram-method"}, {"Scan methods", "--scan"}, {"Tone operators", "--operator"}};
    for (const char* size : {"800x600", "1280x720"}) {
        const std::string base = std::string("--headless --ui --frames 2 --size ") + size + " --screenshot u.png";
        const auto defaults = cli_test::runIn(dir, cli_test::hdrlab(base));
        ASSERT_EQ(defaults.exitCode, 0) << defaults.output;
        const std::string expected = comboTops(defaults.output);
        ASSERT_NE(expected.find("operator"), std::string::npos) << "no combo tops reported:\n" << defaults.output;
        for (const auto& [heading, flag] : stages) {
            const std::vector<std::string> ids = availableIds(list.output, heading);
            int ran = 0;
            for (const std::string& id : ids) {
                const auto run = cli_test::runIn(dir, cli_test::hdrlab(base + " " + flag + " " + id));
                if (run.exitCode != 0) {
                    // A method this source cannot feed (fused-lighting under forward lighting) is refused.
                    EXPECT_NE(run.output.find("error"), std::string::npos) << flag << " " << id << "\n" << run.output;
                    continue;
                }
                ++ran;
                EXPECT_EQ(comboTops(run.output), expected) << size << " " << flag << " " << id << "\n" << run.output;
                EXPECT_NE(run.output.find("combos visible without scrolling: method, scan, operator"),
                          std::string::npos)
                    << size << " " << flag << " " << id << "\n"
                    << run.output;
            }
            EXPECT_GE(ran, 3) << heading << ": too few ran to check anything\n" << list.output;
        }
    }
}

}  // namespace
