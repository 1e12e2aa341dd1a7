// WardFactorsGlTest.cpp: the experiments of `bench ward-factors` measure the fit they claim to: on a
// random HDR frame, the pipeline's rows (the spread path, each ceiling) are the CPU model's bit for
// bit, every complete variant of the pipeline's workgroup size (each ceiling loop that runs here, the
// one-workgroup kernel, other slices per invocation) gives the pipeline's curve and state bit for bit
// (the larger workgroups are reported, not required: they may round differently on some GPUs), the
// stage rows stop where they say (the pass counts: one for the first-pass rows, the method's for the
// every-pass rows), and the table names every variant.
#include "commands/bench/WardFactors.h"
#include "gl/Texture.h"
#include "support/GlTestEnvironment.h"
#include "support/HistogramTestSupport.h"

#include <gtest/gtest.h>

namespace {

namespace ts = testing_support;

class WardFactorsGlTest : public ts::GlTest
{
};

TEST_F(WardFactorsGlTest, CompleteVariantsAreExactAndStagesStopWhereTheySay)
{
    post::PassContext ctx{ts::shaderLibrary(), ts::testProfiler(), ts::testGpuCaps(), 0};
    // A wide spread under a tall peak (two pixels in three within 2 EV): the peak's bins are trimmed
    // over several passes and the fit ends with the histogram outcome.
    ts::TestImage picture = ts::randomHdrImage(640, 360, -8.0f, 10.0f, 77);
    const ts::TestImage peak = ts::randomHdrImage(640, 360, -1.0f, 1.0f, 78);
    for (std::size_t i = 0; i < picture.rgba.size(); ++i)
        if ((i / 4) % 3 != 0)
            picture.rgba[i] = peak.rgba[i];
    ts::addSpecialPixels(picture, 61);
    const gl::Texture frame = ts::uploadImage(picture, "test.ward-factors-frame");
    const std::vector<app::WardFactorVariant> variants = app::wardFactorVariants();
    ASSERT_EQ(variants.front().name, "pipeline");
    const std::vector<app::WardFactorRow> rows =
        app::measureWardFactors(ctx, post::ImageInput{frame, {picture.width, picture.height}}, 60.0f, 1, variants);
    ASSERT_EQ(rows.size(), variants.size());
    int complete = 0;
    int pipelines = 0;
    int methodPasses[2] = {0, 0};
    for (const app::WardFactorRow& row : rows)
        if (row.error.empty() && row.variant.complete() && row.variant.loop == post::WardCeilingLoop::Workgroup &&
            row.variant.groupSize == 0)
            methodPasses[row.variant.humanContrast] = row.passes;
    ASSERT_GT(methodPasses[0], 1) << "the frame must take several passes for the stage rows to mean anything";
    for (const app::WardFactorRow& row : rows) {
        SCOPED_TRACE(row.variant.name);
        if (!row.error.empty()) {
            EXPECT_EQ(row.variant.loop, post::WardCeilingLoop::LanesSubgroup) << row.error;
            continue;
        }
        EXPECT_GT(row.medianUs, 0.0);
        if (row.variant.pipeline()) {
            ++pipelines;
            EXPECT_TRUE(row.cpuExact) << row.cpuDifference;
        }
        if (row.variant.complete()) {
            ++complete;
            if (row.variant.groupSize == 0)
                EXPECT_TRUE(row.exact) << row.difference << "; against the CPU model: " << row.cpuDifference;
            EXPECT_EQ(row.outcome, 0);
            EXPECT_EQ(row.passes, methodPasses[row.variant.humanContrast]);
        } else if (row.variant.stopAfter == 3 && row.variant.passLimit == 1) {
            EXPECT_EQ(row.passes, 1);
        } else if (row.variant.stopAfter == 3 && !row.variant.constantThreshold) {
            EXPECT_EQ(row.passes, methodPasses[row.variant.humanContrast]);
        }
    }
    EXPECT_GE(complete, 5);
    EXPECT_EQ(pipelines, 2) << "one reference per ceiling";
    const std::string table = app::formatWardFactorTable(rows);
    for (const app::WardFactorVariant& v : variants)
        EXPECT_NE(table.find(v.name), std::string::npos) << v.name;
    EXPECT_NE(table.find("workgroup loop: read + range + log-average"), std::string::npos) << table;
    EXPECT_NE(table.find("spread (the pipeline): range dispatch"), std::string::npos) << table;
    EXPECT_EQ(table.find("DIFFERENT from the CPU model"), std::string::npos) << table;
    const std::string csv = app::formatWardFactorCsv(rows);
    EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), std::ptrdiff_t(rows.size() + 1));
}

// The row with the histogram pass's range keys, on a frame whose foveal image that pass makes: the fit
// takes the keys (one dispatch) and gives the two dispatches' curve and state.
TEST_F(WardFactorsGlTest, RangeKeysRowMatchesTheTwoDispatches)
{
    post::PassContext ctx{ts::shaderLibrary(), ts::testProfiler(), ts::testGpuCaps(), 0};
    ts::TestImage picture = ts::randomHdrImage(1280, 720, -8.0f, 12.0f, 79);
    ts::addSpecialPixels(picture, 67);
    const gl::Texture frame = ts::uploadImage(picture, "test.ward-factors-keys-frame");
    std::vector<app::WardFactorVariant> variants;
    for (const app::WardFactorVariant& v : app::wardFactorVariants())
        if (v.rangeKeys)
            variants.push_back(v);
    ASSERT_EQ(variants.size(), 1u);
    const std::vector<app::WardFactorRow> rows =
        app::measureWardFactors(ctx, post::ImageInput{frame, {picture.width, picture.height}}, 60.0f, 1, variants);
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0].error, "");
    EXPECT_EQ(rows[0].keysDifference, "");
    EXPECT_NE(app::formatWardFactorTable(rows).find("= two dispatches"), std::string::npos);
}

}  // namespace
