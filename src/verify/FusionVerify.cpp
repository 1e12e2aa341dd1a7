#include "verify/FusionVerify.h"

#include "post/localexposure/FusionLocalExposure.h"
#include "post/tonemap/ToneOperator.h"
#include "reference/ExposureFusion.h"
#include "shared/LocalExposure.h"
#include "util/Log.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace verify {

namespace {

/// FusionMeter.comp's exposure in double: the curve's (log2 of kCurveScale) or log2(0.18) minus the
/// histogram's mean log2 L (bin centres).
double expectedExposure(bool fromCurve,
                        float curveScale,
                        const std::vector<std::uint32_t>& params,
                        const std::vector<std::uint32_t>& bins)
{
    if (fromCurve)
        return curveScale > 0.0f && std::isfinite(curveScale) ? std::log2(double(curveScale)) : 0.0;
    const float logMin = std::bit_cast<float>(params[hd::kParamLogMin]);
    const float logMax = std::bit_cast<float>(params[hd::kParamLogMax]);
    const double scale = double(hd::hdBinScale(logMin, logMax, std::uint32_t(bins.size())));
    double count = 0.0, position = 0.0;
    for (std::size_t b = 0; b < bins.size(); ++b) {
        count += double(bins[b]);
        position += double(bins[b]) * (double(b) + 0.5);
    }
    if (count <= 0.0 || scale <= 0.0)
        return 0.0;
    return double(hd::kFusionLog2MiddleGrey) - (double(logMin) + position / count / scale);
}

}  // namespace

LocalExposureCheck checkFusionLocalExposure(post::PostPipeline& pipeline,
                                            const std::vector<float>& hdr,
                                            glm::ivec2 size,
                                            const std::vector<std::uint32_t>& params,
                                            const std::vector<std::uint32_t>& bins,
                                            float curveScale)
{
    LocalExposureCheck check;
    const post::FusionLocalExposure& gpu = pipeline.fusionLocalExposure();
    const bool fromCurve = pipeline.toneOperator().traits().curveCarriesExposure;
    const float exposure = gpu.readExposureLog2();
    const double expected = expectedExposure(fromCurve, curveScale, params, bins);
    const double exposureDifference = std::abs(double(exposure) - expected);
    const bool exposureOk = exposureDifference <= kFusionExposureToleranceEv;
    check.text += util::format("local exposure fusion: exposure {} EV metered from {} vs CPU {} EV: {}\n", exposure,
                               fromCurve ? "the curve" : "the histogram's mean log2 L", expected,
                               exposureOk ? "ok" : util::format("DIFFERENT (above {})", kFusionExposureToleranceEv));

    // The map from the GPU's exposure, as the reference computes it (every step in the same order).
    const ref::FusionResult map = ref::exposureFusion(hdr.data(), size.x, size.y, exposure, gpu.settings());
    const std::vector<float> texels = gpu.fusion().exposureLog2Texture().readRgbaFloat();
    std::size_t differing = 0;
    double worst = 0.0;
    for (std::size_t i = 0; i < map.adjustment.size() && i * 4 < texels.size(); ++i)
        // Equal values (a zero's sign aside: the bracket's clamp gives -0 or +0 by compiler), no NaN.
        if (!(texels[i * 4] == map.adjustment[i])) {
            ++differing;
            worst = std::max(worst, std::abs(double(texels[i * 4]) - double(map.adjustment[i])));
        }
    const bool mapOk = texels.size() == map.adjustment.size() * 4 && differing == 0;
    check.text += util::format("local exposure fusion map ({}x{}, {} levels, reduction {}) vs CPU reference: {}\n",
                               map.width, map.height, map.levels, map.reduction,
                               mapOk ? "exact" : util::format("DIFFERENT ({} texels, max {} EV)", differing, worst));

    // The picture's exposure: the map sampled as the apply pass samples it (bilinear, FusionSample.glsl),
    // 0 where the luminance is not usable (LocalExposureApply.glsl's valid); the local-exposure view as
    // grey 0.5 + 0.5 ev / 4 EV (black where not usable).
    const hd::LuminanceWeights weights{std::bit_cast<float>(params[hd::kParamLumaR]),
                                       std::bit_cast<float>(params[hd::kParamLumaG]),
                                       std::bit_cast<float>(params[hd::kParamLumaB])};
    const bool view = pipeline.lastRun().localExposureView;
    check.ev.assign(std::size_t(size.x) * std::size_t(size.y), 0.0f);
    if (view)
        check.view.assign(check.ev.size() * 4, 0);
    for (int y = 0; y < size.y; ++y)
        for (int x = 0; x < size.x; ++x) {
            const std::size_t i = std::size_t(y) * std::size_t(size.x) + std::size_t(x);
            const float* p = hdr.data() + i * 4;
            const double L = double(hd::hdLuminance(p[0], p[1], p[2], weights));
            const bool valid = !std::isnan(L) && L >= double(hd::kMinLuminance) && !std::isinf(L);
            check.ev[i] = valid ? float(ref::sampleFusionAdjustment(map, x, y)) : 0.0f;
            if (!view)
                continue;
            const double grey =
                valid ? std::clamp(0.5 + 0.5 * double(check.ev[i]) / double(hd::kLocalExposureViewRangeEv), 0.0, 1.0)
                      : 0.0;
            check.view[i * 4] = check.view[i * 4 + 1] = check.view[i * 4 + 2] = std::uint8_t(std::lround(grey * 255.0));
            check.view[i * 4 + 3] = 255;
        }
    check.ok = exposureOk && mapOk;
    return check;
}

}  // namespace verify
