// The half-float frame with power-of-two pre-exposure (scene/PreExposure.h) through every consumer:
//  - every OpenGL histogram method on frames stored pre-exposed by 2^k, in RGBA32F (exact scaling) and
//    RGBA16F (half rounding, the clamp at 65504), with values on and around every bin edge, values
//    whose stored half is a denormal, values that clip at k and NaN/Inf/negative pixels: bit for bit
//    the CPU reference on the stored values under the weights x 2^-k, and (where the stored values
//    times 2^-k are the unexposed ones) the histogram of the unexposed frame;
//  - the whole pipeline (every operator, Ward's pcond sampling, per-channel equalization, a metering
//    mask, downsampling, the automatic range, the probe, the false-colour and metering views) on a
//    frame and on the same frame times 2^k told it is pre-exposed by k: every output equal bit for
//    bit, so a consumer that forgot to undo 2^-k fails here;
//  - the scene renderer: stored x 2^-k is the k = 0 frame bit for bit wherever both are normal halves
//    (forward and deferred), the frame statistics count exactly the pixels stored at the clamp, the
//    pre-exposed frame shows the RGBA32F frame's picture within one sRGB step in every shipped scene,
//    and a k that changes every frame leaves the operators' key values (the flicker figure) as a
//    fixed k has them.
#include "methods/MethodTestSupport.h"
#include "post/ExposureHistory.h"
#include "post/LuminanceUnits.h"
#include "post/PipelineParameters.h"
#include "post/PostPipeline.h"
#include "reference/Histogram.h"
#include "scene/PreExposure.h"
#include "scene/Scene.h"
#include "scene/ScenePresets.h"
#include "scene/SceneRenderer.h"
#include "support/BinEdges.h"
#include "support/GlTestEnvironment.h"
#include "support/HistogramTestSupport.h"
#include "support/TestPaths.h"
#include "verify/PipelineVerify.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <map>
#include <string>
#include <vector>

namespace ts = testing_support;

