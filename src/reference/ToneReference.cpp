#include "reference/ToneReference.h"

#include "reference/Histogram.h"
#include "reference/Image.h"
#include "reference/ToneEqualizeRef.h"
#include "reference/ToneExposureRef.h"
#include "reference/ToneLocalRef.h"
#include "reference/TonePercentileRef.h"
#include "reference/ToneWardExact.h"
#include "reference/ToneWardRef.h"
#include "reference/WardPcondRef.h"
#include "shared/HostDevice.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace ref {

std::vector<float> makeCurveWords(double logMin,
                                  double logMax,
                                  std::uint32_t sampleCount,
                                  std::uint32_t channels,
                                  bool linearScale,
                                  double scale)
{
    std::vector<float> words(hd::kCurveBufferWords, 0.0f);
    words[hd::kCurveLogMin] = float(logMin);
    words[hd::kCurveLogMax] = float(logMax);
    words[hd::kCurveSampleCount] = float(sampleCount);
    words[hd::kCurveChannels] = float(channels);
    words[hd::kCurveMode] = linearScale ? hd::kCurveModeLinearScale : hd::kCurveModeLut;
    words[hd::kCurveScale] = float(scale);
    return words;
}

namespace {

void putLut(std::vector<float>& words, std::uint32_t channel, const std::vector<float>& values)
{
    std::copy(values.begin(), values.end(),
              words.begin() + hd::kCurveHeaderWords + std::size_t(channel) * hd::kMaxCurveSamples);
}

std::vector<std::uint32_t> cumulative(const std::vector<std::uint32_t>& bins)
{
    std::vector<std::uint32_t> cdf(bins.size());
    std::uint32_t running = 0;
    for (std::size_t i = 0; i < bins.size(); ++i)
        cdf[i] = running += bins[i];
    return cdf;
}

std::vector<float> equalizeWords(const CurveInputs& in)
{
    const post::EqualizeSettings equalize = settingsOr<post::EqualizeSettings>(in);
    const std::uint32_t n = std::uint32_t(in.bins.size());
    if (!equalize.perChannel) {
        std::vector<float> words = makeCurveWords(in.logMin, in.logMax, n, 1);
        putLut(words, 0, equalizeCurve(in.bins, equalize.encodedOutput));
        return words;
    }
    std::vector<float> words = makeCurveWords(in.logMin, in.logMax, n, 3);
    for (std::uint32_t c = 0; c < 3; ++c) {
        std::vector<std::uint32_t> bins = in.channelBins[c];
        if (bins.empty() && in.rgba != nullptr) {
            // A grey image carrying channel c, binned as the GPU bins it: its luminance is the channel
            // times the weights' sum (1 unit = that many cd/m^2, within an ulp of cdPerUnit).
            const std::size_t pixels = std::size_t(in.width) * std::size_t(in.height);
            std::vector<float> grey(pixels * 4);
            for (std::size_t p = 0; p < pixels; ++p) {
                const float v = in.rgba[p * 4 + c];
                grey[p * 4 + 0] = grey[p * 4 + 1] = grey[p * 4 + 2] = v;
                grey[p * 4 + 3] = 1.0f;
            }
            bins = buildHistogram(grey.data(), in.width, in.height, in.logMin, in.logMax, n, OutOfRange::Clamp,
                                  in.luminance)
                       .bins;
        }
        bins.resize(n, 0u);
        putLut(words, c, equalizeCurve(bins, equalize.encodedOutput));
    }
    return words;
}

std::vector<float> percentileWords(const CurveInputs& in)
{
    const std::vector<std::uint32_t> cdf = cumulative(in.bins);
    PercentileState previous;
    if (in.previousExposureEv) {
        previous.valid = true;
        previous.exposureEv = *in.previousExposureEv;
    }
    const post::PercentileSettings settings = settingsOr<post::PercentileSettings>(in);
    const PercentileState state = stepPercentile(previous, cdf, in.logMin, in.logMax, in.dtSeconds, settings);
    const double exposureEv = state.valid ? state.exposureEv : 0.0;
    const post::PercentileSettings s = post::sanitize(settings);
    const bool linear = s.display.curve == post::DisplayCurve::Clamp;
    std::vector<float> words =
        makeCurveWords(in.logMin, in.logMax, post::kPercentileCurveSamples, 1, linear, std::exp2(exposureEv));
    putLut(words, 0, percentileCurveValues(exposureEv, in.logMin, in.logMax, s));
    return words;
}

/// Ward with pcond sampling: reference/WardPcondRef's mapping sampled as WardPcondFit.comp fills the LUT.
std::vector<float> wardPcondWords(const CurveInputs& in, const WardPcondInputs& pcond)
{
    const post::WardSettings s = post::sanitize(pcond.ward);
    PcondPicture picture = pcond.picture;
    if (picture.rgba == nullptr) {
        picture.rgba = in.rgba;
        picture.width = in.width;
        picture.height = in.height;
    }
    const PcondMapping m = pcondMapping(pcondHistogram(picture, s), s);
    const bool valid = m.outcome != PcondOutcome::NoSamples;
    const double bwmin = valid ? m.bwmin : std::log(post::kWardLmin);
    const double bwmax = valid ? m.bwmax : bwmin + 1.0;
    const double lnScale = std::log(double(s.sceneScale));
    const bool linear = m.outcome != PcondOutcome::Histogram;
    const double logMin = (bwmin - lnScale) / std::numbers::ln2;
    const double logMax = (bwmax - lnScale) / std::numbers::ln2;
    std::vector<float> words =
        makeCurveWords(logMin, logMax, post::kWardCurveSamples, 1, linear, m.scalef / s.displayMax * s.sceneScale);
    std::vector<float> values(post::kWardCurveSamples, 0.0f);
    for (std::uint32_t j = 0; valid && j < post::kWardCurveSamples; ++j) {
        const double Lw = std::exp(bwmin + (j + 0.5) * ((bwmax - bwmin) / post::kWardCurveSamples));
        values[j] =
            float(linear ? std::min(m.scalef / s.displayMax * Lw, 1.0)
                         : (pcondDisplayLuminance(m, s, Lw) - s.displayMin) / (double(s.displayMax) - s.displayMin));
    }
    putLut(words, 0, values);
    return words;
}

std::vector<float> wardWords(const CurveInputs& in)
{
    if (const auto* pcond = std::any_cast<WardPcondInputs>(&in.settings))
        return wardPcondWords(in, *pcond);
    const post::WardSettings s = post::sanitize(settingsOr<post::WardSettings>(in));
    std::vector<double> samples;
    if (in.rgba != nullptr && in.width > 0 && in.height > 0) {
        const FovealGrid grid = fovealGridSize(in.width, in.height, in.fovYDegrees);
        samples = wardFovealLuminance(in.rgba, in.width, in.height, grid, s.sceneScale, in.luminance);
    }
    const WardHistogram histogram = wardHistogram(samples, s);
    const WardResult result = wardCurve(histogram, s);
    const double lnScale = std::log(double(s.sceneScale));
    const double logMin = (result.bwmin - lnScale) / std::numbers::ln2;
    const double logMax = (result.bwmax - lnScale) / std::numbers::ln2;
    const bool linear = result.outcome != WardOutcome::Histogram;
    std::vector<float> words =
        makeCurveWords(logMin, logMax, post::kWardCurveSamples, 1, linear, result.linearScale * s.sceneScale);
    std::vector<float> values(post::kWardCurveSamples);
    for (std::uint32_t i = 0; i < post::kWardCurveSamples; ++i) {
        const double log2Lw = logMin + (i + 0.5) * (logMax - logMin) / post::kWardCurveSamples;
        const double display = wardDisplay(result, s, std::exp2(log2Lw) * s.sceneScale);
        values[i] = float(linear ? std::min(display, 1.0) : display);
    }
    putLut(words, 0, values);
    return words;
}

std::vector<float> exposureWords(const CurveInputs& in)
{
    const ExposureCurve curve = exposureCurve(settingsOr<post::ExposureSettings>(in));
    std::vector<float> words =
        makeCurveWords(curve.logMin, curve.logMax, post::kExposureCurveSamples, 1, curve.linearScale, curve.scale);
    putLut(words, 0, curve.values);
    return words;
}

std::vector<ToneReference>& registry()
{
    // One row per operator: its id, its reference curve, its further checks of the GPU's state.
    static std::vector<ToneReference> rows = {
        {"equalize", equalizeWords, {}},    {"percentile", percentileWords, percentileChecks},
        {"ward", wardWords, wardChecks},    {"exposure", exposureWords, {}},
        {"clahe", claheWords, claheChecks}, {"ward-local", wardWords, wardLocalChecks},  // its global curve is Ward's
    };
    return rows;
}

}  // namespace

