// The curve built by the histogram pass's last workgroup (tonemap.curve_in_histogram,
// shaders/histogram/CurveInLastGroup.glsl) against the curve's own dispatch (the scan "in-curve"):
// the same histogram, CDF, curve words and operator state, frame after frame (percentile adapts), at
// 1x1, odd and multi-workgroup sizes and at bin counts that take each shared-array capacity; the
// one-pass mode with it; and the frames it must leave to the curve's dispatch (a metering mask,
// equalize per channel, another scan method, another histogram method).
#include "post/PipelineParameters.h"
#include "post/PostPipeline.h"
#include "post/tonemap/TonePercentile.h"
#include "support/GlTestEnvironment.h"
#include "support/HistogramTestSupport.h"
#include "verify/PipelineVerify.h"

#include <bit>
#include <string>
#include <utility>
#include <vector>

namespace ts = testing_support;

namespace {

using Settings = std::vector<std::pair<std::string, std::string>>;

struct Outputs
{
    std::vector<std::uint32_t> histogram;
    std::vector<std::uint32_t> cdf;
    std::vector<float> curve;
    std::vector<std::uint8_t> picture;
    bool curveInHistogram = false;
    bool onePass = false;
    std::string verify;
};

class CurveInHistogramGl : public ts::GlTest
{
protected:
    /// Runs `frames` (each a texture of `size`) through a fresh pipeline with `settings`; the outputs of
    /// every frame.
    static std::vector<Outputs> run(const std::vector<const gl::Texture*>& frames,
                                    glm::ivec2 size,
                                    const Settings& settings)
    {
        post::PostPipeline pipeline(ts::shaderLibrary(), ts::testProfiler(), ts::testGpuCaps());
        post::PipelineParameters parameters(pipeline);
        for (const auto& [key, value] : settings)
            parameters.set(key, value);  // throws for a bad key or value
        std::vector<Outputs> out;
        for (const gl::Texture* frame : frames) {
            pipeline.run({*frame, size}, 1.0 / 60.0, 60.0f);
            Outputs o;
            o.histogram = pipeline.histogramBuffer().readAll<std::uint32_t>(hd::kHistogramBufferWords);
            o.cdf = pipeline.cdfBuffer().readAll<std::uint32_t>(hd::kMaxHistogramBins);
            o.curve = pipeline.curveBuffer().readAll<float>(hd::kCurveBufferWords);
            o.picture = pipeline.toneMappedTexture().readRgba8();
            o.curveInHistogram = pipeline.lastCurveInHistogram();
            o.onePass = pipeline.lastFrameOnePass();
            const verify::VerifyReport report = verify::verifyPipeline(pipeline);
            o.verify = report.ok ? "ok" : report.text;
            out.push_back(std::move(o));
        }
        return out;
    }

