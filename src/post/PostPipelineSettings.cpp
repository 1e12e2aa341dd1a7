#include "post/PostPipeline.h"

#include "post/PostPipelineImpl.h"
#include "profiling/Profiler.h"
#include "util/Log.h"

#include <algorithm>
#include <cmath>

namespace post {

namespace {

bool isFiniteRange(float logMin, float logMax)
{
    return std::isfinite(logMin) && std::isfinite(logMax) && logMin < logMax;
}

}  // namespace

void PostPipeline::Impl::updateUnits()
{
    LuminanceUnits next = resolveLuminanceUnits(settings.inputUnits, settings.cdPerUnit, inputRadiance);
    if (next == units)
        return;
    units = std::move(next);
    resetRange = true;
}

std::uint32_t PostPipeline::Impl::effectiveBins(const HistogramMethod& method,
                                                const ScanMethod* scanMethod,
                                                std::uint32_t wanted,
                                                std::string& why) const
{
    std::uint32_t limit = std::min(method.maxBins(caps), hd::kMaxHistogramBins);
    std::string limiter(method.id());
    if (scanMethod && !method.producesCumulative() && scanMethod->maxLength() < limit) {
        limit = scanMethod->maxLength();
        limiter = std::string(scanMethod->id());
    }
    limit = std::max(limit, 1u);
    std::uint32_t bins = std::clamp(wanted, 1u, limit);
    if (bins != wanted)
        why = util::format("{} supports {} bins; using {}", limiter, limit, bins);
    return bins;
}

void PostPipeline::setFusedHistogramProducer(bool available)
{
    Impl& p = *mImpl;
    p.fusedProducer = available;
    if (available || !p.histogram->needsFusedProducer())
        return;
    const std::string fused(p.histogram->id());
    PipelineSettings wanted = p.settings;
    wanted.histogramMethod = PipelineSettings{}.histogramMethod;
    applySettings(wanted);
    p.notice = fused + " " + std::string(kNeedsFusedProducer) + "; using " + p.settings.histogramMethod;
    util::logWarning("{}", p.notice);
}

bool PostPipeline::hasFusedHistogramProducer() const
{
    return mImpl->fusedProducer;
}

Availability PostPipeline::histogramAvailability(const HistogramMethod& method) const
{
    Availability availability = method.availability(mImpl->caps);
    if (availability.available && method.needsFusedProducer() && !mImpl->fusedProducer)
        return Availability::no(std::string(kNeedsFusedProducer));
    return availability;
}

bool PostPipeline::applySettings(const PipelineSettings& wanted, std::string* message)
{
    Impl& p = *mImpl;
    std::vector<std::string> refusals;
    PipelineSettings next = p.settings;
    std::unique_ptr<HistogramMethod> newHistogram;
    std::unique_ptr<ScanMethod> newScan;
    std::unique_ptr<ToneOperator> newTone;

    if (wanted.histogramMethod != p.settings.histogramMethod) {
        newHistogram = createHistogramMethod(wanted.histogramMethod);
        if (!newHistogram) {
            refusals.push_back("unknown histogram method '" + wanted.histogramMethod + "'");
        } else if (Availability a = histogramAvailability(*newHistogram); !a.available) {
            refusals.push_back("histogram method '" + wanted.histogramMethod + "' is unavailable: " + a.reason);
            newHistogram.reset();
        } else {
            next.histogramMethod = wanted.histogramMethod;
        }
    }
    if (wanted.scanMethod != p.settings.scanMethod) {
        newScan = createScanMethod(wanted.scanMethod);
        if (!newScan) {
            refusals.push_back("unknown scan method '" + wanted.scanMethod + "'");
        } else if (Availability a = newScan->availability(p.caps); !a.available) {
            refusals.push_back("scan method '" + wanted.scanMethod + "' is unavailable: " + a.reason);
            newScan.reset();
        } else {
            next.scanMethod = wanted.scanMethod;
        }
    }
    if (wanted.toneOperator != p.settings.toneOperator) {
        newTone = createToneOperator(wanted.toneOperator);
        if (!newTone)
            refusals.push_back("unknown tone operator '" + wanted.toneOperator + "'");
        else
            next.toneOperator = wanted.toneOperator;
    }
    if (wanted.spec.outOfRange == OutOfRange::Clamp || wanted.spec.outOfRange == OutOfRange::Separate)
        next.spec.outOfRange = wanted.spec.outOfRange;
    else
        refusals.push_back("unknown out-of-range policy");
    if (wanted.rangeMode == RangeMode::Manual || wanted.rangeMode == RangeMode::Auto)
        next.rangeMode = wanted.rangeMode;
    if (isFiniteRange(wanted.logMin, wanted.logMax)) {
        next.logMin = wanted.logMin;
        next.logMax = wanted.logMax;
    } else {
        refusals.push_back(util::format("invalid range {}:{} (needs finite MIN < MAX)", wanted.logMin, wanted.logMax));
    }
    if (std::isfinite(wanted.autoRangeSpeed) && wanted.autoRangeSpeed >= 0.0f)
        next.autoRangeSpeed = wanted.autoRangeSpeed;
    else
        refusals.push_back(
            util::format("invalid auto-range speed {} (needs a finite value >= 0)", wanted.autoRangeSpeed));
    if (Downsample::isValidFactor(wanted.downsample))
        next.downsample = wanted.downsample;
    else
        refusals.push_back(util::format("invalid downsample factor {} (1, 2, 4 or 8)", wanted.downsample));
    if (wanted.inputUnits == UnitsMode::Auto || wanted.inputUnits == UnitsMode::Radiance ||
        wanted.inputUnits == UnitsMode::Plain)
        next.inputUnits = wanted.inputUnits;
    else
        refusals.push_back("unknown input units");
    if (std::isfinite(wanted.cdPerUnit) && wanted.cdPerUnit >= 0.0)
        next.cdPerUnit = wanted.cdPerUnit;
    else
        refusals.push_back(util::format(
            "invalid cd/m^2 per unit {} (needs a finite value >= 0; 0: by the input's rule)", wanted.cdPerUnit));
    if (wanted.viewLocalMean && !p.caps.cudaAvailable)
        refusals.push_back("the local-mean view needs the CUDA summed-area table: " + p.caps.cudaReason);
    else
        next.viewLocalMean = wanted.viewLocalMean;
    if (wanted.antiAliasing == AntiAliasing::Off || wanted.antiAliasing == AntiAliasing::Fxaa)
        next.antiAliasing = wanted.antiAliasing;
    else
        refusals.push_back("unknown anti-aliasing mode");
    if (wanted.display.target == DisplayTarget::Sdr || wanted.display.target == DisplayTarget::Hdr10)
        next.display.target = wanted.display.target;
    else
        refusals.push_back("unknown display target");
    if (wanted.display.peak >= kMinDisplayPeak && wanted.display.peak <= kMaxDisplayPeak)
        next.display.peak = wanted.display.peak;
    else
        refusals.push_back(util::format("display peak {} cd/m^2 is outside {}..{}", wanted.display.peak,
                                        kMinDisplayPeak, kMaxDisplayPeak));
    next.localExposure = sanitize(wanted.localExposure);  // bilateral or fusion (post/localexposure/)
    next.onePass = wanted.onePass;                        // a frame the histogram method cannot apply runs two passes
    next.curveInHistogram = wanted.curveInHistogram;      // where the method or operator cannot, the curve's dispatch

    const HistogramMethod& histogramAfter = newHistogram ? *newHistogram : *p.histogram;
    const ScanMethod& scanAfter = newScan ? *newScan : *p.scan;
    std::string clampNotice;
    next.spec.binCount = p.effectiveBins(histogramAfter, &scanAfter, wanted.spec.binCount, clampNotice);
    if (histogramAfter.needsFusedProducer() && next.downsample > 1) {
        next.downsample = 1;
        clampNotice += std::string(clampNotice.empty() ? "" : "; ") + std::string(histogramAfter.id()) +
                       " bins the full frame as it is lit: downsample 1";
    }

    const bool changed = newHistogram || newScan || newTone || next.spec.binCount != p.settings.spec.binCount ||
                         next.spec.outOfRange != p.settings.spec.outOfRange || next.rangeMode != p.settings.rangeMode ||
                         next.logMin != p.settings.logMin || next.logMax != p.settings.logMax ||
                         next.autoRangeSpeed != p.settings.autoRangeSpeed || next.downsample != p.settings.downsample ||
                         next.viewLocalMean != p.settings.viewLocalMean || next.inputUnits != p.settings.inputUnits ||
                         next.cdPerUnit != p.settings.cdPerUnit || next.antiAliasing != p.settings.antiAliasing ||
                         next.display != p.settings.display || next.localExposure != p.settings.localExposure;
    if (next.rangeMode != p.settings.rangeMode || next.downsample != p.settings.downsample ||
        (newHistogram && (newHistogram->needsFusedProducer() || p.histogram->needsFusedProducer())))
        p.resetRange = true;  // (the fused method's auto range has its own state)
    // A replaced method's settings are kept and come back when it is chosen again.
    if (newHistogram)
        p.histogram = p.parked.swapIn(p.histogram, std::move(newHistogram));
    if (newScan)
        p.scan = p.parked.swapIn(p.scan, std::move(newScan));
    if (newTone)
        p.tone = p.parked.swapIn(p.tone, std::move(newTone));
    p.curveReady = false;  // the one-pass mode applies only a curve of this operator
    p.settings = next;
    p.updateUnits();

    std::string text;
    for (const std::string& refusal : refusals)
        text += (text.empty() ? "" : "; ") + refusal;
    if (!clampNotice.empty())
        text += (text.empty() ? "" : "; ") + clampNotice;
    if (!text.empty() || changed)
        p.notice = text;
    if (message)
        *message = text;
    if (changed)
        p.profiler.resetStats();
    return changed;
}

}  // namespace post
