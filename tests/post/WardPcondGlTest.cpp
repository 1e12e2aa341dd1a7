// Ward's pcond sampling on the GPU (ToneWard with ward.sampling = pcond) against the CPU reference
// reference/WardPcondRef: the double-precision helpers of tonemap/Float64.glsl against correctly
// rounded CPU results, the foveal image and point samples bit for bit, the adaptation histogram bit
// for bit, and the mapping pcond -x prints, at awkward sizes, both row orders, with NaN/Inf/negative
// pixels and Radiance units; a fed histogram (tonemap --histogram-in) too.
#include "post/HistogramCsv.h"
#include "post/ToneGlTestSupport.h"
#include "post/tonemap/ToneShaders.h"
#include "post/tonemap/ToneWard.h"
#include "reference/WardPcondRef.h"

#include <quadmath.h>

#include <cmath>
#include <random>

namespace ts = testing_support;

namespace {

double correctlyRoundedLog(double x)
{
    return double(logq(__float128(x)));
}

TEST(WardPcondFloat64Gl, LogAndDivideRoundCorrectlyAndRepeatAddIsALoop)
{
    std::mt19937_64 random(7);
    std::uniform_real_distribution<double> exponent(-60.0, 60.0);
    std::uniform_real_distribution<double> unit(0.5, 2.0);
    std::vector<double> inputs;
    const auto add = [&](double a, double b, double k) { inputs.insert(inputs.end(), {a, b, k}); };
    // Edges first: powers of two, values next to 1, the pcond constants, exact quotients.
    for (double a : {1.0, 2.0, 0.5, 1e-7, 1e7, 1.01, 0.99999999999999989, 1.0000000000000002, 179.0, 0.025})
        add(a, 3.0, 5.0);
    add(0.0625 * 966, 15456.0, 0.0);
    for (int i = 0; i < 20000; ++i) {
        const double a = std::exp2(exponent(random)) * unit(random);
        const double b = (i % 3 == 0) ? std::exp2(std::round(exponent(random) / 4)) : unit(random) * 37.0;
        add(a, (i % 2 == 0) ? b : -b * 1e-3, double(random() % 20000));
    }
    // Repeated additions of pcond's point weight onto foveal counts.
    for (double w : {0.0625, 1.0 / 3.0, 966.0 / 15456.0 * 0.999, 1e-17})
        for (double v : {0.0, 1.0, 17.0, 1e6})
            add(v, w, 16000.0);
    const std::size_t count = inputs.size() / 3;
    gl::Buffer in = gl::Buffer::fromSpan("test.f64.in", std::span<const double>(inputs));
    gl::Buffer out("test.f64.out", count * 4 * sizeof(double));
    gl::Program program = ts::shaderLibrary().buildCompute("test.f64", "test/Float64.comp", {});
    in.bindBase(GL_SHADER_STORAGE_BUFFER, 0);
    out.bindBase(GL_SHADER_STORAGE_BUFFER, 1);
    program.set(0, unsigned(count));
    program.use();
    glDispatchCompute(unsigned((count + 63) / 64), 1, 1);
    glMemoryBarrier(GL_ALL_BARRIER_BITS);
    const std::vector<double> results = out.readAll<double>(count * 4);
    int logMismatches = 0, divideMismatches = 0, addMismatches = 0;
    double worstExp = 0.0;
    for (std::size_t i = 0; i < count; ++i) {
        const double a = inputs[3 * i], b = inputs[3 * i + 1];
        const auto k = std::uint32_t(inputs[3 * i + 2]);
        if (a > 0.0 && results[4 * i] != correctlyRoundedLog(a) && logMismatches++ < 5)
            ADD_FAILURE() << "ln " << a << ": GPU " << results[4 * i] << ", correct " << correctlyRoundedLog(a);
        if (b != 0.0 && results[4 * i + 1] != a / b && divideMismatches++ < 5)
            ADD_FAILURE() << a << " / " << b << ": GPU " << results[4 * i + 1] << ", CPU " << a / b;
        if (std::abs(b) < 700.0)
            worstExp = std::max(worstExp, std::abs(results[4 * i + 2] - std::exp(b)) / std::exp(b));
        double sum = std::abs(a);
        for (std::uint32_t j = 0; j < k; ++j)
            sum += std::abs(b);
        if (results[4 * i + 3] != sum && addMismatches++ < 5)
            ADD_FAILURE() << "repeat add " << a << " + " << b << " x " << k << ": GPU " << results[4 * i + 3]
                          << ", loop " << sum;
    }
    EXPECT_EQ(logMismatches, 0);
    EXPECT_EQ(divideMismatches, 0);
    EXPECT_EQ(addMismatches, 0);
    EXPECT_LT(worstExp, 4.5e-16);  // about two ulp
}

/// A picture, its CPU-reference view (row 0 = top) and the texture (row 0 = top when topDown).
struct Picture
{
    ts::TestImage image;          ///< as uploaded: texture row r = image row r
    std::vector<float> topFirst;  ///< the same pixels with scanline 0 first
    gl::Texture texture;
    bool topDown = true;
};

Picture makePicture(int width, int height, std::uint32_t seed, bool topDown, bool specials)
{
    Picture p;
    p.image = ts::randomHdrImage(width, height, -12.0f, 14.0f, seed);
    if (specials)
        ts::addSpecialPixels(p.image, 29);
    p.topDown = topDown;
    p.topFirst = p.image.rgba;
    if (!topDown) {  // texture row 0 is the picture's bottom
        for (int y = 0; y < height; ++y)
            std::copy_n(p.image.rgba.begin() + std::ptrdiff_t(y) * width * 4, std::size_t(width) * 4,
                        p.topFirst.begin() + std::ptrdiff_t(height - 1 - y) * width * 4);
    }
    p.texture = ts::uploadImage(p.image, "test.pcond.picture");
    return p;
}

struct PcondRun
{
    std::vector<double> words;  ///< the pcond buffer
    std::vector<float> curve;
    std::vector<std::pair<double, double>> printed;
};

class WardPcondGl : public ts::GlTest
{
protected:
    PcondRun run(post::ToneWard& op,
                 const Picture& p,
                 const post::PictureInfo* info,
                 const post::LuminanceUnits& units = {},
                 float fovY = 60.0f)
    {
        post::PassContext ctx{ts::shaderLibrary(), ts::testProfiler(), ts::testGpuCaps(), 0};
        const post::ImageInput input{p.texture, {p.image.width, p.image.height}};
        post::ToneInputs inputs{input,    input,      rig.histogram, rig.cdf,  rig.params,
                                rig.spec, 1.0 / 60.0, fovY,          prepared, nullptr};
        inputs.topDownRows = p.topDown;
        inputs.picture = info;
        inputs.units = &units;
        op.computeCurve(ctx, inputs, rig.curve);
        PcondRun r;
        r.words = op.pcondBuffer().readAll<double>(post::ward_pcond::kWords);
        r.curve = rig.curve.readAll<float>(hd::kCurveBufferWords);
        r.printed = op.readPcondPrintedMapping();
        return r;
    }