    /// The first `bins` CDF entries and the curve's words: bit for bit.
    static void expectSame(const Outputs& built, const Outputs& dispatched, std::uint32_t bins)
    {
        EXPECT_EQ(built.histogram, dispatched.histogram) << "histogram bins and counters";
        EXPECT_EQ(std::vector<std::uint32_t>(built.cdf.begin(), built.cdf.begin() + bins),
                  std::vector<std::uint32_t>(dispatched.cdf.begin(), dispatched.cdf.begin() + bins));
        ASSERT_EQ(built.curve.size(), dispatched.curve.size());
        int differences = 0;
        std::size_t first = built.curve.size();
        for (std::size_t i = 0; i < built.curve.size(); ++i)
            if (std::bit_cast<std::uint32_t>(built.curve[i]) != std::bit_cast<std::uint32_t>(dispatched.curve[i])) {
                ++differences;
                first = std::min(first, i);
            }
        EXPECT_EQ(differences, 0) << "curve words differ, the first at " << first;
        EXPECT_EQ(built.picture, dispatched.picture);
    }
};

TEST_F(CurveInHistogramGl, PercentileAndEqualizeBuildTheDispatchedCurveAtAwkwardSizesAndBinCounts)
{
    struct Case
    {
        glm::ivec2 size;
        std::uint32_t bins;
    };
    // 1x1 (one workgroup, the last at once), odd sizes, and a frame of several hundred 32x32 tiles
    // (many groups); bins 1, odd, non-power-of-two, and each shared capacity's largest (256, 1024, 4096).
    const std::vector<Case> cases = {{{1, 1}, 1},      {{1, 1}, 256},      {{83, 47}, 7},      {{83, 47}, 256},
                                     {{97, 55}, 1000}, {{641, 359}, 1024}, {{641, 359}, 4096}, {{300, 200}, 255}};
    for (const Case& c : cases) {
        std::vector<gl::Texture> textures;
        for (std::uint32_t seed : {11u, 12u, 13u}) {
            ts::TestImage image = ts::randomHdrImage(c.size.x, c.size.y, -6.0f + float(seed % 3), 12.0f, seed);
            if (seed == 12u && c.size.x > 1)
                ts::addSpecialPixels(image, 29);
            textures.push_back(ts::uploadImage(image));
        }
        const std::vector<const gl::Texture*> frames{&textures[0], &textures[1], &textures[2]};
        for (const std::string op : {"percentile", "equalize"}) {
            SCOPED_TRACE(op + " " + std::to_string(c.size.x) + "x" + std::to_string(c.size.y) + ", " +
                         std::to_string(c.bins) + " bins");
            Settings settings{{"tonemap.operator", op},
                              {"histogram.bins", std::to_string(c.bins)},
                              {"histogram.range", "manual"},
                              {"histogram.log_min", "-8"},
                              {"histogram.log_max", "14"}};
            if (op == "equalize" && c.bins == 7)
                settings.push_back({"equalize.encoded_output", "true"});
            Settings dispatchedSettings = settings;
            dispatchedSettings.push_back({"tonemap.curve_in_histogram", "false"});
            const std::vector<Outputs> built = run(frames, c.size, settings);
            const std::vector<Outputs> dispatched = run(frames, c.size, dispatchedSettings);
            for (std::size_t f = 0; f < frames.size(); ++f) {
                SCOPED_TRACE("frame " + std::to_string(f));
                EXPECT_TRUE(built[f].curveInHistogram);
                EXPECT_FALSE(dispatched[f].curveInHistogram);
                expectSame(built[f], dispatched[f], c.bins);
                EXPECT_EQ(built[f].verify, "ok");
            }
        }
    }
}

// With the one-pass mode: the pass applies the previous frame's curve and builds this frame's.
TEST_F(CurveInHistogramGl, OnePassAppliesTheLastCurveAndBuildsTheNext)
{
    const glm::ivec2 size{131, 77};
    gl::Texture a = ts::uploadImage(ts::randomHdrImage(size.x, size.y, -6.0f, 10.0f, 41));
    gl::Texture b = ts::uploadImage(ts::randomHdrImage(size.x, size.y, -3.0f, 13.0f, 42));
    const std::vector<const gl::Texture*> frames{&a, &b, &a};
    for (const std::string op : {"percentile", "equalize"}) {
        SCOPED_TRACE(op);
        const Settings settings{{"tonemap.operator", op}, {"tonemap.one_pass", "true"}};
        Settings dispatchedSettings = settings;
        dispatchedSettings.push_back({"tonemap.curve_in_histogram", "false"});
        const std::vector<Outputs> built = run(frames, size, settings);
        const std::vector<Outputs> dispatched = run(frames, size, dispatchedSettings);
        for (std::size_t f = 0; f < frames.size(); ++f) {
            SCOPED_TRACE("frame " + std::to_string(f));
            EXPECT_EQ(built[f].onePass, f > 0);
            EXPECT_TRUE(built[f].curveInHistogram);
            expectSame(built[f], dispatched[f], 256);
            EXPECT_EQ(built[f].verify, "ok");
        }
    }
}

// Frames whose curve needs more than the pipeline's CDF, or a method that cannot build it: the
// curve's own dispatch, with the same result as with the setting off.
TEST_F(CurveInHistogramGl, FramesItCannotBuildGoToTheCurvesDispatch)
{
    const glm::ivec2 size{96, 64};
    gl::Texture texture = ts::uploadImage(ts::randomHdrImage(size.x, size.y, -6.0f, 12.0f, 51));
    const std::vector<const gl::Texture*> frames{&texture};
    const std::vector<Settings> cases = {
        {{"tonemap.operator", "percentile"}, {"percentile.metering_mask", "centre-weighted"}},
        {{"tonemap.operator", "equalize"}, {"equalize.per_channel", "true"}},
        {{"tonemap.operator", "percentile"}, {"scan.method", "compute-blelloch"}},
        {{"tonemap.operator", "percentile"}, {"histogram.method", "compute-global-atomic"}},
        {{"tonemap.operator", "ward"}},
        {{"tonemap.operator", "exposure"}},
    };
    for (const Settings& settings : cases) {
        SCOPED_TRACE(settings.back().first + "=" + settings.back().second);
        Settings off = settings;
        off.push_back({"tonemap.curve_in_histogram", "false"});
        const Outputs on = run(frames, size, settings)[0];
        const Outputs dispatched = run(frames, size, off)[0];
        EXPECT_FALSE(on.curveInHistogram);
        EXPECT_EQ(on.curve, dispatched.curve);
        EXPECT_EQ(on.picture, dispatched.picture);
        EXPECT_EQ(on.verify, "ok");
    }
}

}  // namespace