namespace {

class PreExposureGl : public ts::GlTest
{
};

/// The weights, cd/m^2 per unit and stored scale the pipeline hands every pass for pre-exposure k.
post::HistogramSpec specFor(int k, std::uint32_t bins, post::OutOfRange policy)
{
    post::LuminanceUnits units;
    units.preExposure = k;
    post::HistogramSpec spec{bins, policy};
    spec.luminance = units.effectiveWeights();
    spec.cdPerUnit = float(units.cdPerUnit());
    spec.storedScale = units.storedScale();
    return spec;
}

/// `image` uploaded into a texture of `format` (GL converts to half floats where asked), and the
/// values the texture holds, read back.
struct Stored
{
    gl::Texture texture;
    ts::TestImage image;
};
Stored store(const ts::TestImage& image, GLenum format)
{
    Stored out{gl::Texture("test.pre-exposed", format, {image.width, image.height}), image};
    out.texture.upload(GL_RGBA, GL_FLOAT, image.rgba.data());
    out.image.rgba = out.texture.readRgbaFloat();
    return out;
}

/// The frame the renderer would store: the unexposed values times 2^k; for a half-float target
/// clamped to [-65504, 65504] as the renderer clamps (NaN and infinities stay).
ts::TestImage preExpose(const ts::TestImage& unexposed, int k, bool half)
{
    ts::TestImage out = unexposed;
    for (std::size_t i = 0; i < out.rgba.size(); ++i) {
        if (i % 4 == 3)
            continue;
        float v = std::ldexp(out.rgba[i], k);
        if (half && std::isfinite(v))
            v = std::clamp(v, -hd::kHalfFloatMax, hd::kHalfFloatMax);
        out.rgba[i] = v;
    }
    return out;
}

bool sameBits(float a, float b)
{
    return std::bit_cast<std::uint32_t>(a) == std::bit_cast<std::uint32_t>(b) || (std::isnan(a) && std::isnan(b));
}

bool sameValues(const std::vector<float>& a, const std::vector<float>& b)
{
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (!sameBits(a[i], b[i]))
            return false;
    return true;
}

ts::TestImage unexpose(const ts::TestImage& stored, int k)
{
    ts::TestImage out = stored;
    scene::unexposePixels(out.rgba, k);
    return out;
}

/// Grey values on and one ulp around every edge of the range, values whose pre-exposed half is a
/// denormal (2^-24 .. 2^-15 times 2^-k), values that clip at k (above 65504 x 2^-k), a few coloured
/// pixels and NaN/Inf/negative/zero pixels.
ts::TestImage edgeFrame(float logMin, float logMax, std::uint32_t bins, int k)
{
    std::vector<float> values = ts::aroundEdges(ts::greyBinEdges(logMin, logMax, bins));
    for (int e = -24; e <= -15; ++e)
        for (float m : {1.0f, 1.25f, 1.5f})
            values.push_back(std::ldexp(m, e - k));
    for (float m : {1.0001f, 1.5f, 1e3f, 1e6f})
        values.push_back(float(hd::kHalfFloatMax) * m * std::ldexp(1.0f, -k));
    ts::TestImage image;
    image.width = 97;  // odd: rows do not line up with anything
    image.height = int((values.size() + 40 + 96) / 97);
    image.rgba.assign(image.pixelCount() * 4, 0.0f);
    for (std::size_t i = 0; i < values.size(); ++i)
        image.setGrey(i, values[i]);
    for (std::size_t i = values.size(); i < values.size() + 20; ++i)  // coloured, one strong channel
        image.setRgb(i, std::ldexp(1.0f, int(i % 17) - k), 0.125f, std::ldexp(3.0f, int(i % 5) - 3));
    ts::addSpecialPixels(image, 7);
    return image;
}

TEST_F(PreExposureGl, EveryGlMethodBinsAPreExposedFrameLikeTheReferenceInBothFormats)
{
    struct Case
    {
        float logMin, logMax;
        std::uint32_t bins;
    };
    const std::vector<Case> cases = {{-10.0f, 20.0f, 256}, {-3.3f, 7.77f, 100}, {-30.0f, 34.0f, 4096}};
    int compared = 0;
    for (const std::string& id : ts::availableGlHistogramMethodIds()) {
        auto method = methods_test::createForTest(id);
        for (const Case& c : cases) {
            for (int k : {-15, 0, 6}) {
                const ts::TestImage unexposed = edgeFrame(c.logMin, c.logMax, c.bins, k);
                if (c.bins > method->maxBins(ts::testGpuCaps()) ||
                    !methods_test::withinTestBudget(id, unexposed.width, unexposed.height, c.bins))
                    continue;
                for (GLenum format : {GLenum(GL_RGBA32F), GLenum(GL_RGBA16F)}) {
                    const bool half = format == GL_RGBA16F;
                    const Stored frame = store(preExpose(unexposed, k, half), format);
                    for (post::OutOfRange policy : {post::OutOfRange::Clamp, post::OutOfRange::Separate}) {
                        const std::string what = id + ", k " + std::to_string(k) +
                                                 (half ? ", RGBA16F, " : ", RGBA32F, ") + std::to_string(c.bins) +
                                                 " bins over [" + std::to_string(c.logMin) + ", " +
                                                 std::to_string(c.logMax) + "]" +
                                                 (policy == post::OutOfRange::Separate ? " separate" : " clamp");
                        const post::HistogramSpec spec = specFor(k, c.bins, policy);
                        const ts::GpuHistogram gpu = ts::runHistogramMethodOnTexture(
                            *method, frame.texture, {unexposed.width, unexposed.height}, c.logMin, c.logMax, spec);
                        // The reference on the stored values under the scaled weights...
                        const ref::Histogram onStored =
                            ref::buildHistogram(frame.image.rgba.data(), unexposed.width, unexposed.height, c.logMin,
                                                c.logMax, c.bins, ts::toReference(policy), spec.luminance);
                        ts::expectHistogramsEqual(gpu, onStored, method->fillsCounters(), what + " (stored values)");
                        // ...is the reference on the stored values times 2^-k under the plain weights,
                        // and for RGBA32F that is the unexposed frame itself (every value stays normal).
                        const ts::TestImage back = unexpose(frame.image, k);
                        const ref::Histogram onUnexposed =
                            ref::buildHistogram(back.rgba.data(), unexposed.width, unexposed.height, c.logMin, c.logMax,
                                                c.bins, ts::toReference(policy));
                        EXPECT_EQ(onStored.bins, onUnexposed.bins) << what;
                        EXPECT_EQ(onStored.counters, onUnexposed.counters) << what;
                        if (!half) {
                            EXPECT_TRUE(sameValues(back.rgba, unexposed.rgba))
                                << what << ": RGBA32F scaling must be exact here";
                            const ref::Histogram truth =
                                ref::buildHistogram(unexposed.rgba.data(), unexposed.width, unexposed.height, c.logMin,
                                                    c.logMax, c.bins, ts::toReference(policy));
                            ts::expectHistogramsEqual(gpu, truth, method->fillsCounters(), what + " (unexposed)");
                        }
                        // The NaN/Inf/non-positive counters do not depend on k; only RGBA16F stores a
                        // value below its range (2^-25 x 2^-k) as 0, which then counts as non-positive.
                        const ref::Histogram truth =
                            ref::buildHistogram(unexposed.rgba.data(), unexposed.width, unexposed.height, c.logMin,
                                                c.logMax, c.bins, ts::toReference(policy));
                        for (std::uint32_t counter : {hd::kCounterNaN, hd::kCounterInf, hd::kCounterNonPositive})
                            if (method->fillsCounters() && !(half && counter == hd::kCounterNonPositive))
                                EXPECT_EQ(gpu.counters[counter], truth.counters[counter])
                                    << what << " counter " << counter;
                        ++compared;
                        if (HasFailure())
                            return;  // one readable failure
                    }
                }
            }
        }
    }
    EXPECT_GE(compared, 40);
}

// ---- The pipeline: every consumer sees the frame, not its pre-exposure --------------------------

struct PipelineOutputs
{
    std::vector<std::uint32_t> histogram, cdf, params;
    std::vector<float> curve;
    std::vector<unsigned char> toneMapped, view;
    std::vector<post::ProbeSample> probes;
    std::string verify;
};

struct Variant
{
    std::string name;
    std::vector<std::pair<std::string, std::string>> keys;  ///< KEY=VALUE through post::PipelineParameters
    post::ViewMode view = post::ViewMode::ToneMapped;
};

/// Three frames of `variant` on `texture` (dt 1/60 s: adaptation runs), the last frame's outputs.
PipelineOutputs runPipeline(const gl::Texture& texture, glm::ivec2 size, int k, const Variant& variant)
{
    post::PostPipeline pipeline(ts::shaderLibrary(), ts::testProfiler(), ts::testGpuCaps());
    post::PipelineParameters keys(pipeline);
    for (const auto& [key, value] : variant.keys)
        keys.set(key, value);
    pipeline.setViewMode(variant.view, true);
    pipeline.setProbePoints({{0, 0}, {size.x / 2, size.y / 3}, {size.x - 1, size.y - 1}, {7, 5}, {size.x + 3, 0}});
    for (int frame = 0; frame < 3; ++frame)
        pipeline.run(post::ImageInput{texture, size, k}, 1.0 / 60.0, 60.0f);
    glFinish();
    pipeline.pollProbe();
    PipelineOutputs out;
    out.histogram = pipeline.histogramBuffer().readAll<std::uint32_t>(hd::kHistogramBufferWords);
    out.cdf = pipeline.cdfBuffer().readAll<std::uint32_t>(hd::kMaxHistogramBins);
    out.params = pipeline.paramsBuffer().readAll<std::uint32_t>(hd::kHistogramParamsWords);
    out.curve = pipeline.curveBuffer().readAll<float>(hd::kCurveBufferWords);
    out.toneMapped = pipeline.toneMappedTexture().readRgba8();
    out.view = pipeline.outputTexture().readRgba8();
    if (const auto probe = pipeline.latestProbe())
        out.probes = probe->samples;
    const verify::VerifyReport report = verify::verifyPipeline(pipeline);
    out.verify = report.ok ? "ok" : report.text;
    return out;
}

TEST_F(PreExposureGl, EveryConsumerOfThePipelineUndoesThePreExposureExactly)
{
    // Values over 24 EV with NaN/Inf/negative pixels: times 2^k every one stays a normal float.
    ts::TestImage image = ts::randomHdrImage(67, 39, -12.0f, 12.0f, 5);
    ts::addSpecialPixels(image, 53);
    const glm::ivec2 size{image.width, image.height};
    const gl::Texture plain = ts::uploadImage(image, "test.unexposed");
    const std::vector<Variant> variants = {
        {"ward", {{"tonemap.operator", "ward"}}},
        {"ward pcond", {{"tonemap.operator", "ward"}, {"ward.sampling", "pcond"}}},
        {"percentile, auto range, downsample 2",
         {{"tonemap.operator", "percentile"}, {"histogram.range", "auto"}, {"histogram.downsample", "2"}}},
        {"percentile, centre-weighted metering",
         {{"tonemap.operator", "percentile"}, {"percentile.metering_mask", "centre-weighted"}},
         post::ViewMode::Metering},
        {"equalize per channel", {{"tonemap.operator", "equalize"}, {"equalize.per_channel", "true"}}},
        {"equalize, false colour", {{"tonemap.operator", "equalize"}}, post::ViewMode::FalseColour},
        {"exposure", {{"tonemap.operator", "exposure"}, {"histogram.out_of_range", "separate"}}},
    };
    for (int k : {-9, 7}) {
        const gl::Texture exposed = ts::uploadImage(preExpose(image, k, false), "test.pre-exposed");
        for (const Variant& variant : variants) {
            SCOPED_TRACE(variant.name + ", k " + std::to_string(k));
            const PipelineOutputs a = runPipeline(plain, size, 0, variant);
            const PipelineOutputs b = runPipeline(exposed, size, k, variant);
            EXPECT_EQ(a.verify, "ok");
            EXPECT_EQ(b.verify, "ok");
            EXPECT_EQ(a.histogram, b.histogram) << "histogram bins and counters";
            EXPECT_EQ(a.cdf, b.cdf);
            for (std::uint32_t word : {hd::kParamLogMin, hd::kParamLogMax, hd::kParamBinCount, hd::kParamOutOfRange,
                                       hd::kParamWidth, hd::kParamHeight})
                EXPECT_EQ(a.params[word], b.params[word]) << "params word " << word;
            EXPECT_EQ(std::bit_cast<float>(b.params[hd::kParamStoredScale]), std::ldexp(1.0f, -k));
            EXPECT_EQ(std::bit_cast<float>(b.params[hd::kParamLumaG]), std::ldexp(hd::kLumaG, -k));
            ASSERT_EQ(a.curve.size(), b.curve.size());
            int curveDifferences = 0;
            for (std::size_t i = 0; i < a.curve.size(); ++i)
                curveDifferences += sameBits(a.curve[i], b.curve[i]) ? 0 : 1;
            EXPECT_EQ(curveDifferences, 0) << "tone curve words";
            EXPECT_EQ(a.toneMapped, b.toneMapped) << "the tone-mapped image";
            EXPECT_EQ(a.view, b.view) << "the view shown";
            ASSERT_EQ(a.probes.size(), 5u);
            ASSERT_EQ(b.probes.size(), 5u);
            for (std::size_t i = 0; i < a.probes.size(); ++i) {
                const post::ProbeSample& p = a.probes[i];
                const post::ProbeSample& q = b.probes[i];
                EXPECT_EQ(p.inside, q.inside) << "probe " << i;
                EXPECT_TRUE(sameBits(p.rgb.x, q.rgb.x) && sameBits(p.rgb.y, q.rgb.y) && sameBits(p.rgb.z, q.rgb.z))
                    << "probe " << i << " rgb " << q.rgb.x << " vs " << p.rgb.x;
                EXPECT_TRUE(sameBits(p.luminance, q.luminance)) << "probe " << i;
                EXPECT_EQ(p.bin, q.bin) << "probe " << i;
                EXPECT_TRUE(sameBits(p.displayLuminance, q.displayLuminance)) << "probe " << i;
                EXPECT_EQ(p.shown, q.shown) << "probe " << i;
                EXPECT_EQ(p.falseColour, q.falseColour) << "probe " << i;
            }
            if (HasFailure())
                return;
        }
    }
}

TEST_F(PreExposureGl, TheComparisonOfThePipelineSeesAForgottenUndo)
{
    // The same frame times 2^7 *not* told it is pre-exposed: the histogram moves, so the test above
    // has teeth.
    ts::TestImage image = ts::randomHdrImage(31, 17, -8.0f, 8.0f, 9);
    const gl::Texture plain = ts::uploadImage(image, "test.unexposed");
    const gl::Texture exposed = ts::uploadImage(preExpose(image, 7, false), "test.pre-exposed");
    const Variant ward{"ward", {{"tonemap.operator", "ward"}}};
    EXPECT_NE(runPipeline(plain, {31, 17}, 0, ward).histogram, runPipeline(exposed, {31, 17}, 0, ward).histogram);
}

// ---- The scene renderer ---------------------------------------------------------------------------

std::vector<float> render(scene::SceneRenderer& renderer,
                          const scene::Camera& camera,
                          glm::ivec2 size,
                          scene::LightingPath path,
                          std::optional<int> k)
{
    renderer.resize(size);
    scene::RenderOptions options;
    options.lighting = path;
    options.preExposure = k;
    renderer.render(camera, options);
    return renderer.hdrTarget().readRgbaFloat();
}

bool normalHalf(float v)
{
    return std::abs(v) >= std::ldexp(1.0f, -14) && std::abs(v) < hd::kHalfFloatMax;
}

TEST_F(PreExposureGl, StoredTimesTwoToTheMinusKIsTheUnexposedHalfBitForBit)
{
    const std::vector<scene::ScenePreset> presets = scene::listScenePresets(ts::sourceDir() / "scenes");
    ASSERT_GE(presets.size(), 8u);
    for (const scene::ScenePreset& preset : presets) {
        SCOPED_TRACE(preset.name);
        const scene::Scene s = scene::loadSceneFile(preset.path);
        scene::SceneRenderer renderer(ts::shaderLibrary(), s, scene::FrameFormat::Rgba16f);
        const scene::Camera camera = s.cameraAt(3.0);
        for (scene::LightingPath path : {scene::LightingPath::Deferred, scene::LightingPath::Forward}) {
            SCOPED_TRACE(scene::lightingPathName(path));
            // The reference: the k the rule picks from the frame's peak (its statistics); then k 3 EV
            // lower and 2 EV higher.
            render(renderer, camera, {83, 47}, path, std::nullopt);
            const scene::FrameStats stats = scene::decodeFrameStats(
                renderer.frameStats().readAll<std::uint32_t>(hd::kFrameStatsWords), renderer.preExposure());
            const int k0 = scene::preExposureFor(stats.peak).value_or(0);
            const std::vector<float> referenceStored = render(renderer, camera, {83, 47}, path, k0);
            std::vector<float> reference = referenceStored;
            scene::unexposePixels(reference, k0);
            for (int k : {k0 - 3, k0 + 2}) {
                const std::vector<float> stored = render(renderer, camera, {83, 47}, path, k);
                EXPECT_EQ(renderer.preExposure(), k);
                std::size_t compared = 0, differing = 0;
                for (std::size_t i = 0; i < stored.size(); ++i) {
                    if (i % 4 == 3 || !normalHalf(referenceStored[i]) || !normalHalf(stored[i]))
                        continue;
                    ++compared;
                    if (std::ldexp(stored[i], -k) != reference[i] && differing++ < 3)
                        ADD_FAILURE() << "k " << k << " value " << i << ": " << stored[i] << " x 2^" << -k << " vs "
                                      << reference[i];
                }
                EXPECT_EQ(differing, 0u) << "of " << compared;
                std::cout << preset.name << " " << compared << " of " << stored.size() / 4 * 3 << "\n";
                if (preset.name != "stress-almost-black")
                    EXPECT_GT(compared, stored.size() / 4 * 3 / 2)
                        << "most values must fit for the test to mean anything";
            }
        }
    }
}

TEST_F(PreExposureGl, FrameStatisticsCountExactlyThePixelsStoredAtTheClampAndTheTruePeak)
{
    const scene::Scene s = scene::defaultScene();
    const scene::Camera camera = s.cameraAt(0.0);
    const glm::ivec2 size{96, 54};
    scene::SceneRenderer truth(ts::shaderLibrary(), s, scene::FrameFormat::Rgba32f);
    const std::vector<float> exact = render(truth, camera, size, scene::LightingPath::Deferred, std::nullopt);
    float truePeak = 0.0f;
    for (std::size_t i = 0; i < exact.size(); ++i)
        if (i % 4 != 3)
            truePeak = std::max(truePeak, exact[i]);
    ASSERT_GT(truePeak, 1000.0f);
    const int fits = *scene::preExposureFor(truePeak);

    scene::SceneRenderer renderer(ts::shaderLibrary(), s, scene::FrameFormat::Rgba16f);
    ASSERT_TRUE(renderer.frameStatsActive());
    for (scene::LightingPath path : {scene::LightingPath::Deferred, scene::LightingPath::Forward}) {
        for (int k : {fits, fits + 4, fits + 9}) {  // nothing clips; the brightest parts; most of the frame
            SCOPED_TRACE(std::string(scene::lightingPathName(path)) + ", k " + std::to_string(k));
            const std::vector<float> stored = render(renderer, camera, size, path, k);
            const scene::FrameStats stats = scene::decodeFrameStats(
                renderer.frameStats().readAll<std::uint32_t>(hd::kFrameStatsWords), renderer.preExposure());
            std::uint32_t atClamp = 0;
            float storedPeak = 0.0f;
            for (std::size_t p = 0; p + 3 < stored.size(); p += 4) {
                bool clipped = false;
                for (std::size_t c = 0; c < 3; ++c) {
                    EXPECT_LE(stored[p + c], hd::kHalfFloatMax);  // never +Inf
                    clipped = clipped || stored[p + c] == hd::kHalfFloatMax;
                    storedPeak = std::max(storedPeak, stored[p + c]);
                }
                atClamp += clipped ? 1u : 0u;
            }
            EXPECT_EQ(stats.clippedPixels, atClamp);
            if (k == fits) {
                EXPECT_EQ(atClamp, 0u);
                EXPECT_NEAR(stats.peak, truePeak, truePeak * 1e-3) << "the peak before the half rounding";
            } else {
                EXPECT_GT(atClamp, 0u);
                // The peak is the unclipped value: the deferred pass sees every pixel's; the forward
                // fragments record the clipped ones (possibly hidden ones too: never less).
                if (path == scene::LightingPath::Deferred)
                    EXPECT_NEAR(stats.peak, truePeak, truePeak * 1e-3);
                else
                    EXPECT_GE(stats.peak, truePeak * (1.0f - 1e-3f));
            }
            EXPECT_GE(stats.peak, std::ldexp(storedPeak, -k) * (1.0f - 1e-6f));
        }
    }
    // RGBA32F frames keep no statistics.
    EXPECT_FALSE(truth.frameStatsActive());
}

// The comparison's display mapping (as DeferredLightingTest's): exposure, Reinhard per channel,
// sRGB, 8 bits; mid grey at the lit median and 16x brighter for the shadows.
int displayCode(float value, double exposure)
{
    double x = std::max(double(value), 0.0) * exposure;
    double mapped = x / (1.0 + x);
    double srgb = mapped <= 0.0031308 ? 12.92 * mapped : 1.055 * std::pow(mapped, 1.0 / 2.4) - 0.055;
    return int(std::lround(std::clamp(srgb, 0.0, 1.0) * 255.0));
}

int largestDisplayStep(const std::vector<float>& a, const std::vector<float>& b)
{
    std::vector<double> lit;
    for (std::size_t i = 0; i + 3 < a.size(); i += 4)
        if (double l = hd::hdLuminance(a[i], a[i + 1], a[i + 2]); l > 0.0)
            lit.push_back(l);
    double median = 1.0;
    if (!lit.empty()) {
        std::nth_element(lit.begin(), lit.begin() + std::ptrdiff_t(lit.size() / 2), lit.end());
        median = lit[lit.size() / 2];
    }
    int worst = 0;
    for (double exposure : {0.18 / median, 16.0 * 0.18 / median})
        for (std::size_t i = 0; i < a.size(); ++i)
            if (i % 4 != 3)
                worst = std::max(worst, std::abs(displayCode(a[i], exposure) - displayCode(b[i], exposure)));
    return worst;
}

TEST_F(PreExposureGl, ThePreExposedFrameShowsTheRgba32fPictureWithinOneSrgbStep)
{
    const std::vector<scene::ScenePreset> presets = scene::listScenePresets(ts::sourceDir() / "scenes");
    for (const scene::ScenePreset& preset : presets) {
        SCOPED_TRACE(preset.name);
        const scene::Scene s = scene::loadSceneFile(preset.path);
        scene::SceneRenderer full(ts::shaderLibrary(), s, scene::FrameFormat::Rgba32f);
        scene::SceneRenderer half(ts::shaderLibrary(), s, scene::FrameFormat::Rgba16f);
        for (double seconds : {0.0, 7.0}) {
            SCOPED_TRACE("t = " + std::to_string(seconds) + " s");
            const scene::Camera camera = s.cameraAt(seconds);
            const glm::ivec2 size{101, 63};
            const std::vector<float> exact = render(full, camera, size, scene::kDefaultLightingPath, std::nullopt);
            // The k the rule settles on: the frame's own peak's target.
            float peak = 0.0f;
            for (std::size_t i = 0; i < exact.size(); ++i)
                if (i % 4 != 3 && std::isfinite(exact[i]))
                    peak = std::max(peak, exact[i]);
            const int k = scene::preExposureFor(peak).value_or(0);
            std::vector<float> shown = render(half, camera, size, scene::kDefaultLightingPath, k);
            scene::unexposePixels(shown, k);
            EXPECT_LE(largestDisplayStep(exact, shown), 1) << "k " << k;

            // And through the pipeline: with the exposure operator's fixed curve and the percentile
            // operator's metered exposure the display images agree within one step too. The curves
            // shaped by the histogram (Ward's fit, equalization) follow the half rounding of the
            // frame, which moves pixels at bin edges to the neighbouring bin as in any RGBA16F frame
            // (the pre-exposure itself changes nothing: EveryConsumerOfThePipelineUndoes...): up to
            // 3 steps at a few values where the curve is steep.
            for (const std::string op : {"ward", "percentile", "equalize", "exposure"}) {
                const bool shaped = op == "ward" || op == "equalize";
                post::PostPipeline a(ts::shaderLibrary(), ts::testProfiler(), ts::testGpuCaps());
                post::PostPipeline b(ts::shaderLibrary(), ts::testProfiler(), ts::testGpuCaps());
                post::PipelineParameters(a).set("tonemap.operator", op);
                post::PipelineParameters(b).set("tonemap.operator", op);
                // The frames are rendered again here: a and b read their own renderers' targets.
                render(full, camera, size, scene::kDefaultLightingPath, std::nullopt);
                render(half, camera, size, scene::kDefaultLightingPath, k);
                a.run({full.hdrTarget(), size, 0}, 1.0 / 60.0, camera.verticalFovDegrees);
                b.run({half.hdrTarget(), size, k}, 1.0 / 60.0, camera.verticalFovDegrees);
                const std::vector<unsigned char> da = a.toneMappedTexture().readRgba8();
                const std::vector<unsigned char> db = b.toneMappedTexture().readRgba8();
                int worst = 0;
                std::size_t overOne = 0;
                for (std::size_t i = 0; i < da.size(); ++i) {
                    worst = std::max(worst, std::abs(int(da[i]) - int(db[i])));
                    overOne += std::abs(int(da[i]) - int(db[i])) > 1 ? 1 : 0;
                }
                EXPECT_LE(worst, shaped ? 3 : 1) << op << ", k " << k;
                EXPECT_LE(overOne, shaped ? da.size() / 200 : 0u) << op << ", k " << k << ": values over one step";
            }
        }
    }
}

TEST_F(PreExposureGl, AKChangingEveryFrameLeavesTheKeyValuesAsAFixedKHasThem)
{
    // The default scene's camera path, the percentile operator (an exposure that adapts over frames):
    // k fixed, and k alternating 2 EV apart every frame. Both keep the frame's values normal halves
    // almost everywhere, so the key values agree to rounding and the flicker figure is the same.
    const scene::Scene s = scene::defaultScene();
    const glm::ivec2 size{72, 40};
    scene::SceneRenderer full(ts::shaderLibrary(), s, scene::FrameFormat::Rgba32f);
    const std::vector<float> first = render(full, s.cameraAt(0.0), size, scene::kDefaultLightingPath, std::nullopt);
    const float peak = *std::max_element(first.begin(), first.end());
    const int k = *scene::preExposureFor(peak);
    std::map<std::string, std::map<std::uint64_t, float>> keys;
    std::map<std::string, std::optional<double>> flicker;
    for (const std::string run : {"fixed", "alternating", "rgba32f"}) {
        scene::SceneRenderer renderer(ts::shaderLibrary(), s,
                                      run == "rgba32f" ? scene::FrameFormat::Rgba32f : scene::FrameFormat::Rgba16f);
        profiling::Profiler profiler(false);
        post::PostPipeline pipeline(ts::shaderLibrary(), profiler, ts::testGpuCaps());
        post::PipelineParameters(pipeline).set("tonemap.operator", "percentile");
        post::ExposureHistory history(1e9);
        constexpr int kFrames = 48;
        for (int frame = 0; frame < kFrames; ++frame) {
            profiler.beginFrame();
            const int frameK = run == "alternating" ? k + (frame % 2 == 0 ? -1 : 1) : k;
            render(renderer, s.cameraAt(frame / 60.0), size, scene::kDefaultLightingPath, frameK);
            history.addFrame(profiler.frameIndex(), frame / 60.0, 1000.0 / 60.0);
            pipeline.run({renderer.hdrTarget(), size, renderer.preExposure()}, 1.0 / 60.0, 60.0f);
            profiler.endFrame();
            for (const post::KeyValueSample& sample : pipeline.toneOperator().takeKeyValues()) {
                keys[run][sample.frameIndex] = sample.ev;
                history.setKeyValue(sample.frameIndex, sample.ev);
            }
            if (run == "alternating")
                EXPECT_EQ(renderer.preExposure(), frameK);
        }
        glFinish();
        for (const post::KeyValueSample& sample : pipeline.toneOperator().takeKeyValues()) {
            keys[run][sample.frameIndex] = sample.ev;
            history.setKeyValue(sample.frameIndex, sample.ev);
        }
        flicker[run] = history.flickerEvPerSecond();
        EXPECT_GE(keys[run].size(), std::size_t(kFrames / 2)) << run;
    }
    ASSERT_TRUE(flicker["fixed"] && flicker["alternating"] && flicker["rgba32f"]);
    double worst = 0.0;
    std::size_t compared = 0;
    for (const auto& [frame, ev] : keys["fixed"])
        if (const auto other = keys["alternating"].find(frame); other != keys["alternating"].end()) {
            worst = std::max(worst, double(std::abs(ev - other->second)));
            ++compared;
        }
    EXPECT_GE(compared, 20u);
    EXPECT_LE(worst, 1e-3) << "EV between the fixed and the alternating k";
    EXPECT_NEAR(*flicker["alternating"], *flicker["fixed"], 1e-3 + 0.01 * *flicker["fixed"]);
    // Against the RGBA32F frame the half rounding alone separates them: within 2 % here.
    EXPECT_NEAR(*flicker["fixed"], *flicker["rgba32f"], 1e-3 + 0.02 * *flicker["rgba32f"]);
}

}  // namespace