const std::vector<ToneReference>& toneReferenceRegistry()
{
    return registry();
}

void registerToneReference(ToneReference reference)
{
    for (ToneReference& row : registry())
        if (row.id == reference.id) {
            row = std::move(reference);
            return;
        }
    registry().push_back(std::move(reference));
}

bool unregisterToneReference(std::string_view operatorId)
{
    auto& rows = registry();
    const auto found =
        std::find_if(rows.begin(), rows.end(), [&](const ToneReference& row) { return row.id == operatorId; });
    if (found == rows.end())
        return false;
    rows.erase(found);
    return true;
}

const ToneReference* findToneReference(std::string_view operatorId)
{
    for (const ToneReference& row : registry())
        if (row.id == operatorId)
            return &row;
    return nullptr;
}

std::vector<float> referenceCurve(std::string_view operatorId, const CurveInputs& inputs)
{
    const ToneReference* reference = findToneReference(operatorId);
    return reference && reference->curve ? reference->curve(inputs) : std::vector<float>{};
}

double curveMaxDifference(std::span<const float> a,
                          std::span<const float> b,
                          int channel,
                          double log2Lo,
                          double log2Hi,
                          int probes)
{
    double worst = 0.0;
    probes = std::max(probes, 2);
    for (int i = 0; i < probes; ++i) {
        const double x = log2Lo + (log2Hi - log2Lo) * i / (probes - 1);
        const double Lw = std::exp2(x);
        const double va = std::clamp(evaluateCurve(a.data(), channel, Lw), 0.0, 1.0);
        const double vb = std::clamp(evaluateCurve(b.data(), channel, Lw), 0.0, 1.0);
        worst = std::max(worst, std::abs(va - vb));
    }
    return worst;
}

double lutMaxDifference(std::span<const float> a, std::span<const float> b)
{
    const int samples = std::clamp(int(a[hd::kCurveSampleCount]), 0, int(hd::kMaxCurveSamples));
    const int channels = std::clamp(int(a[hd::kCurveChannels]), 1, 3);
    double worst = 0.0;
    for (int c = 0; c < channels; ++c)
        for (int i = 0; i < samples; ++i) {
            const std::size_t at = hd::kCurveHeaderWords + std::size_t(c) * hd::kMaxCurveSamples + std::size_t(i);
            worst = std::max(worst, double(std::abs(a[at] - b[at])));
        }
    return worst;
}

}  // namespace ref
