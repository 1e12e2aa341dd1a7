#include "verify/LocalExposureMean.h"

#include "shared/HostDevice.h"
#include "tone/LocalExposureSettings.h"
#include "verify/FusionVerify.h"
#include "verify/LocalExposureVerify.h"

#include <algorithm>
#include <numeric>

namespace verify {

std::optional<double> meanLocalExposureEv(post::PostPipeline& pipeline)
{
    const post::PostPipeline::LastRun last = pipeline.lastRun();
    if (!last.usedLocalExposure || !last.hdr || last.hdrSize.x < 1 || last.hdrSize.y < 1)
        return std::nullopt;
    const std::vector<float> hdr = last.hdr->readRgbaFloat();
    const auto params = pipeline.paramsBuffer().readAll<std::uint32_t>(hd::kHistogramParamsWords);
    const bool fusion = pipeline.settings().localExposure.method == post::LocalExposureMethod::Fusion;
    LocalExposureCheck check;
    if (fusion) {
        const std::uint32_t bins = std::clamp(params[hd::kParamBinCount], 1u, hd::kMaxHistogramBins);
        const auto words = pipeline.histogramBuffer().readAll<std::uint32_t>(hd::kHistogramBufferWords);
        const std::vector<std::uint32_t> histogram(words.begin(), words.begin() + bins);
        const auto curve = pipeline.curveBuffer().readAll<float>(hd::kCurveBufferWords);
        check = checkFusionLocalExposure(pipeline, hdr, last.hdrSize, params, histogram, curve[hd::kCurveScale]);
    } else {
        const auto applied = pipeline.appliedCurveBuffer().readAll<float>(hd::kCurveBufferWords);
        check = checkLocalExposure(pipeline, hdr, last.hdrSize, params, applied[hd::kCurveScale]);
    }
    if (check.ev.empty())
        return std::nullopt;
    return std::accumulate(check.ev.begin(), check.ev.end(), 0.0) / double(check.ev.size());
}

}  // namespace verify
