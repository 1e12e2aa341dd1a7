// Ward's frame fit spread over many workgroups (WardCurveSpread.comp, post::WardCurveDispatch): at
// awkward foveal grid sizes (1x1, odd, exactly one slice, a slice and a bit, dozens of workgroups,
// workgroup sums of both signs, the pipeline's 1080p grid; all-NaN and black frames) every word it writes (histogram
// and counters, state, curve, view) is the CPU model's (reference/ToneWardExact) and the one-workgroup kernel's, bit
// for bit; a second frame gives the same words and the spread buffer is zero after each frame (the last workgroups
// clear it), also when the grid and so the workgroup count change between frames.
#include "post/ToneGlTestSupport.h"
#include "post/histogram/HistogramRegistry.h"
#include "post/tonemap/ToneShaders.h"
#include "post/tonemap/ToneWard.h"
#include "reference/ToneWardExact.h"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <limits>

namespace ts = testing_support;

namespace {

/// Every word a frame fit writes, read back.
struct FitWords
{
    std::vector<float> state;
    std::vector<std::uint32_t> histogram;  ///< bins and counters (kHistogramBufferWords)
    std::vector<float> curve;
    std::vector<float> view;
};

std::uint32_t bitsOf(float x)
{
    return std::bit_cast<std::uint32_t>(x);
}

/// "" when equal bit for bit, else the first difference.
std::string firstDifference(std::span<const float> a, std::span<const float> b, const std::string& what)
{
    if (a.size() != b.size())
        return what + ": sizes " + std::to_string(a.size()) + " vs " + std::to_string(b.size());
    for (std::size_t i = 0; i < a.size(); ++i)
        if (bitsOf(a[i]) != bitsOf(b[i])) {
            char text[160];
            std::snprintf(text, sizeof text, "[%zu]: %.9g (0x%08x) vs %.9g (0x%08x)", i, double(a[i]), bitsOf(a[i]),
                          double(b[i]), bitsOf(b[i]));
            return what + text;
        }
    return {};
}

class WardSpreadGl : public ts::GlTest
{
protected:
    void SetUp() override
    {
        method = post::createHistogramMethod("compute-shared-atomic");
        ASSERT_TRUE(method);
    }

    FitWords run(post::ToneWard& op, float fovY)
    {
        rig.run(op, *method, 1.0 / 60.0, fovY);
        return {op.stateBuffer().readAll<float>(post::ward_state::kWords),
                op.histogramBuffer().readAll<std::uint32_t>(hd::kHistogramBufferWords),
                rig.curve.readAll<float>(hd::kCurveBufferWords), op.viewBuffer().readAll<float>(post::kWardViewWords)};
    }

    /// The words both kernels write for `bins` bins (the histogram's others are not theirs).
    static void expectSameWords(const FitWords& a, const FitWords& b, std::uint32_t bins, const std::string& label)
    {
        EXPECT_EQ(firstDifference(a.state, b.state, "state"), "") << label;
        EXPECT_EQ(std::vector<std::uint32_t>(a.histogram.begin(), a.histogram.begin() + bins),
                  std::vector<std::uint32_t>(b.histogram.begin(), b.histogram.begin() + bins))
            << label;
        for (std::uint32_t k = 0; k < hd::kCounterCount; ++k)
            EXPECT_EQ(a.histogram[hd::kHistogramCountersOffset + k], b.histogram[hd::kHistogramCountersOffset + k])
                << label << " counter " << k;
        EXPECT_EQ(firstDifference(a.curve, b.curve, "curve"), "") << label;
        for (std::uint32_t offset : {post::kWardViewTrimmedOffset, post::kWardViewCeilingOffset})
            EXPECT_EQ(firstDifference(std::span(a.view).subspan(offset, bins), std::span(b.view).subspan(offset, bins),
                                      "view at " + std::to_string(offset)),
                      "")
                << label;
        EXPECT_EQ(firstDifference(std::span(a.view).subspan(post::kWardViewCumfOffset, bins + 1),
                                  std::span(b.view).subspan(post::kWardViewCumfOffset, bins + 1), "cumf"),
                  "")
            << label;
    }

