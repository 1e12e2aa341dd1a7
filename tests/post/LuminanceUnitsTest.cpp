// LuminanceUnitsTest.cpp: the units rule (post/LuminanceUnits.h) without GL: which input gets which
// definition, the settings that override it, the effective weights the passes use (the default
// exactly the Rec. 709 constants, so default results cannot move) and the one-line descriptions.
#include "image/RadianceColour.h"
#include "post/LuminanceUnits.h"
#include "post/PipelineParameters.h"

#include <gtest/gtest.h>

namespace {

image::RadianceHeader radianceWithExposure(double exposure)
{
    image::RadianceHeader header;
    header.exposure = exposure;
    header.orientation = "-Y +X";
    return header;
}

TEST(LuminanceUnits, DefaultIsOneCdPerUnitWithTheRec709ConstantsBitForBit)
{
    const post::LuminanceUnits units = post::resolveLuminanceUnits(post::UnitsMode::Auto, 0.0, std::nullopt);
    EXPECT_EQ(units, post::LuminanceUnits{});
    EXPECT_EQ(units.cdPerUnit(), 1.0);
    EXPECT_EQ(units.effectiveWeights(), hd::LuminanceWeights{});
    EXPECT_EQ(units.effectiveWeights().r, hd::kLumaR);
    EXPECT_EQ(units.effectiveWeights().g, hd::kLumaG);
    EXPECT_EQ(units.effectiveWeights().b, hd::kLumaB);
    EXPECT_EQ(units.describe(), "1 unit = 1 cd/m^2, Rec. 709 weights");
    EXPECT_EQ(units.probeNote(), "");
}

TEST(LuminanceUnits, RadiancePicturesAre179OverExposureWithRadiancesWeights)
{
    const post::LuminanceUnits units =
        post::resolveLuminanceUnits(post::UnitsMode::Auto, 0.0, radianceWithExposure(2.0));
    EXPECT_EQ(units.efficacy, 179.0);
    EXPECT_EQ(units.exposure, 2.0);
    EXPECT_EQ(units.cdPerUnit(), 89.5);
    EXPECT_EQ(units.weights, (std::array<float, 3>{0.26510582f, 0.67010582f, 0.06478836f}));
    const hd::LuminanceWeights w = units.effectiveWeights();
    EXPECT_EQ(w.r, float(double(0.26510582f) * 179.0 / 2.0));
    EXPECT_EQ(w.g, float(double(0.67010582f) * 179.0 / 2.0));
    EXPECT_EQ(w.b, float(double(0.06478836f) * 179.0 / 2.0));
    EXPECT_EQ(units.describe(),
              "Radiance picture: 1 unit = 179/EXPOSURE(=2) = 89.5 cd/m^2, weights 0.2651/0.6701/0.0648 (Radiance's "
              "default primaries)");
    EXPECT_EQ(units.probeNote(), "1 unit = 89.5 cd/m^2, Radiance picture");

    image::RadianceHeader withPrimaries = radianceWithExposure(0.5);
    withPrimaries.primaries = std::array<float, 8>{0.64f, 0.33f, 0.3f, 0.6f, 0.15f, 0.06f, 0.3127f, 0.329f};
    const post::LuminanceUnits fromPrimaries = post::resolveLuminanceUnits(post::UnitsMode::Auto, 0.0, withPrimaries);
    EXPECT_EQ(fromPrimaries.weights, *image::radianceLuminanceWeights(withPrimaries.primaries));
    EXPECT_EQ(fromPrimaries.cdPerUnit(), 358.0);
    EXPECT_EQ(fromPrimaries.describe(),
              "Radiance picture: 1 unit = 179/EXPOSURE(=0.5) = 358 cd/m^2, weights 0.2276/0.7019/0.0704 (the "
              "picture's PRIMARIES)");

    image::RadianceHeader xyz = radianceWithExposure(4.0);
    xyz.xyz = true;
    xyz.primaries = withPrimaries.primaries;  // irrelevant for XYZE: its pixels were converted with the default
    const post::LuminanceUnits fromXyz = post::resolveLuminanceUnits(post::UnitsMode::Auto, 0.0, xyz);
    EXPECT_EQ(fromXyz.cdPerUnit(), 0.25) << "an XYZE picture's Y is cd/m^2 times EXPOSURE";
    EXPECT_EQ(fromXyz.weights, *image::radianceLuminanceWeights(std::nullopt));
    EXPECT_EQ(fromXyz.describe(),
              "Radiance XYZE picture: 1 unit = 1/EXPOSURE(=4) = 0.25 cd/m^2, weights 0.2651/0.6701/0.0648 "
              "(Radiance's default primaries)");
}

TEST(LuminanceUnits, SettingsOverrideTheRule)
{
    const auto radiance = std::optional(radianceWithExposure(2.0));
    const post::LuminanceUnits plain = post::resolveLuminanceUnits(post::UnitsMode::Plain, 0.0, radiance);
    EXPECT_EQ(plain.effectiveWeights(), hd::LuminanceWeights{});
    EXPECT_EQ(plain.cdPerUnit(), 1.0);
    EXPECT_EQ(plain.describe(), "input.units=plain: 1 unit = 1 cd/m^2, Rec. 709 weights");

    const post::LuminanceUnits forced = post::resolveLuminanceUnits(post::UnitsMode::Radiance, 0.0, std::nullopt);
    EXPECT_EQ(forced.cdPerUnit(), 179.0);
    EXPECT_EQ(forced.weights, *image::radianceLuminanceWeights(std::nullopt));
    EXPECT_EQ(forced.describe(),
              "input.units=radiance: 1 unit = 179 cd/m^2, weights 0.2651/0.6701/0.0648 (Radiance's default primaries)");

    const post::LuminanceUnits exrInWatts = post::resolveLuminanceUnits(post::UnitsMode::Auto, 179.0, std::nullopt);
    EXPECT_EQ(exrInWatts.cdPerUnit(), 179.0);
    EXPECT_EQ(exrInWatts.effectiveWeights().g, float(double(hd::kLumaG) * 179.0));
    EXPECT_EQ(exrInWatts.describe(), "input.cd_per_unit: 1 unit = 179 cd/m^2, Rec. 709 weights");
    const post::LuminanceUnits scaledRadiance = post::resolveLuminanceUnits(post::UnitsMode::Auto, 683.0, radiance);
    EXPECT_EQ(scaledRadiance.cdPerUnit(), 683.0) << "replaces 179/EXPOSURE, keeps Radiance's weights";
    EXPECT_EQ(scaledRadiance.weights, *image::radianceLuminanceWeights(std::nullopt));
}

TEST(LuminanceUnits, SettingsKeysAreListed)
{
    const post::ParameterInfo* units = post::findParameter("input.units");
    ASSERT_NE(units, nullptr);
    EXPECT_EQ(units->choices, (std::vector<std::string>{"auto", "radiance", "plain"}));
    EXPECT_EQ(std::get<std::string>(units->defaultValue), "auto");
    const post::ParameterInfo* scale = post::findParameter("input.cd_per_unit");
    ASSERT_NE(scale, nullptr);
    EXPECT_EQ(std::get<double>(scale->defaultValue), 0.0);
    EXPECT_NE(post::formatParameterTable().find("input.cd_per_unit"), std::string::npos);
    EXPECT_THROW(post::parseAssignment("input.units=watts", "--set"), std::runtime_error);
    EXPECT_THROW(post::parseAssignment("input.cd_per_unit=-1", "--set"), std::runtime_error);
    EXPECT_EQ(post::parseUnitsMode("radiance"), post::UnitsMode::Radiance);
    EXPECT_FALSE(post::parseUnitsMode("Radiance"));
}

}  // namespace
