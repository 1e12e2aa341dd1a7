// Ward's frame fit with its range from the histogram pass's keys (FovealTarget::rangeKeys,
// histogram/SharedAtomic.comp FOVEAL_KEYS, WardCurveSpread.comp RANGE_KEYS): through the pipeline, on
// frames whose foveal image the histogram pass makes, the fit runs one dispatch (no range dispatch)
// and every word (Ward's state and histogram, the curve, the pipeline's histogram, the picture) is the
// two-dispatch path's, frame after frame (the keys go back to zero), with the CPU model's check
// (verify) passing; keys the fit did not consume (the range dispatch forced, a frame of another size,
// another operator in between) never reach a later frame.
#include "post/PipelineParameters.h"
#include "post/PostPipeline.h"
#include "post/tonemap/ToneShaders.h"
#include "post/tonemap/ToneWard.h"
#include "support/GlTestEnvironment.h"
#include "support/HistogramTestSupport.h"
#include "verify/PipelineVerify.h"

#include <algorithm>
#include <bit>
#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace ts = testing_support;

namespace {

struct Outputs
{
    std::vector<float> state;
    std::vector<std::uint32_t> wardHistogram;
    std::vector<std::uint32_t> histogram;
    std::vector<std::uint32_t> curve;  ///< float bits
    std::vector<std::uint8_t> picture;
    bool fovealFromHistogram = false;
    bool rangeFromKeys = false;
    std::uint32_t dispatches = 0;          ///< the spread fit's
    std::vector<std::uint32_t> keysAfter;  ///< the range keys' buffer after the frame
    std::string verify;
};

std::vector<std::uint32_t> bitsOf(const std::vector<float>& values)
{
    std::vector<std::uint32_t> bits;
    for (float v : values)
        bits.push_back(std::bit_cast<std::uint32_t>(v));
    return bits;
}

/// A pipeline running Ward; `rangeKeys` false forces the range dispatch.
class WardPipeline
{
public:
    explicit WardPipeline(bool rangeKeys)
        : mPipeline(ts::shaderLibrary(), ts::testProfiler(), ts::testGpuCaps()), mParameters(mPipeline)
    {
        mParameters.set("tonemap.operator", "ward");
        setRangeKeys(rangeKeys);
    }

    /// The pipeline's Ward operator, or nullptr while another operator runs.
    post::ToneWard* ward() { return dynamic_cast<post::ToneWard*>(&mPipeline.toneOperator()); }

    void setRangeKeys(bool on)
    {
        if (post::ToneWard* op = ward())
            op->setRangeKeysFromHistogram(on);
    }
    void set(const std::string& key, const std::string& value) { mParameters.set(key, value); }

    /// `preExposure`: the frame's 2^k, folded into the weights the histogram pass and Ward get.
    Outputs run(const gl::Texture& frame, glm::ivec2 size, int preExposure = 0)
    {
        mPipeline.run({frame, size, preExposure}, 1.0 / 60.0, 60.0f);
        Outputs o;
        o.histogram = mPipeline.histogramBuffer().readAll<std::uint32_t>(hd::kHistogramBufferWords);
        o.curve = bitsOf(mPipeline.curveBuffer().readAll<float>(hd::kCurveBufferWords));
        o.picture = mPipeline.toneMappedTexture().readRgba8();
        const verify::VerifyReport report = verify::verifyPipeline(mPipeline);
        o.verify = report.ok ? "ok" : report.text;
        if (!ward())
            return o;
        const post::ToneWard& op = *ward();
        o.state = op.stateBuffer().readAll<float>(post::ward_state::kWords);
        o.wardHistogram = op.histogramBuffer().readAll<std::uint32_t>(hd::kHistogramBufferWords);
        o.fovealFromHistogram = op.fovealFromHistogramPass();
        o.rangeFromKeys = op.rangeFromHistogramPass();
        o.dispatches = op.lastSpreadDispatches();
        if (op.rangeKeysBuffer())
            o.keysAfter = op.rangeKeysBuffer().readAll<std::uint32_t>(2);
        return o;
    }

private:
    post::PostPipeline mPipeline;
    post::PipelineParameters mParameters;
};

void expectSame(const Outputs& keys, const Outputs& twoDispatches)
{
    EXPECT_EQ(bitsOf(keys.state), bitsOf(twoDispatches.state)) << "Ward's state";
    const auto firstDifferent = std::mismatch(keys.wardHistogram.begin(), keys.wardHistogram.end(),
                                              twoDispatches.wardHistogram.begin(), twoDispatches.wardHistogram.end());
    EXPECT_EQ(keys.wardHistogram, twoDispatches.wardHistogram)
        << "Ward's histogram, first different word " << std::distance(keys.wardHistogram.begin(), firstDifferent.first);
    EXPECT_EQ(keys.histogram, twoDispatches.histogram) << "the pipeline's histogram";
    EXPECT_EQ(keys.curve, twoDispatches.curve) << "curve words";
    EXPECT_EQ(keys.picture, twoDispatches.picture);
    EXPECT_EQ(keys.verify, "ok");
    EXPECT_EQ(twoDispatches.verify, "ok");
}

gl::Texture frame(glm::ivec2 size, float logMin, float logMax, std::uint32_t seed, bool special)
{
    ts::TestImage image = ts::randomHdrImage(size.x, size.y, logMin, logMax, seed);
    if (special)
        ts::addSpecialPixels(image, 97);  // NaN, infinities, negatives
    return ts::uploadImage(image);
}

gl::Texture nanFrame(glm::ivec2 size)
{
    ts::TestImage image;
    image.width = size.x;
    image.height = size.y;
    image.rgba.assign(std::size_t(size.x) * size.y * 4, std::numeric_limits<float>::quiet_NaN());
    return ts::uploadImage(image);
}

const std::vector<std::uint32_t> kNoKeys{0u, 0u};

}  // namespace

