// HistogramFactorsGlTest.cpp: the factor experiments of `bench histogram-factors` measure the method
// they claim to: on RGBA16F frames of awkward sizes (1x1, odd, larger than a tile and a grid) with
// NaN, Inf, negative and zero pixels, at several bin counts, the "pipeline" variant gives the CPU
// reference's histogram, every variant that bins exactly (another source, shape, grid, capacity, the
// run-length merge off) gives the pipeline variant's histogram bit for bit, the hardware-log2
// variants keep every pixel and move pixels only between neighbouring bins, and the read-only and
// merge-only variants bin nothing.
#include "commands/bench/HistogramFactors.h"
#include "gl/Texture.h"
#include "reference/Histogram.h"
#include "support/GlTestEnvironment.h"
#include "support/HistogramTestSupport.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

namespace {

namespace ts = testing_support;

class HistogramFactorsGlTest : public ts::GlTest
{
};

TEST_F(HistogramFactorsGlTest, VariantsBinLikeTheMethodAndTheReference)
{
    post::PassContext ctx{ts::shaderLibrary(), ts::testProfiler(), ts::testGpuCaps(), 0};
    const std::vector<app::HistogramFactorVariant> variants = app::histogramFactorVariants();
    ASSERT_EQ(variants.front().name, "pipeline");
    for (glm::ivec2 size : {glm::ivec2{1, 1}, glm::ivec2{37, 23}, glm::ivec2{301, 67}})
        for (std::uint32_t bins : {1u, 64u, 256u, 1000u}) {
            SCOPED_TRACE(std::to_string(size.x) + "x" + std::to_string(size.y) + ", " + std::to_string(bins) + " bins");
            const std::vector<float> source =
                ts::randomFrameWithSpecials(size, unsigned(size.x * 131 + bins), -12.0f, 14.0f);
            gl::Texture frame("test.factors-frame", GL_RGBA16F, size);
            frame.upload(GL_RGBA, GL_FLOAT, source.data());
            std::vector<float> stored(source.size());  // the texels as the half-float frame holds them
            glGetTextureImage(frame.id(), 0, GL_RGBA, GL_FLOAT, GLsizei(stored.size() * sizeof(float)), stored.data());

            app::HistogramFactorSettings settings;
            settings.bins = bins;
            settings.logMin = -8.0f;
            settings.logMax = 10.0f;
            settings.runs = 2;
            settings.warmup = 1;
            const std::vector<app::HistogramFactorRow> rows =
                app::measureHistogramFactors(ctx, post::ImageInput{frame, size}, settings, variants);
            ASSERT_EQ(rows.size(), variants.size());

            const ref::Histogram cpu = ref::buildHistogram(stored.data(), size.x, size.y, settings.logMin,
                                                           settings.logMax, bins, ref::OutOfRange::Clamp);
            const std::vector<std::uint32_t> nearEdges =
                ref::countNearEdges(stored.data(), size.x, size.y, settings.logMin, settings.logMax, bins,
                                    ref::gpuBinTolerance(settings.logMin, settings.logMax, bins));
            for (const app::HistogramFactorRow& row : rows) {
                SCOPED_TRACE(row.variant.name);
                ASSERT_TRUE(row.error.empty()) << row.error;
                ASSERT_GT(row.groups, 0u);
                EXPECT_EQ(row.binned, row.variant.work == 0);
                if (!row.binned)
                    continue;
                ASSERT_EQ(row.histogram.size(), bins + hd::kCounterCount);
                const std::vector<std::uint32_t> gpuBins(row.histogram.begin(), row.histogram.begin() + bins);
                const ref::HistogramComparison comparison =
                    ref::compareHistograms(gpuBins, row.histogram.data() + bins, cpu, nearEdges);
                EXPECT_EQ(comparison.gpuTotal, comparison.cpuTotal);
                EXPECT_TRUE(comparison.countersEqual);
                if (row.variant.binning == 2) {
                    EXPECT_TRUE(comparison.onlyNeighbourMoves) << "edge " << comparison.firstUnexplainedEdge;
                } else {
                    EXPECT_TRUE(comparison.exact()) << comparison.l1Difference << " off the reference";
                    EXPECT_TRUE(row.exact) << row.movedPixels << " pixels moved from the pipeline variant";
                }
            }
        }
}

TEST_F(HistogramFactorsGlTest, TheTableNamesEveryVariantAndItsHistogram)
{
    app::HistogramFactorRow pipeline;
    pipeline.variant = app::histogramFactorVariants().front();
    pipeline.dispatchMedianUs = 40.0;
    pipeline.binned = pipeline.exact = true;
    app::HistogramFactorRow fast = pipeline;
    fast.variant.name = "hardware log2";
    fast.dispatchMedianUs = 30.0;
    fast.exact = false;
    fast.movedPixels = 12;
    app::HistogramFactorRow missing;
    missing.variant.name = "source: storage buffer";
    missing.error = "the storage-buffer source needs an RGBA16F frame";
    const std::string table = app::formatHistogramFactorTable({pipeline, fast, missing});
    EXPECT_NE(table.find("| pipeline |"), std::string::npos) << table;
    EXPECT_NE(table.find("0.75x | 12 pixels moved |"), std::string::npos) << table;
    EXPECT_NE(table.find("not run: the storage-buffer source needs an RGBA16F frame"), std::string::npos) << table;
    const std::string csv = app::formatHistogramFactorCsv({pipeline, fast});
    EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 3) << csv;
}

}  // namespace