    /// The CPU model on the foveal image the GPU made: state, histogram, counters, curve, view.
    static void expectCpuModel(const post::ToneWard& op, const FitWords& r, const std::string& label)
    {
        using namespace post::ward_state;
        const post::WardSettings& s = op.settings();
        const glm::ivec2 grid = op.fovealImage().size();
        const ref::WardExactFit e = ref::wardFrameFitExact(op.fovealImage().readRgbaFloat(), grid.x, grid.y, s, s.bins,
                                                           {}, post::kWardCurveSamples);
        const std::uint32_t index[] = {kOutcome,    kPasses,     kBwmin,           kBwmax,   kBwavg,
                                       kHistot,     kFinalTotal, kCeilingFraction, kSamples, kRangeValid,
                                       kDuplicated, kConverged,  kLinearScale};
        const std::vector<float> want = {float(e.outcome),
                                         float(e.passes),
                                         e.range.bwmin,
                                         e.range.bwmax,
                                         e.range.bwavg,
                                         e.histot,
                                         e.finalTotal,
                                         e.ceilingFraction,
                                         e.range.samples,
                                         e.range.valid ? 1.0f : 0.0f,
                                         e.range.duplicated ? 1.0f : 0.0f,
                                         e.converged ? 1.0f : 0.0f,
                                         e.linearScale};
        std::vector<float> got;
        for (std::uint32_t i : index)
            got.push_back(r.state[i]);
        EXPECT_EQ(firstDifference(got, want, "state (outcome, passes, bwmin, bwmax, bwavg, ...)"), "") << label;
        EXPECT_EQ(std::vector<std::uint32_t>(r.histogram.begin(), r.histogram.begin() + s.bins), e.bins) << label;
        for (std::uint32_t k = 0; k < hd::kCounterCount; ++k)
            EXPECT_EQ(r.histogram[hd::kHistogramCountersOffset + k], e.counters[k]) << label << " counter " << k;
        const std::vector<float> header = {r.curve[hd::kCurveLogMin], r.curve[hd::kCurveLogMax],
                                           r.curve[hd::kCurveMode], r.curve[hd::kCurveScale]};
        EXPECT_EQ(firstDifference(header, std::vector<float>{e.curveLogMin, e.curveLogMax, e.curveMode, e.curveScale},
                                  "curve header"),
                  "")
            << label;
        EXPECT_EQ(firstDifference(std::span(r.curve).subspan(hd::kCurveHeaderWords, e.curve.size()), e.curve, "curve"),
                  "")
            << label;
        EXPECT_EQ(
            firstDifference(std::span(r.view).subspan(post::kWardViewTrimmedOffset, s.bins), e.trimmed, "trimmed"), "")
            << label;
        EXPECT_EQ(firstDifference(std::span(r.view).subspan(post::kWardViewCumfOffset, s.bins + 1), e.cumf, "cumf"), "")
            << label;
    }

    static void expectSpreadBufferZero(const post::ToneWard& op, const std::string& label)
    {
        const auto words = op.spreadBuffer().readAll<std::uint32_t>(post::WardCurveDispatch::kSpreadWords);
        for (std::size_t i = 0; i < words.size(); ++i) {
            if (i >= 8 && i < 16)
                continue;  // the range stage 1 hands to stage 2: rewritten by every frame
            ASSERT_EQ(words[i], 0u) << label << ": spread word " << i << " left non-zero";
        }
    }

    tone_test::ToneRig rig;
    std::unique_ptr<post::HistogramMethod> method;
};

/// A random HDR picture, or one filled with a single value (NaN, zero).
ts::TestImage picture(int width, int height, std::uint32_t seed, float fill = 1.0f, bool random = true)
{
    if (random) {
        ts::TestImage image = ts::randomHdrImage(width, height, -9.0f, 13.0f, seed);
        if (width * height > 64)
            ts::addSpecialPixels(image, 41);  // NaN, infinities, negatives: counters and skipped samples
        return image;
    }
    ts::TestImage image;
    image.width = width;
    image.height = height;
    image.rgba.assign(std::size_t(width) * height * 4, fill);
    return image;
}

/// Dark rows (ln L < 0) over bright ones (ln L > 0): the workgroups' log-average sums have both
/// signs, so adding them wraps the low word (the carry must be right).
ts::TestImage darkOverBright(int width, int height)
{
    ts::TestImage image = ts::randomHdrImage(width, height, 5.0f, 14.0f, 21);
    const ts::TestImage dark = ts::randomHdrImage(width, height, -14.0f, -5.0f, 22);
    std::copy_n(dark.rgba.begin(), dark.rgba.size() / 2, image.rgba.begin());
    return image;
}

}  // namespace

TEST(WardSpreadGroups, CoverEveryGridWithAtLeastOneGroup)
{
    using D = post::WardCurveDispatch;
    const std::uint32_t slice = post::WardCurveProgram::kGroupSize * D::kSamplesPerInvocation;
    EXPECT_EQ(D::spreadGroups({0, 0}), 1u);
    EXPECT_EQ(D::spreadGroups({1, 1}), 1u);
    EXPECT_EQ(D::spreadGroups({int(slice), 1}), 1u);
    EXPECT_EQ(D::spreadGroups({int(slice) + 1, 1}), 2u);
    EXPECT_EQ(D::spreadGroups({117, 66}), (117u * 66u + slice - 1) / slice);
    EXPECT_EQ(D::spreadGroups({100, 100}, 64, 1), 157u);
}