class WardRangeKeysGl : public ts::GlTest
{
};

TEST_F(WardRangeKeysGl, OneDispatchGivesTheTwoDispatchWordsFrameAfterFrame)
{
    const glm::ivec2 size{1280, 720};  // 60 degrees: foveal blocks of well over 32 pixels
    const gl::Texture plain = frame(size, -6.0f, 12.0f, 61, false);
    const gl::Texture special = frame(size, -9.0f, 13.0f, 62, true);
    const gl::Texture dark = frame(size, -14.0f, -2.0f, 63, false);
    const gl::Texture nan = nanFrame(size);  // no finite sample: no key at all
    WardPipeline keys(true);
    WardPipeline twoDispatches(false);
    int index = 0;
    for (const gl::Texture* f : {&plain, &special, &dark, &plain, &nan, &special, &plain}) {
        SCOPED_TRACE("frame " + std::to_string(index));
        const int preExposure = index++ == 6 ? 5 : 0;  // the last as a pre-exposed half-float frame would be
        const Outputs k = keys.run(*f, size, preExposure);
        const Outputs t = twoDispatches.run(*f, size, preExposure);
        EXPECT_TRUE(k.fovealFromHistogram);
        EXPECT_TRUE(t.fovealFromHistogram);
        EXPECT_TRUE(k.rangeFromKeys) << "the range dispatch ran";
        EXPECT_FALSE(t.rangeFromKeys);
        EXPECT_EQ(k.dispatches, 1u);
        EXPECT_EQ(t.dispatches, 2u);
        EXPECT_EQ(k.keysAfter, kNoKeys) << "the fit leaves the keys zero for the next frame";
        expectSame(k, t);
    }
}

TEST_F(WardRangeKeysGl, KeysNotConsumedNeverReachALaterFrame)
{
    const glm::ivec2 size{1280, 720};
    const glm::ivec2 larger{1920, 1080};
    const glm::ivec2 small{160, 90};  // blocks under 32 pixels: Ward's own foveal pass, no keys offered
    const gl::Texture bright = frame(size, 4.0f, 16.0f, 71, false);
    const gl::Texture dark = frame(size, -14.0f, -3.0f, 72, false);
    const gl::Texture darkLarge = frame(larger, -12.0f, -1.0f, 73, true);
    const gl::Texture brightSmall = frame(small, 5.0f, 15.0f, 74, false);
    // Both pipelines see the same frames and settings (the pipeline's range and curve carry over).
    WardPipeline keys(true);
    WardPipeline reference(false);
    const auto step = [&](const gl::Texture& f, glm::ivec2 at) {
        const Outputs k = keys.run(f, at);
        expectSame(k, reference.run(f, at));
        return k;
    };
    const auto setBoth = [&](const std::string& key, const std::string& value) {
        keys.set(key, value);
        reference.set(key, value);
        reference.setRangeKeys(false);
    };

    // The range dispatch forced on a bright frame: the histogram pass wrote keys that nobody consumed.
    keys.setRangeKeys(false);
    const Outputs skipped = step(bright, size);
    EXPECT_FALSE(skipped.rangeFromKeys);
    EXPECT_NE(skipped.keysAfter, kNoKeys) << "the histogram pass wrote no keys: the test would prove nothing";
    // The next frame, dark, takes the keys path: its range must be the dark frame's alone.
    keys.setRangeKeys(true);
    {
        SCOPED_TRACE("after unconsumed keys");
        EXPECT_TRUE(step(dark, size).rangeFromKeys);
    }
    // Unconsumed keys again, then a small frame (no keys offered, Ward's own foveal pass), then the
    // keys path at another size.
    keys.setRangeKeys(false);
    (void)step(bright, size);
    keys.setRangeKeys(true);
    {
        SCOPED_TRACE("small frame");
        const Outputs k = step(brightSmall, small);
        EXPECT_FALSE(k.fovealFromHistogram);
        EXPECT_FALSE(k.rangeFromKeys);
    }
    {
        SCOPED_TRACE("larger frame");
        const Outputs k = step(darkLarge, larger);
        EXPECT_TRUE(k.rangeFromKeys);
        EXPECT_EQ(k.keysAfter, kNoKeys);
    }
    // Unconsumed keys, another operator for a frame, then Ward again.
    keys.setRangeKeys(false);
    (void)step(bright, size);
    keys.setRangeKeys(true);
    setBoth("tonemap.operator", "percentile");
    (void)step(bright, size);
    setBoth("tonemap.operator", "ward");
    keys.setRangeKeys(true);
    {
        SCOPED_TRACE("operator switched away and back");
        EXPECT_TRUE(step(dark, size).rangeFromKeys);
    }
}
