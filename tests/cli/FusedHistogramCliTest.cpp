// FusedHistogramCliTest.cpp: the fused-lighting histogram method end to end: chosen with
// --histogram-method, --verify says the histogram binned in the deferred lighting pass is exact (also
// on the NaN/Inf/negative stress preset, whose texels the lighting pass writes itself, with the auto
// range); `compare` says "exact" for it; split view B keeps a frame-reading method and agrees with A;
// where the frame does not come from the deferred lighting pass (forward lighting, view, tonemap, B)
// it is refused with the reason.
#include "cli/CliTestSupport.h"
#include "image/ImageIo.h"
#include "support/TestPaths.h"

#include <gtest/gtest.h>

namespace {

namespace fs = std::filesystem;
using cli_test::hdrlab;

constexpr const char* kReason = "needs the scene's deferred lighting pass";

TEST(FusedHistogramCli, VerifySaysTheFusedHistogramIsExact)
{
    const auto result = testing_support::runCommand(
        hdrlab("--headless --frames 3 --size 67x45 --histogram-method fused-lighting --bins 1000 --verify"));
    ASSERT_EQ(result.exitCode, 0) << result.output;
    EXPECT_NE(result.output.find("verify (fused-lighting"), std::string::npos) << result.output;
    EXPECT_NE(result.output.find("bins: exact"), std::string::npos) << result.output;
    EXPECT_NE(result.output.find("histogram/fused-lighting"), std::string::npos) << result.output;
}

TEST(FusedHistogramCli, StressPresetTexelsAreBinnedByTheLightingPass)
{
    const fs::path scene = testing_support::sourceDir() / "scenes" / "stress-nan-inf.json";
    const auto result = testing_support::runCommand(
        hdrlab("--headless --frames 3 --size 131x77 --scene '" + scene.string() +
               "' --histogram-method fused-lighting --out-of-range separate --range auto --verify"));
    ASSERT_EQ(result.exitCode, 0) << result.output;
    EXPECT_NE(result.output.find("cpu 64, 64, 64"), std::string::npos) << "64 NaN, 64 +Inf, 64 negative\n"
                                                                       << result.output;
    EXPECT_NE(result.output.find("(gpu equal)"), std::string::npos) << result.output;
    EXPECT_NE(result.output.find("bins: exact"), std::string::npos) << result.output;
    EXPECT_EQ(result.output.find("scene/inject"), std::string::npos) << "injected inside scene/lighting\n"
                                                                     << result.output;
}

TEST(FusedHistogramCli, CompareSaysExactForTheFusedMethod)
{
    const auto result = testing_support::runCommand(
        hdrlab("compare --size 61x37 --bins 64,4096 --repeat 1 --methods compute-shared-atomic,fused-lighting"));
    ASSERT_EQ(result.exitCode, 0) << result.output;
    std::size_t fusedRows = 0;
    for (const std::string& line : cli_test::lines(result.output)) {
        if (line.rfind("fused-lighting ", 0) != 0)
            continue;
        ++fusedRows;
        EXPECT_NE(line.find("exact"), std::string::npos) << line;
    }
    EXPECT_EQ(fusedRows, 2u) << result.output;
}

// compare checks the frame as the app stores it (pre-exposed RGBA16F) or as --frame-format asks; the
// fused method is exact on each, and the table names the frame.
TEST(FusedHistogramCli, CompareSaysExactOnEveryFrameFormat)
{
    for (const auto& [format, named] :
         {std::pair{"", "(rgba16f, pre-exposed by 2^"}, std::pair{" --frame-format rgba32f", "(rgba32f)"},
          std::pair{" --frame-format auto", "(auto)"}}) {
        const auto result = testing_support::runCommand(
            hdrlab(std::string("compare --size 45x29 --bins 256 --repeat 1 --methods compute-shared-atomic,"
                               "fused-lighting") +
                   format));
        ASSERT_EQ(result.exitCode, 0) << result.output;
        EXPECT_NE(result.output.find(named), std::string::npos) << named << " in\n" << result.output;
        std::size_t exactRows = 0;
        for (const std::string& line : cli_test::lines(result.output))
            if ((line.rfind("fused-lighting ", 0) == 0 || line.rfind("compute-shared-atomic ", 0) == 0) &&
                line.find("exact") != std::string::npos)
                ++exactRows;
        EXPECT_EQ(exactRows, 2u) << format << "\n" << result.output;
    }
    const auto refused = testing_support::runCommand(hdrlab("compare --image x.exr --frame-format rgba16f"));
    EXPECT_NE(refused.exitCode, 0);
    EXPECT_NE(refused.output.find("--frame-format applies to the scene"), std::string::npos) << refused.output;
}

// Split view: B cannot take the fused method (the lighting pass bins for A) and keeps a method that
// reads the frame; on the same frame both histograms are equal bin for bin.
TEST(FusedHistogramCli, SplitViewBReadsTheFrameAndAgreesWithA)
{
    const auto result = testing_support::runCommand(
        hdrlab("--headless --frames 3 --size 96x54 --histogram-method fused-lighting --split side-by-side"));
    ASSERT_EQ(result.exitCode, 0) << result.output;
    EXPECT_NE(result.output.find("A: ward, fused-lighting | B: ward, compute-shared-atomic"), std::string::npos)
        << result.output;
    EXPECT_NE(result.output.find("max |bin diff| 0, L1 0"), std::string::npos) << result.output;
    const auto refused = testing_support::runCommand(
        hdrlab("--headless --frames 1 --size 32x18 --split side-by-side --set-b histogram.method=fused-lighting"));
    EXPECT_NE(refused.exitCode, 0) << refused.output;
    EXPECT_NE(refused.output.find(kReason), std::string::npos) << refused.output;
}

TEST(FusedHistogramCli, RefusedWhereTheFrameIsNotLitByTheDeferredPass)
{
    auto forward = testing_support::runCommand(
        hdrlab("--headless --frames 1 --size 16x16 --lighting forward --histogram-method fused-lighting"));
    EXPECT_NE(forward.exitCode, 0) << forward.output;
    EXPECT_NE(forward.output.find(kReason), std::string::npos) << forward.output;

    const fs::path dir = testing_support::scratchDir("cli-fused");
    image::ImageF image(8, 6);
    for (int y = 0; y < 6; ++y)
        for (int x = 0; x < 8; ++x) {
            float* p = image.at(x, y);
            p[0] = p[1] = p[2] = float(1 + x + y);
            p[3] = 1.0f;
        }
    image::writeExr(dir / "small.exr", image, image::ExrPixelType::Float);
    auto view = cli_test::runIn(dir, hdrlab("view small.exr --headless --frames 1 --histogram-method fused-lighting"));
    EXPECT_NE(view.exitCode, 0) << view.output;
    EXPECT_NE(view.output.find(kReason), std::string::npos) << view.output;
    auto tonemap = cli_test::runIn(dir, hdrlab("tonemap small.exr -o small.png --histogram-method fused-lighting"));
    EXPECT_NE(tonemap.exitCode, 0) << tonemap.output;
    EXPECT_NE(tonemap.output.find(kReason), std::string::npos) << tonemap.output;
    EXPECT_FALSE(fs::exists(dir / "small.png"));
}

}  // namespace
