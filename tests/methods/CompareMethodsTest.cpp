// compareMethods (the core of `hdrlab compare` and "compare all"): on a bin-centre image every
// available method reports zero difference from the CPU reference and the same curve; unavailable
// methods carry their reason; the table and CSV list every method. On a scene frame the fused method
// (binned by the frame's deferred lighting pass, rendered again) is exact too, and the methods after
// it still see the frame compare started with.
#include "compare/CompareMethods.h"
#include "frames/SceneFrameSource.h"
#include "post/histogram/HistogramFusedLighting.h"
#include "scene/Scene.h"
#include "scene/SceneRenderer.h"
#include "support/GlTestEnvironment.h"
#include "support/HistogramTestSupport.h"

#include <sstream>

namespace ts = testing_support;

namespace {

class CompareMethodsTest : public ts::GlTest
{
};

TEST_F(CompareMethodsTest, EveryAvailableMethodMatchesTheCpuOnABinCentreImage)
{
    constexpr float kLogMin = -5.0f, kLogMax = 7.0f;
    ts::TestImage image = ts::binCentreImage(37, 19, kLogMin, kLogMax, 64, 21, 6);
    ts::addSpecialPixels(image, 11);
    gl::Texture texture = ts::uploadImage(image);
    post::PassContext ctx{ts::shaderLibrary(), ts::testProfiler(), ts::testGpuCaps(), 0};
    app::CompareSettings settings;
    settings.bins = 64;
    settings.repeat = 2;
    settings.range = std::make_pair(kLogMin, kLogMax);
    settings.outOfRange = post::OutOfRange::Separate;
    app::CompareReport report = app::compareMethods(ctx, post::ImageInput{texture, {37, 19}}, settings);

    ASSERT_EQ(report.rows.size(), ts::allHistogramMethodIds().size());
    int ran = 0;
    for (const app::CompareRow& row : report.rows) {
        if (!row.available) {
            EXPECT_FALSE(row.reason.empty()) << row.id;
            continue;
        }
        ++ran;
        EXPECT_FALSE(row.failed) << row.id << ": " << row.reason;
        EXPECT_TRUE(row.exact()) << row.id << " L1 " << row.l1Difference << " totals " << row.gpuTotal << "/"
                                 << row.cpuTotal;
        EXPECT_EQ(row.maxBinDifference, 0u) << row.id;
        EXPECT_EQ(row.buildMs.size(), 2u) << row.id;
        ASSERT_TRUE(row.curveDifference.has_value()) << row.id;
        EXPECT_EQ(*row.curveDifference, 0.0) << row.id;
        EXPECT_EQ(row.histogram, report.cpuHistogram) << row.id;
    }
    EXPECT_GE(ran, 6);

    const std::string table = app::formatCompareTable(report);
    const std::string csv = app::formatCompareCsv(report);
    for (const app::CompareRow& row : report.rows) {
        EXPECT_NE(table.find(row.id), std::string::npos) << row.id;
        EXPECT_NE(csv.find(row.id + ","), std::string::npos) << row.id;
    }
    EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), std::ptrdiff_t(report.rows.size() + 1));
}

TEST_F(CompareMethodsTest, TheFusedMethodIsExactOnARenderedSceneFrame)
{
    const scene::Scene s = scene::defaultScene();
    scene::SceneRenderer renderer(ts::shaderLibrary(), s);
    const glm::ivec2 size{67, 41};
    renderer.resize(size);
    renderer.render(s.camera, scene::RenderOptions{});
    const std::vector<float> before = renderer.hdrTarget().readRgbaFloat();
    post::PassContext ctx{ts::shaderLibrary(), ts::testProfiler(), ts::testGpuCaps(), 0};
    app::CompareSettings settings;
    settings.bins = 1000;
    settings.repeat = 2;
    settings.outOfRange = post::OutOfRange::Separate;
    // scatter-blend runs after the fused method (registry order): it must get the frame compare read first.
    settings.onlyMethods = {"compute-shared-atomic", std::string(post::HistogramFusedLighting::kId), "scatter-blend"};
    const post::ImageInput input{renderer.hdrTarget(), size};
    const app::CompareReport unavailable = app::compareMethods(ctx, input, settings);
    ASSERT_EQ(unavailable.rows.size(), 3u);
    ASSERT_EQ(unavailable.rows[1].id, post::HistogramFusedLighting::kId);
    EXPECT_FALSE(unavailable.rows[1].available) << "no producer given";
    EXPECT_EQ(unavailable.rows[1].reason, post::kNeedsFusedProducer);

    int renders = 0;
    settings.renderFused = [&](post::FusedHistogramTarget& target) {
        ++renders;
        const scene::FusedHistogramOutputs outputs = app::fusedHistogramOutputs(target, {});
        scene::RenderOptions options;
        options.fusedHistogram = &outputs;
        renderer.render(s.camera, options);
    };
    const app::CompareReport report = app::compareMethods(ctx, input, settings);
    EXPECT_EQ(renders, 1);
    ASSERT_EQ(report.rows.size(), 3u);
    ASSERT_EQ(report.rows[2].id, "scatter-blend");
    for (const app::CompareRow& row : report.rows) {
        EXPECT_TRUE(row.available && !row.failed) << row.id << ": " << row.reason;
        EXPECT_TRUE(row.exact()) << row.id << " L1 " << row.l1Difference << " totals " << row.gpuTotal << "/"
                                 << row.cpuTotal << "; " << row.status;
    }
    EXPECT_NE(report.rows[1].status.find("scene/lighting"), std::string::npos) << report.rows[1].status;
    EXPECT_EQ(renderer.hdrTarget().readRgbaFloat(), before) << "compare gives the frame back as it found it";
}

}  // namespace
