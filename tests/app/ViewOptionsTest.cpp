// ViewOptionsTest.cpp: --view and --probe parsing, and the false-colour ramp's definition on the CPU
// (bands over the histogram range, colours at the ends, special colours, EV vs EV100).
#include "cli/Cli.h"
#include "post/FalseColour.h"
#include "shared/HostDevice.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <set>

namespace {

TEST(ViewOptions, ViewAndProbesAreParsedForTheAppAndTonemap)
{
    auto run = app::parseCommandLine({"--headless", "--view", "false-colour", "--probe", "3,4", "--probe", "0,0"});
    ASSERT_EQ(run.kind, app::CommandKind::Run) << run.error;
    EXPECT_EQ(run.app.view, "false-colour");
    ASSERT_EQ(run.app.probes.size(), 2u);
    EXPECT_EQ(run.app.probes[0], glm::ivec2(3, 4));
    EXPECT_EQ(run.app.probes[1], glm::ivec2(0, 0));
    auto plain = app::parseCommandLine({"--headless"});
    EXPECT_FALSE(plain.app.view);
    EXPECT_TRUE(plain.app.probes.empty());

    auto tonemap =
        app::parseCommandLine({"tonemap", "in.exr", "-o", "o.png", "--view", "false-colour", "--probe", "7,1"});
    ASSERT_EQ(tonemap.kind, app::CommandKind::Tonemap) << tonemap.error;
    EXPECT_EQ(tonemap.tonemap.view, "false-colour");
    ASSERT_EQ(tonemap.tonemap.probes.size(), 1u);
    EXPECT_EQ(tonemap.tonemap.probes[0], glm::ivec2(7, 1));
    EXPECT_EQ(app::parseCommandLine({"tonemap", "in.exr", "-o", "o.png"}).tonemap.view, "tonemapped");

    for (const char* bad : {"1", "1,", ",1", "a,b", "1;2", "1,2,3", "1.5,2"}) {
        auto refused = app::parseCommandLine({"--probe", bad});
        EXPECT_EQ(refused.exitCode, 2) << bad;
        EXPECT_NE(refused.error.find("is not X,Y"), std::string::npos) << refused.error;
    }
    auto far = app::parseCommandLine({"--probe", "16384,0"});
    EXPECT_NE(far.error.find("--probe 16384,0 is outside 0..16383"), std::string::npos) << far.error;
    auto help = app::parseCommandLine({"--help"});
    EXPECT_NE(help.output.find("--view"), std::string::npos);
    EXPECT_NE(help.output.find("--probe"), std::string::npos);
}

TEST(ViewOptions, FalseColourBandsFollowTheHistogramRangeInWholeEv)
{
    // The default range -10..20: 30 bands of 1 EV, the first at EV -10.
    auto bands = post::falseColourBands(-10.0f, 20.0f);
    ASSERT_EQ(bands.size(), 30u);
    EXPECT_EQ(bands.front().evLow, -10);
    EXPECT_EQ(bands.back().evHigh, 20);
    EXPECT_EQ(bands.front().rgb, hd::hdFalseColourAnchor(0));
    EXPECT_EQ(bands.back().rgb, hd::hdFalseColourAnchor(hd::kFalseColourAnchorCount - 1));
    std::set<std::uint32_t> distinct;
    for (const auto& band : bands)
        distinct.insert(band.rgb);
    EXPECT_EQ(distinct.size(), bands.size()) << "every band has its own colour";
    // A fractional range widens to whole EV; a huge one gets several EV per band.
    bands = post::falseColourBands(-3.5f, 8.25f);
    EXPECT_EQ(bands.front().evLow, -4);
    EXPECT_EQ(bands.back().evHigh, 9);
    bands = post::falseColourBands(-100.0f, 100.0f);
    EXPECT_LE(int(bands.size()), hd::kFalseColourMaxBands);
    EXPECT_EQ(bands.front().evHigh - bands.front().evLow, 5);
    EXPECT_EQ(post::falseColourBands(2.0f, 2.5f).size(), 1u);

    // Pixels: EV = log2 L, banded by floor; special values.
    EXPECT_EQ(hd::hdFalseColourBand(1.0f, -10.0f, 20.0f), 10);    // EV 0
    EXPECT_EQ(hd::hdFalseColourBand(1.999f, -10.0f, 20.0f), 10);  // EV 0.999
    EXPECT_EQ(hd::hdFalseColourBand(0.5f, -10.0f, 20.0f), 9);     // EV -1
    EXPECT_EQ(hd::hdFalseColourBand(0.0f, -10.0f, 20.0f), hd::kFalseColourBandUnder);
    EXPECT_EQ(hd::hdFalseColourBand(std::exp2(-11.0f), -10.0f, 20.0f), hd::kFalseColourBandUnder);
    EXPECT_EQ(hd::hdFalseColourBand(std::exp2(21.0f), -10.0f, 20.0f), hd::kFalseColourBandOver);
    EXPECT_EQ(hd::hdFalseColourBand(-1.0f, -10.0f, 20.0f), hd::kFalseColourBandInvalid);
    EXPECT_EQ(hd::hdFalseColourBand(std::numeric_limits<float>::quiet_NaN(), -10.0f, 20.0f),
              hd::kFalseColourBandInvalid);
    EXPECT_EQ(hd::hdFalseColourBand(std::numeric_limits<float>::infinity(), -10.0f, 20.0f),
              hd::kFalseColourBandInvalid);
    EXPECT_EQ(hd::hdFalseColourOf(-1.0f, -10.0f, 20.0f), 0xFF00FFu);
    EXPECT_EQ(hd::hdFalseColourOf(0.0f, -10.0f, 20.0f), 0x000000u);
    EXPECT_EQ(hd::hdFalseColourOf(1e30f, -10.0f, 20.0f), 0xFFFFFFu);
    // EV100 (ISO 100, K = 12.5): 0.125 cd/m^2 is EV100 0.
    EXPECT_EQ(std::log2(0.125f) + hd::kEv100Offset, 0.0f);
}

TEST(ViewOptions, ViewModeNamesRoundTrip)
{
    for (post::ViewMode mode : {post::ViewMode::ToneMapped, post::ViewMode::FalseColour})
        EXPECT_EQ(post::parseViewMode(post::viewModeName(mode)), mode);
    EXPECT_FALSE(post::parseViewMode("sepia"));
}

}  // namespace