    static ref::PcondPicture referencePicture(const Picture& p,
                                              const post::PictureInfo& info,
                                              const post::LuminanceUnits& units = {})
    {
        ref::PcondPicture picture;
        picture.width = p.image.width;
        picture.height = p.image.height;
        picture.rgba = p.topFirst.data();
        picture.weights = units.weights;
        picture.efficacy = units.efficacy;
        picture.exposure = units.exposure;
        picture.pixelAspect = info.pixelAspect;
        if (info.view)
            picture.view = {true, info.view->type, info.view->horizontalDegrees, info.view->verticalDegrees};
        return picture;
    }

    /// Everything the GPU wrote against the reference: histogram bit for bit, mapping to 1e-12.
    static void expectMatchesReference(const PcondRun& gpu,
                                       const ref::PcondHistogram& h,
                                       const ref::PcondMapping& m,
                                       const post::WardSettings& s,
                                       const std::string& what)
    {
        namespace w = post::ward_pcond;
        ASSERT_EQ(gpu.words[w::kValid] != 0.0, h.valid) << what;
        ASSERT_EQ(gpu.words[w::kOutcome], double(m.outcome)) << what;
        if (!h.valid)
            return;
        EXPECT_EQ(gpu.words[w::kBwmin], h.bwmin) << what;
        EXPECT_EQ(gpu.words[w::kBwmax], h.bwmax) << what;
        EXPECT_EQ(gpu.words[w::kHistot], h.histot) << what;
        EXPECT_EQ(gpu.words[w::kDuplicated] != 0.0, h.duplicated) << what;
        EXPECT_NEAR(gpu.words[w::kBwavg], h.bwavg, 1e-12 * std::max(1.0, std::abs(h.bwavg))) << what;
        for (std::size_t i = 0; i < h.bins.size(); ++i)
            ASSERT_EQ(gpu.words[w::kHistogram + i], h.bins[i]) << what << ": bin " << i;
        EXPECT_EQ(gpu.words[w::kPasses], double(m.passes)) << what;
        const auto cpu = ref::pcondPrintedMapping(m, s);
        ASSERT_EQ(gpu.printed.size(), cpu.size()) << what;
        for (std::size_t i = 0; i < cpu.size(); ++i) {
            EXPECT_NEAR(gpu.printed[i].first / cpu[i].first, 1.0, 1e-14) << what << ": point " << i;
            EXPECT_NEAR(std::log10(gpu.printed[i].second), std::log10(cpu[i].second), 1e-12) << what << ": point " << i;
        }
    }

