// AppSetupTest.cpp: command-line options become pipeline settings; capture metadata holds every key.
#include "app/AppSetup.h"
#include "profiling/Capture.h"

#include <gtest/gtest.h>

#include <set>

namespace {

TEST(AppSetupTest, OptionsOverrideOnlyWhatTheyName)
{
    post::PipelineSettings defaults;
    app::AppOptions none;
    post::PipelineSettings same = app::requestedSettings(none, defaults);
    EXPECT_EQ(same.histogramMethod, defaults.histogramMethod);
    EXPECT_EQ(same.spec.binCount, defaults.spec.binCount);
    EXPECT_EQ(same.rangeMode, defaults.rangeMode);

    app::AppOptions o;
    o.histogramMethod = "h";
    o.scanMethod = "s";
    o.toneOperator = "t";
    o.bins = 77;
    o.range = app::RangeOption{false, -3.0f, 9.0f};
    o.outOfRange = "separate";
    o.downsample = 4;
    post::PipelineSettings s = app::requestedSettings(o, defaults);
    EXPECT_EQ(s.histogramMethod, "h");
    EXPECT_EQ(s.scanMethod, "s");
    EXPECT_EQ(s.toneOperator, "t");
    EXPECT_EQ(s.spec.binCount, 77u);
    EXPECT_EQ(s.rangeMode, post::RangeMode::Manual);
    EXPECT_FLOAT_EQ(s.logMin, -3.0f);
    EXPECT_FLOAT_EQ(s.logMax, 9.0f);
    EXPECT_EQ(s.spec.outOfRange, post::OutOfRange::Separate);
    EXPECT_EQ(s.downsample, 4);
    EXPECT_EQ(app::describeSettings(s), "bins=77 range=-3:9 out_of_range=separate downsample=4");

    o.range = app::RangeOption{true};
    post::PipelineSettings automatic = app::requestedSettings(o, defaults);
    EXPECT_EQ(automatic.rangeMode, post::RangeMode::Auto);
    EXPECT_FLOAT_EQ(automatic.logMin, defaults.logMin) << "auto keeps the manual range for later";
}

TEST(AppSetupTest, CaptureMetadataHasEveryKey)
{
    post::GpuCaps caps;
    caps.gl.vendor = "V";
    caps.gl.renderer = "R";
    caps.gl.version = "4.5";
    caps.gl.platform = "P";
    auto meta = app::captureMetadata(caps, true, "scene.json", {64, 32}, post::PipelineSettings{});
    std::set<std::string> keys;
    for (const auto& [key, value] : meta)
        keys.insert(key);
    for (const char* key : profiling::kCaptureMetadataKeys)
        EXPECT_TRUE(keys.count(key)) << key;
    for (const auto& [key, value] : meta)
        if (key == "resolution")
            EXPECT_EQ(value, "64x32");
}

}  // namespace
