#include "verify/LocalExposureVerify.h"

#include "post/localexposure/BilateralLocalExposure.h"
#include "post/tonemap/ToneOperator.h"
#include "reference/LocalExposureRef.h"
#include "shared/LocalExposure.h"
#include "util/Log.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace verify {

LocalExposureCheck checkLocalExposure(post::PostPipeline& pipeline,
                                      const std::vector<float>& hdr,
                                      glm::ivec2 size,
                                      const std::vector<std::uint32_t>& params,
                                      float curveScale)
{
    LocalExposureCheck check;
    const float logMin = std::bit_cast<float>(params[hd::kParamLogMin]);
    const float logMax = std::bit_cast<float>(params[hd::kParamLogMax]);
    const hd::LuminanceWeights weights{std::bit_cast<float>(params[hd::kParamLumaR]),
                                       std::bit_cast<float>(params[hd::kParamLumaG]),
                                       std::bit_cast<float>(params[hd::kParamLumaB])};
    const post::LocalExposureSettings& settings = pipeline.settings().localExposure;
    const post::BilateralLocalExposure& gpu = pipeline.localExposure();

    const ref::LocalExposureGrid grid = ref::localExposureGrid(hdr.data(), size.x, size.y, logMin, logMax, weights);
    const std::vector<std::uint32_t> gpuGrid = gpu.readGrid();
    const bool gridOk = gpuGrid == grid.words;
    std::size_t differing = 0;
    for (std::size_t i = 0; i < gpuGrid.size() && i < grid.words.size(); ++i)
        differing += gpuGrid[i] != grid.words[i] ? 1 : 0;
    check.text +=
        util::format("local exposure grid ({}x{} tiles x {} bins, {}) vs CPU reference: {}\n", grid.tilesX, grid.tilesY,
                     hd::kLocalExposureBins, gpu.lastFused() ? "built in the histogram pass" : "its own pass",
                     gridOk ? "exact" : util::format("DIFFERENT ({} words)", differing));

    const ref::LocalExposureBlur blur =
        ref::localExposureBlur(grid, size.x, settings.kernelSizePercent, logMin, logMax);
    const std::vector<float> gpuBlur = gpu.readBlur();
    double worst = std::abs(double(gpuBlur[hd::kLocalExposureFrameMean]) - blur.frameMean);
    for (std::size_t t = 0; t < blur.blurred.size(); ++t)
        worst = std::max(worst, std::abs(double(gpuBlur[hd::kLocalExposureBlurHeaderWords + t]) - blur.blurred[t]));
    const bool blurOk = worst <= kLocalExposureBlurToleranceEv && !std::isnan(worst);
    check.text += util::format(
        "local exposure blur ({}% kernel) and frame mean vs CPU reference: max difference "
        "{} EV{}\n",
        settings.kernelSizePercent, worst, blurOk ? "" : util::format(" (ABOVE {})", kLocalExposureBlurToleranceEv));

    const ref::LocalExposureMid mid{pipeline.toneOperator().traits().curveCarriesExposure, double(curveScale)};
    check.ev = ref::localExposureEv(hdr.data(), size.x, size.y, grid, blur, settings, mid, logMin, logMax, weights);
    const post::ViewMode mode = pipeline.viewMode();
    if (pipeline.lastRun().localExposureView) {
        const std::uint32_t view = mode == post::ViewMode::LocalBase      ? hd::kLocalExposureViewBase
                                   : mode == post::ViewMode::LocalBlurred ? hd::kLocalExposureViewBlurred
                                   : mode == post::ViewMode::LocalDetail  ? hd::kLocalExposureViewDetail
                                                                          : hd::kLocalExposureViewExposure;
        check.view = ref::localExposureView(hdr.data(), size.x, size.y, grid, blur, settings, mid, logMin, logMax, view,
                                            weights);
    }
    check.ok = gridOk && blurOk;
    return check;
}

}  // namespace verify
