// The fusion local exposure in the pipeline (local_exposure.method=fusion; post/localexposure/
// FusionLocalExposure, docs/TONE_OPERATORS.md "Local exposure: fusion"): --verify (the metered exposure,
// the map bit for bit, the picture <= 1 LSB) for every global operator, SDR and HDR10, at awkward sizes;
// the local-exposure view; off after fusion gives the picture of before; the probe line; the settings.
#include "post/PipelineParameters.h"
#include "post/PostPipeline.h"
#include "post/localexposure/BilateralLocalExposure.h"
#include "post/localexposure/FusionLocalExposure.h"
#include "support/HistogramTestSupport.h"
#include "support/PipelineGlTest.h"
#include "verify/PipelineVerify.h"

#include <string>

namespace ts = testing_support;

namespace {

using FusionLocalExposureGl = ts::PipelineGlTest;

ts::TestImage twoZoneImage(int width, int height, std::uint32_t seed)
{
    return ts::twoZoneImage(width, height, seed, -6.0f, 4.0f);
}

void setFusion(post::PipelineParameters& parameters)
{
    parameters.set("local_exposure.method", "fusion");
    parameters.set("local_exposure.highlight_contrast_scale", "0.5");
    parameters.set("local_exposure.shadow_contrast_scale", "0.7");
    parameters.set("local_exposure.middle_grey_bias", "0.5");
}

TEST_F(FusionLocalExposureGl, VerifiesForEveryGlobalOperatorSdrAndHdr10AtAwkwardSizes)
{
    setFusion(*parameters);
    // 1x1; odd sizes that end mid-block (reduction 4); a size with a partial last block on both axes.
    for (const glm::ivec2 size : {glm::ivec2(1, 1), glm::ivec2(3, 2), glm::ivec2(97, 75), glm::ivec2(130, 67)}) {
        setImage(twoZoneImage(size.x, size.y, 21u + std::uint32_t(size.x)));
        for (const char* op : {"percentile", "equalize", "ward", "exposure"})
            for (const char* target : {"sdr", "hdr10"}) {
                SCOPED_TRACE(std::to_string(size.x) + "x" + std::to_string(size.y) + " " + op + " " + target);
                parameters->set("tonemap.operator", op);
                parameters->set("display.target", target);
                const verify::VerifyReport report = verifyRun();
                EXPECT_TRUE(report.ok) << report.text;
                EXPECT_TRUE(pipeline->lastRun().usedLocalExposure);
                EXPECT_NE(report.text.find("local exposure fusion map"), std::string::npos) << report.text;
                EXPECT_NE(report.text.find("exact"), std::string::npos) << report.text;
                EXPECT_NE(report.text.find("apply pass with local exposure"), std::string::npos) << report.text;
            }
    }
}

TEST_F(FusionLocalExposureGl, ChangesThePictureAndOffGivesTheOldPictureBack)
{
    setImage(twoZoneImage(77, 45, 5));
    for (const char* op : {"percentile", "equalize", "ward", "exposure"}) {
        SCOPED_TRACE(op);
        parameters->set("tonemap.operator", op);
        parameters->set("local_exposure.method", "off");
        run();
        const auto off = pipeline->toneMappedTexture().readRgba8();
        EXPECT_FALSE(pipeline->lastRun().usedLocalExposure);
        setFusion(*parameters);
        run();
        EXPECT_TRUE(pipeline->lastRun().usedLocalExposure);
        EXPECT_NE(pipeline->toneMappedTexture().readRgba8(), off);  // contrast 0.5/0.7: a bracket of 3/1.8 EV
        parameters->set("local_exposure.method", "off");
        run();
        EXPECT_EQ(pipeline->toneMappedTexture().readRgba8(), off);
        // Contrast scales of 1: the bracket is [0, 0], the map 0 everywhere: the picture of off.
        parameters->set("local_exposure.method", "fusion");
        parameters->set("local_exposure.highlight_contrast_scale", "1");
        parameters->set("local_exposure.shadow_contrast_scale", "1");
        run();
        EXPECT_EQ(pipeline->toneMappedTexture().readRgba8(), off);
        parameters->set("local_exposure.method", "off");
    }
}

TEST_F(FusionLocalExposureGl, LocalExposureViewIsTheReferenceAndBilateralTermsAreRefused)
{
    setImage(twoZoneImage(131, 67, 8));
    parameters->set("tonemap.operator", "percentile");
    setFusion(*parameters);
    pipeline->setViewMode(post::ViewMode::LocalExposure);
    const verify::VerifyReport report = verifyRun();
    EXPECT_TRUE(pipeline->lastRun().localExposureView);
    EXPECT_TRUE(report.ok) << report.text;
    EXPECT_NE(report.text.find("local exposure view vs CPU reference"), std::string::npos) << report.text;
    // Fusion has no base, blurred luminance or detail: those views show the picture (with a warning).
    for (post::ViewMode mode : {post::ViewMode::LocalBase, post::ViewMode::LocalBlurred, post::ViewMode::LocalDetail}) {
        SCOPED_TRACE(std::string(post::viewModeName(mode)));
        pipeline->setViewMode(mode);
        const verify::VerifyReport picture = verifyRun();
        EXPECT_FALSE(pipeline->lastRun().localExposureView);
        EXPECT_TRUE(pipeline->lastRun().usedLocalExposure);
        EXPECT_TRUE(picture.ok) << picture.text;
    }
}

TEST_F(FusionLocalExposureGl, ProbeShowsFusionsExposure)
{
    setImage(twoZoneImage(96, 64, 4));
    parameters->set("tonemap.operator", "percentile");
    setFusion(*parameters);
    pipeline->setProbePoints({{10, 10}, {80, 40}, {-1, 3}});
    run();
    glFinish();
    pipeline->pollProbe();
    const std::vector<post::LocalExposureProbe>& probes = pipeline->localExposure().probeRecords();
    ASSERT_EQ(probes.size(), 3u);
    EXPECT_FALSE(probes[2].valid);
    EXPECT_EQ(probes[0].method, 2);
    const std::string line = pipeline->describeLocalExposureProbe(0);
    EXPECT_NE(line.find("fusion"), std::string::npos) << line;
    // Within the bracket [-3, +1.8] EV (highlight 0.5, shadow 0.7).
    for (int i = 0; i < 2; ++i) {
        EXPECT_GE(probes[std::size_t(i)].ev, -3.0f - 1e-5f);
        EXPECT_LE(probes[std::size_t(i)].ev, 1.8f + 1e-5f);
    }
}

}  // namespace
