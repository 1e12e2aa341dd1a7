#include "verify/PipelineVerify.h"

#include "gl/Debug.h"
#include "image/HdrPng.h"
#include "post/histogram/HistogramMethod.h"
#include "post/scan/ScanMethod.h"
#include "post/tonemap/ToneOperator.h"
#include "reference/Histogram.h"
#include "reference/Image.h"
#include "reference/Scan.h"
#include "reference/ToneLocalRef.h"
#include "reference/ToneReference.h"
#include "util/Log.h"
#include "verify/FusionVerify.h"
#include "verify/LocalExposureVerify.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <optional>
#include <sstream>

namespace verify {

namespace {

/// Display-value tolerance of a GPU tone curve against its CPU reference (about half an 8-bit step).
constexpr double kCurveTolerance = 2e-3;
/// HDR10 output tolerance against its CPU reference, in full-range 16-bit PQ codes (2 codes: about
/// 0.1 % of the luminance at 100 cd/m^2; GPU float arithmetic against the reference's double).
constexpr int kHdrToleranceCodes = 2;

/// Largest display difference between the GPU curve and the reference curve, over the histogram's
/// range and one EV beyond; nullopt when the reference gave no curve of the GPU's layout.
std::optional<double> curveDifference(const std::vector<float>& gpuCurve,
                                      const std::vector<float>& expected,
                                      float logMin,
                                      float logMax)
{
    if (expected.size() != gpuCurve.size())
        return std::nullopt;
    const int channels = int(gpuCurve[hd::kCurveChannels]) == 3 ? 3 : 1;
    double worst = 0.0;
    for (int c = 0; c < channels; ++c)
        worst = std::max(worst, ref::curveMaxDifference(gpuCurve, expected, c, logMin - 1.0, logMax + 1.0));
    return worst;
}

int largestDifference(const std::vector<std::uint8_t>& expected, const std::vector<std::uint8_t>& actual)
{
    int worst = 0;
    for (std::size_t i = 0; i < expected.size() && i < actual.size(); ++i)
        worst = std::max(worst, std::abs(int(expected[i]) - int(actual[i])));
    return worst;
}

/// The HDR10 output: the linear BT.2020 cd/m^2 against ref::applyCurveHdr, compared as the 16-bit
/// PQ codes the files store (tolerance kHdrToleranceCodes) and as relative luminance.
struct Hdr10Inputs
{
    hd::LuminanceWeights weights;
    float cdPerUnit;
    const float* exposureEv;  ///< local exposure's per-pixel EV, or null
};

bool checkHdr10(post::PostPipeline& pipeline,
                const post::PostPipeline::LastRun& last,
                const std::vector<float>& hdrPixels,
                const std::vector<float>& curve,
                const std::vector<float>& localMean,
                const Hdr10Inputs& in,
                std::ostringstream& text)
{
    const std::vector<float> gpuNits = pipeline.hdrOutputTexture()->readRgbaFloat();
    const std::vector<float> cpuNits = ref::applyCurveHdr(hdrPixels.data(), last.hdrSize.x, last.hdrSize.y,
                                                          curve.data(), last.usedLocalMean ? localMean.data() : nullptr,
                                                          in.weights, in.cdPerUnit, last.display, in.exposureEv);
    int worstCode = 0;
    for (std::size_t i = 0; i < cpuNits.size() && i < gpuNits.size(); ++i)
        if (i % 4 != 3)
            worstCode =
                std::max(worstCode, std::abs(int(image::pqCode16(gpuNits[i])) - int(image::pqCode16(cpuNits[i]))));
    const bool ok = worstCode <= kHdrToleranceCodes;
    text << "HDR10 output (peak " << last.display.peak << " cd/m^2) vs CPU reference: max difference " << worstCode
         << " of 65535 PQ codes" << (ok ? "" : " (TOO LARGE)") << "\n";
    return ok;
}
}  // namespace

VerifyReport verifyPipeline(post::PostPipeline& pipeline)
{
    const post::PostPipeline::LastRun last = pipeline.lastRun();
    VerifyReport report;
    std::ostringstream text;
    if (!last.histogramInput || !last.hdr) {
        report.ok = false;
        report.text = "verify: the pipeline has not run yet\n";
        return report;
    }
    if (last.fedHistogram) {
        report.ok = false;
        report.text = "verify: the histogram was fed from a file; there is no measurement to check\n";
        return report;
    }
    const std::vector<float> pixels = last.histogramInput->readRgbaFloat();
    const auto params = pipeline.paramsBuffer().readAll<std::uint32_t>(hd::kHistogramParamsWords);
    const float logMin = std::bit_cast<float>(params[hd::kParamLogMin]);
    const float logMax = std::bit_cast<float>(params[hd::kParamLogMax]);
    const std::uint32_t bins = std::clamp(params[hd::kParamBinCount], 1u, hd::kMaxHistogramBins);
    const ref::OutOfRange policy =
        params[hd::kParamOutOfRange] == hd::kOutOfRangeSeparate ? ref::OutOfRange::Separate : ref::OutOfRange::Clamp;
    const hd::LuminanceWeights weights{std::bit_cast<float>(params[hd::kParamLumaR]),
                                       std::bit_cast<float>(params[hd::kParamLumaG]),
                                       std::bit_cast<float>(params[hd::kParamLumaB])};
    const float cdPerUnit = std::bit_cast<float>(params[hd::kParamCdPerUnit]);
    const glm::ivec2 size = last.histogramInputSize;

    const auto gpuWords = pipeline.histogramBuffer().readAll<std::uint32_t>(hd::kHistogramBufferWords);
    const std::vector<std::uint32_t> gpuBins(gpuWords.begin(), gpuWords.begin() + bins);
    const ref::Histogram cpu =
        ref::buildHistogram(pixels.data(), size.x, size.y, logMin, logMax, bins, policy, weights);
    std::array<std::uint32_t, hd::kCounterCount> gpuCounters{};
    const bool counters = pipeline.histogramMethod().fillsCounters();
    for (std::size_t i = 0; i < hd::kCounterCount; ++i)
        gpuCounters[i] = counters ? gpuWords[hd::kHistogramCountersOffset + i] : std::uint32_t(cpu.counters[i]);
    const auto nearEdges = ref::countNearEdges(pixels.data(), size.x, size.y, logMin, logMax, bins,
                                               ref::gpuBinTolerance(logMin, logMax, bins), weights);
    const ref::HistogramComparison cmp = ref::compareHistograms(gpuBins, gpuCounters.data(), cpu, nearEdges);

    report.gpuTotal = cmp.gpuTotal;
    report.cpuTotal = cmp.cpuTotal;
    report.maxBinDifference = cmp.maxBinDifference;
    report.l1Difference = cmp.l1Difference;
    text << "histogram " << pipeline.histogramMethod().id() << ": " << size.x << "x" << size.y << " input, " << bins
         << " bins over log2 L [" << logMin << ", " << logMax << "]\n";
    text << "units: " << pipeline.luminanceUnits().describe() << "\n";
    if (pipeline.frameUnits().preExposure != 0)
        text << "frame pre-exposed by 2^" << pipeline.frameUnits().preExposure << ": the weights include 2^"
             << -pipeline.frameUnits().preExposure << "\n";
    text << "totals: gpu " << cmp.gpuTotal << ", cpu " << cmp.cpuTotal
         << (cmp.gpuTotal == cmp.cpuTotal ? " (equal)" : " (DIFFERENT)") << "\n";
    text << "counters (NaN, Inf, <=0, below, above): cpu " << cpu.counters[hd::kCounterNaN] << ", "
         << cpu.counters[hd::kCounterInf] << ", " << cpu.counters[hd::kCounterNonPositive] << ", "
         << cpu.counters[hd::kCounterBelow] << ", " << cpu.counters[hd::kCounterAbove]
         << (counters ? (cmp.countersEqual ? " (gpu equal)" : " (gpu DIFFERENT)") : " (method fills no counters)")
         << "\n";
    text << "max per-bin difference " << cmp.maxBinDifference << ", L1 " << cmp.l1Difference << "\n";
    const bool exactBinning = pipeline.histogramMethod().exactBinning();
    const bool binsOk = exactBinning ? cmp.l1Difference == 0 : cmp.onlyNeighbourMoves;
    if (exactBinning)
        text << "bins: " << (cmp.l1Difference == 0 ? "exact" : "DIFFERENT (the method bins exactly by design)") << "\n";
    else
        text << "bins (an option trades exactness for speed): differences only between neighbouring bins: "
             << (cmp.onlyNeighbourMoves ? "yes" : util::format("NO (first at edge {})", cmp.firstUnexplainedEdge))
             << "\n";

    if (!last.cdfFresh) {  // scan in-curve with an operator that needed no CDF: scan now, to check the scan
        pipeline.scanHistogramNow();
        glFinish();
        text << "(the operator used no CDF this frame; scanned now with '" << pipeline.scanMethod()->id()
             << "' stand-alone)\n";
    }
    const auto gpuCdf = pipeline.cdfBuffer().readAll<std::uint32_t>(bins);
    const auto cpuCdf = ref::inclusiveScan(gpuBins);
    const bool cdfOk = gpuCdf == cpuCdf;
    text << "CDF ("
         << (pipeline.histogramMethod().producesCumulative() ? "built in"
             : pipeline.lastCurveInHistogram()
                 ? std::string(pipeline.scanMethod()->id()) + ", in the histogram pass's last workgroup"
                 : std::string(pipeline.scanMethod()->id()))
         << ") vs CPU scan of the GPU histogram: " << (cdfOk ? "exact" : "DIFFERENT") << "\n";

    // The apply pass against ref::applyCurve, both through the GPU's curve: the one the picture was
    // made with (in a one-pass frame the previous frame's, applied by the histogram pass).
    const bool onePass = pipeline.lastFrameOnePass();
    const auto appliedCurve = pipeline.appliedCurveBuffer().readAll<float>(hd::kCurveBufferWords);
    const auto curve = pipeline.curveBuffer().readAll<float>(hd::kCurveBufferWords);
    const std::vector<float> hdrPixels = last.hdr->readRgbaFloat();
    // With local adaptation the reference uses the same local mean map (checked against its CPU
    // reference by the CUDA tests); the local-mean view is not a tone mapping and is compared as such.
    std::vector<float> localMean;
    if (last.usedLocalMean)
        localMean =
            pipeline.localMeanBuffer().readAll<float>(std::size_t(last.hdrSize.x) * std::size_t(last.hdrSize.y));
    // A local histogram operator: its four tile curves per pixel (ref::applyTileCurves) on the GPU's
    // tile curves; the local-gain view is not a tone mapping either.
    const post::LocalTileCurves* tiles = last.usedTiles ? pipeline.toneOperator().localTiles() : nullptr;
    std::vector<float> tileWords;
    if (tiles && tiles->curves)
        tileWords = tiles->curves->readAll<float>(hd::kTileCurvesHeaderWords + std::size_t(tiles->tiles.x) *
                                                                                   std::size_t(tiles->tiles.y) *
                                                                                   hd::kTileCurveStride);
    // Local exposure (bilateral): its grid and blur against the reference; the picture through the
    // reference's own per-pixel exposure (or the reference's view of a term).
    // Fusion: its exposure, its map and the map as the apply pass samples it (verify/FusionVerify).
    const bool fusion = pipeline.settings().localExposure.method == post::LocalExposureMethod::Fusion;
    const LocalExposureCheck exposure =
        !last.usedLocalExposure ? LocalExposureCheck{}
        : fusion ? checkFusionLocalExposure(pipeline, hdrPixels, last.hdrSize, params, gpuBins, curve[hd::kCurveScale])
                 : checkLocalExposure(pipeline, hdrPixels, last.hdrSize, params, appliedCurve[hd::kCurveScale]);
    text << exposure.text;
    const float* exposureEv = exposure.ev.empty() ? nullptr : exposure.ev.data();
    const std::vector<std::uint8_t> expected =
        last.localExposureView ? exposure.view
        : (pipeline.settings().viewLocalMean && last.usedLocalMean) || last.tilesView
            ? pipeline.toneMappedTexture().readRgba8()
        : !tileWords.empty() ? ref::applyTileCurves(hdrPixels.data(), last.hdrSize.x, last.hdrSize.y, tileWords.data(),
                                                    appliedCurve.data(), weights, cdPerUnit)
                             : ref::applyCurve(hdrPixels.data(), last.hdrSize.x, last.hdrSize.y, appliedCurve.data(),
                                               last.usedLocalMean ? localMean.data() : nullptr, weights, cdPerUnit,
                                               last.display, exposureEv);
    const int worst = largestDifference(expected, pipeline.toneMappedTexture().readRgba8());
    if (!tileWords.empty())
        text << util::format("tiled apply ({}x{} tile curves blended per pixel, strength {})", tiles->tiles.x,
                             tiles->tiles.y, tileWords[hd::kTileStrength])
             << (last.tilesView ? ": a view shown (local-gain or local-tiles), not compared\n" : "\n");
    text << (onePass ? "one pass: the histogram pass's picture vs CPU reference (the previous frame's curve): "
             : last.localExposureView ? "local exposure view vs CPU reference: "
             : exposureEv             ? "apply pass with local exposure vs CPU reference (same curve): "
                                      : "apply pass vs CPU reference (same curve): ")
         << "max difference " << worst << " LSB" << (worst <= 1 ? "" : " (TOO LARGE)") << "\n";
    const bool hdrOk =
        last.display.hdr && pipeline.hdrOutputTexture() && !last.localExposureView
            ? checkHdr10(pipeline, last, hdrPixels, curve, localMean, {weights, cdPerUnit, exposureEv}, text)
            : true;
    // The operator's curve against its CPU reference (reference/ToneReference.h, the row of its id),
    // from the same histogram and settings, then the reference's further checks of the operator's GPU
    // state. The operator fills in what its reference is given (post::ToneVerification).
    const post::ToneOperator& op = pipeline.toneOperator();
    const ref::ToneReference* reference = ref::findToneReference(op.id());
    const post::ToneVerification* verification = op.verification();
    ref::ToneCheckInputs check;
    check.curve.luminance = weights;
    check.curve.fovYDegrees = last.fovYDegrees;
    check.curve.dtSeconds = last.dtSeconds;
    check.curve.bins = gpuBins;
    check.curve.logMin = logMin;
    check.curve.logMax = logMax;
    check.curve.rgba = hdrPixels.data();
    check.curve.width = last.hdrSize.x;
    check.curve.height = last.hdrSize.y;
    check.gpuCurve = curve;
    check.outOfRangePolicy = params[hd::kParamOutOfRange];
    check.histogramImage = pixels.data();
    check.histogramWidth = size.x;
    check.histogramHeight = size.y;
    check.topDownRows = pipeline.topDownRows();
    const post::ToneVerifyFrame frame{hdrPixels,
                                      last.hdrSize,
                                      pixels,
                                      size,
                                      pipeline.topDownRows(),
                                      pipeline.pictureInfo(),
                                      pipeline.frameUnits(),
                                      pipeline.sceneDepth(),
                                      pipeline.histogramMethod().exactBinning()};
    const bool described =
        reference && reference->curve && verification && verification->describeForReference(frame, check);
    const std::optional<double> curveCheck =
        described ? curveDifference(curve, reference->curve(check.curve), logMin, logMax) : std::nullopt;
    bool curveOk = true;
    if (curveCheck) {
        report.curveMaxDifference = *curveCheck;
        curveOk = *curveCheck <= kCurveTolerance;
        text << "tone curve of '" << op.id() << "' vs its CPU reference (same histogram): max display difference "
             << *curveCheck << (curveOk ? "" : util::format(" (ABOVE {})", kCurveTolerance)) << "\n";
    } else {
        text << "tone curve of '" << op.id() << "': no CPU reference; compared histogram, CDF and apply pass only\n";
    }
    if (described && reference->checks)
        for (const ref::ToneCheckResult& line : reference->checks(check)) {
            curveOk = curveOk && line.ok;
            text << line.text << "\n";
        }

    report.ok = cmp.gpuTotal == cmp.cpuTotal && cmp.countersEqual && binsOk && cdfOk && worst <= 1 && hdrOk &&
                curveOk && exposure.ok;
    text << (report.ok ? "verify: OK\n" : "verify: FAILED\n");
    report.text = text.str();
    return report;
}

}  // namespace verify