TEST_F(WardSpreadGl, AwkwardGridsAreBitExactWithTheCpuModelAndTheOneWorkgroupKernel)
{
    struct Case
    {
        int width, height;
        float fovY;  ///< 170 degrees: one foveal sample per pixel
        std::uint32_t bins;
        bool human, duplicate;
        ts::TestImage image;
    };
    const std::uint32_t slice = post::WardCurveProgram::kGroupSize * post::WardCurveDispatch::kSamplesPerInvocation;
    ASSERT_EQ(slice, 1024u) << "the grids below are chosen around a 1024-sample slice";
    std::vector<Case> cases;
    cases.push_back({1, 1, 40.0f, 100, false, true, picture(1, 1, 1)});               // G = 1, one sample
    cases.push_back({5, 3, 170.0f, 2, true, false, picture(5, 3, 2)});                // odd, two bins
    cases.push_back({64, 16, 170.0f, 100, false, true, picture(64, 16, 3)});          // exactly one slice
    cases.push_back({65, 32, 170.0f, 100, true, true, picture(65, 32, 4)});           // 3 groups, the last nearly empty
    cases.push_back({257, 131, 170.0f, 1024, false, false, picture(257, 131, 5)});    // 33 groups
    cases.push_back({200, 100, 170.0f, 100, false, true, darkOverBright(200, 100)});  // sums of both signs
    cases.push_back({1920, 1080, 60.0f, 100, false, true, picture(1920, 1080, 6)});   // the pipeline's 1080p grid
    cases.push_back(
        {37, 19, 170.0f, 100, false, true, picture(37, 19, 0, std::numeric_limits<float>::quiet_NaN(), false)});
    cases.push_back({9, 7, 170.0f, 100, true, true, picture(9, 7, 0, 0.0f, false)});  // black: no samples
    bool several = false;
    for (const Case& c : cases) {
        const std::string label = std::to_string(c.width) + "x" + std::to_string(c.height) + ", " +
                                  std::to_string(c.bins) + " bins" + (c.human ? ", TVI" : "");
        SCOPED_TRACE(label);
        rig.setImage(c.image);
        post::WardSettings s;
        s.sampling = post::WardSampling::Frame;
        s.bins = c.bins;
        s.humanContrast = c.human;
        s.duplicateBottomBin = c.duplicate;
        post::ToneWard spread;
        spread.setSettings(s);
        const FitWords first = run(spread, c.fovY);
        const glm::ivec2 grid = spread.fovealImage().size();
        several |= post::WardCurveDispatch::spreadGroups(grid) > 2;
        expectCpuModel(spread, first, label);
        expectSpreadBufferZero(spread, label);
        const FitWords second = run(spread, c.fovY);  // the next frame: the buffer cleared itself
        expectSameWords(second, first, c.bins, label + ", second frame");
        expectSpreadBufferZero(spread, label + ", second frame");
        post::ToneWard before;
        before.setSettings(s);
        before.setCurvePath(post::WardCurvePath::OneWorkgroup);
        expectSameWords(run(before, c.fovY), first, c.bins, label + ", one workgroup");
    }
    EXPECT_TRUE(several) << "no case spread over more than two workgroups";
}

// The workgroup count changes with the grid from one frame to the next (the tickets count to each
// dispatch's own G), and each ceiling loop runs in the last workgroup.
TEST_F(WardSpreadGl, GridChangesBetweenFramesAndEveryCeilingLoop)
{
    const ts::TestImage large = picture(300, 120, 11);
    const ts::TestImage small = picture(7, 5, 12);
    for (post::WardCeilingLoop loop :
         {post::WardCeilingLoop::Auto, post::WardCeilingLoop::Workgroup, post::WardCeilingLoop::LanesShared}) {
        const std::string label = "ceiling loop " + std::to_string(int(loop));
        SCOPED_TRACE(label);
        post::WardSettings s;
        s.sampling = post::WardSampling::Frame;
        post::ToneWard op;
        op.setSettings(s);
        op.setCeilingLoop(loop);
        for (const ts::TestImage* image : {&large, &small, &large}) {
            rig.setImage(*image);
            const FitWords r = run(op, 170.0f);
            expectCpuModel(op, r, label + ", " + std::to_string(image->width));
            expectSpreadBufferZero(op, label);
            post::ToneWard fresh;
            fresh.setSettings(s);
            fresh.setCeilingLoop(loop);
            fresh.setCurvePath(post::WardCurvePath::OneWorkgroup);
            expectSameWords(run(fresh, 170.0f), r, s.bins, label + ", one workgroup");
        }
    }
}