    tone_test::ToneRig rig;
    tone_test::PreparedHistogram prepared;
};

TEST_F(WardPcondGl, FovealImageAndPointSamplesArePcondsBitForBit)
{
    post::ToneWard op;
    post::WardSettings s;
    s.sampling = post::WardSampling::Pcond;
    op.setSettings(s);
    for (const auto& [w, h] : {std::pair{1, 1}, {5, 3}, {67, 41}, {333, 200}}) {
        for (bool topDown : {true, false}) {
            const std::string what =
                std::to_string(w) + "x" + std::to_string(h) + (topDown ? " top-down" : " bottom-up");
            const Picture p = makePicture(w, h, std::uint32_t(w * 131 + h), topDown, true);
            const post::PictureInfo info;  // a still image: pcond's default view
            post::LuminanceUnits units;    // a Radiance picture with EXPOSURE 0.5
            units.weights = {0.26510582f, 0.67010582f, 0.06478836f};
            units.efficacy = 179.0;
            units.exposure = 0.5;
            const PcondRun r = run(op, p, &info, units);
            const ref::PcondPicture picture = referencePicture(p, info, units);
            const ref::PcondGrid grid = ref::pcondFovealGrid(w, h, {}, 1.0);
            ASSERT_NE(op.pcondPlan(), nullptr);
            ASSERT_EQ(op.pcondPlan()->grid, grid) << what;
            // The reference's foveal image and point luminances, then comphist on them: the GPU's
            // histogram must be the same doubles, which needs every sample's L bit for bit.
            const std::vector<float> foveal = ref::pcondFovealImage(picture, grid);
            const auto picks = ref::pcondSamplePixels(w, h, ref::pcondPointSampleCount(w, h, grid));
            ASSERT_EQ(op.pcondPlan()->positions.size(), picks.size()) << what;
            std::vector<float> points;
            for (const auto& [x, y] : picks) {
                const float* px = picture.rgba + (std::size_t(y) * w + std::size_t(x)) * 4;
                points.push_back(float(ref::pcondLuminance(picture, px[0], px[1], px[2])));
            }
            const ref::PcondHistogram expected = ref::pcondHistogramOf(picture, foveal, grid, points, s);
            expectMatchesReference(r, expected, ref::pcondMapping(expected, s), s, what);
            EXPECT_EQ(r.words[post::ward_pcond::kFovealCounted], double(expected.fovealSamples)) << what;
            EXPECT_EQ(r.words[post::ward_pcond::kPointsCounted], double(expected.pointSamples)) << what;
        }
    }
}

TEST_F(WardPcondGl, WholeFrameMatchesTheReferenceWithTheCameraView)
{
    post::ToneWard op;
    post::WardSettings s;
    s.sampling = post::WardSampling::Pcond;
    for (bool human : {false, true}) {
        s.humanContrast = human;
        op.setSettings(s);
        const Picture p = makePicture(640, 360, 5, false, false);
        const PcondRun r = run(op, p, nullptr, {}, 50.0f);    // a live frame: the camera's 50-degree view
        ref::PcondPicture picture = referencePicture(p, {});  // scene units: Rec. 709, 1 unit = 1 cd/m^2
        const double aspect = 640.0 / 360.0;
        const double degree = std::acos(-1.0) / 180.0;
        picture.view = {true, 'v', 2.0 * std::atan(std::tan(25.0 * degree) * aspect) / degree, 50.0};
        const ref::PcondHistogram h = ref::pcondHistogram(picture, s);
        expectMatchesReference(r, h, ref::pcondMapping(h, s), s, human ? "TVI ceiling" : "linear ceiling");
    }
}

TEST_F(WardPcondGl, UniformDarkAndEmptyPicturesDoNotBreakIt)
{
    post::ToneWard op;
    post::WardSettings s;
    s.sampling = post::WardSampling::Pcond;
    op.setSettings(s);
    for (float value : {0.0f, 1e-9f, 0.5f, std::nanf("")}) {
        Picture p = makePicture(9, 7, 1, true, false);
        for (std::size_t i = 0; i < p.image.pixelCount(); ++i)
            p.image.setGrey(i, value);
        p.topFirst = p.image.rgba;
        p.texture = ts::uploadImage(p.image, "test.pcond.uniform");
        post::PictureInfo info;
        const PcondRun r = run(op, p, &info);
        const ref::PcondHistogram h = ref::pcondHistogram(referencePicture(p, info), s);
        expectMatchesReference(r, h, ref::pcondMapping(h, s), s, "uniform " + std::to_string(value));
        for (std::uint32_t i = 0; i < hd::kCurveHeaderWords + 64; ++i)
            ASSERT_TRUE(std::isfinite(r.curve[i])) << "curve word " << i << " for " << value;
    }
}

TEST_F(WardPcondGl, FedHistogramGivesTheReferenceMapping)
{
    std::vector<std::pair<double, double>> bins;
    for (int i = 0; i < 64; ++i)
        bins.emplace_back(-3.0 + 0.25 * i, (i > 4 && i < 50) ? double((i * 37) % 11 + (i == 20 ? 400 : 0)) : 0.0);
    post::WardSettings s;
    for (bool human : {false, true}) {
        s.humanContrast = human;
        const ref::PcondHistogram h = ref::pcondHistogramFromBins(bins, s);
        post::ToneWard op;
        op.setSettings(s);
        op.feedHistogram(post::wardFedHistogramOf(h));
        const Picture p = makePicture(4, 4, 2, true, false);
        const PcondRun r = run(op, p, nullptr);
        expectMatchesReference(r, h, ref::pcondMapping(h, s), s, human ? "fed, TVI" : "fed");
    }
}

}  // namespace
