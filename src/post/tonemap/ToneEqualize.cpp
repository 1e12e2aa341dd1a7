#include "post/tonemap/ToneEqualize.h"

#include "gl/Debug.h"
#include "post/histogram/HistogramMethod.h"
#include "post/scan/ScanMethod.h"
#include "post/tonemap/ToneCommon.h"

#include <imgui.h>

#include <algorithm>
#include <cstring>
#include <string>

namespace post {

std::string_view ToneEqualize::description() const
{
    return "Histogram equalization of log luminance (or of R, G, B): the normalised CDF in the cdf_min form "
           "(Bugetti, eq. 1) is the tone curve.";
}

void ToneEqualize::buildChannelCdfs(PassContext& ctx, const ToneInputs& inputs)
{
    const glm::ivec2 size = inputs.histogramImage.size;
    if (!mSplitProgram)
        mSplitProgram = ctx.shaders.buildCompute("tonemap.equalize.split", "tonemap/ChannelSplit.comp");
    if (mChannelImage.size() != size)
        mChannelImage = gl::Texture("tonemap.equalize.channel", GL_RGBA32F, size);
    if (!mChannelHistograms[0]) {
        for (int c = 0; c < 3; ++c) {
            const std::string suffix = std::to_string(c);
            mChannelHistograms[std::size_t(c)] =
                gl::Buffer("tonemap.equalize.histogram" + suffix, hd::kHistogramBufferWords * sizeof(std::uint32_t));
            mChannelCdfs[std::size_t(c)] =
                gl::Buffer("tonemap.equalize.cdf" + suffix, hd::kMaxHistogramBins * sizeof(std::uint32_t));
        }
    }
    const bool methodCumulates = inputs.histogramMethod.producesCumulative();
    for (int c = 0; c < 3; ++c) {
        gl::DebugGroup group("tonemap/equalize/channel" + std::to_string(c));
        inputs.histogramImage.texture.bindUnit(hd::kTextureUnitInput);
        mChannelImage.bindImage(hd::kImageUnitOutput, GL_WRITE_ONLY);
        glProgramUniform2i(mSplitProgram.id(), 0, size.x, size.y);
        mSplitProgram.set(1, unsigned(c));
        mSplitProgram.use();
        glDispatchCompute((unsigned(size.x) + 15u) / 16u, (unsigned(size.y) + 15u) / 16u, 1);
        glMemoryBarrier(GL_ALL_BARRIER_BITS);

        gl::Buffer& histogram = mChannelHistograms[std::size_t(c)];
        gl::Buffer& cdf = mChannelCdfs[std::size_t(c)];
        HistogramTargets targets{histogram, inputs.params, methodCumulates ? &cdf : nullptr};
        inputs.histogramMethod.build(ctx, ImageInput{mChannelImage, size}, inputs.spec, targets);
        glMemoryBarrier(GL_ALL_BARRIER_BITS);
        if (!methodCumulates && inputs.scanMethod != nullptr)
            inputs.scanMethod->inclusiveScan(ctx, histogram, cdf, inputs.spec.binCount);
        glMemoryBarrier(GL_ALL_BARRIER_BITS);
    }
}

Traffic ToneEqualize::curveMinimumTraffic(const TrafficShape& shape) const
{
    if (!mSettings.perChannel)
        return ToneOperator::curveMinimumTraffic(shape);  // the luminance CDF in, the curve out
    // Per channel: R, G and B histograms of the histogram image (one read can build all three), then
    // three CDFs and three curves.
    return Traffic{pixelCount(shape.histogramImage) * shape.frameBytesPerPixel, 0} +
           3 * ToneOperator::curveMinimumTraffic(shape);
}

void ToneEqualize::computeCurve(PassContext& ctx, const ToneInputs& inputs, gl::Buffer& curve)
{
    if (!mCurveProgram)
        mCurveProgram = ctx.shaders.buildCompute("tonemap.equalize.curve", "tonemap/Equalize.comp",
                                                 {{"DEGENERATE_VALUE", std::to_string(kEqualizeDegenerateValue)}});
    mProblem.clear();
    bool perChannel = mSettings.perChannel;
    if (perChannel && !inputs.histogramMethod.producesCumulative() && inputs.scanMethod == nullptr) {
        mProblem = "per-channel needs a scan method; using luminance";
        perChannel = false;
    }
    if (perChannel && (inputs.histogramImage.size.x <= 0 || inputs.histogramImage.size.y <= 0))
        perChannel = false;
    if (perChannel)
        buildChannelCdfs(ctx, inputs);
    const gl::Buffer& luminanceCdf = inputs.fusedCdf ? *inputs.fusedCdf : inputs.cdf;
    if (inputs.curveBuiltInHistogram) {  // the histogram pass's last workgroup scanned and built it
        if (inputs.fusedCdfWritten)
            *inputs.fusedCdfWritten = true;
    } else if (inputs.fusedCdf && !perChannel) {  // scan in-curve: scan and curve in one dispatch
        if (!mFusedProgram)
            mFusedProgram = ctx.shaders.buildCompute("tonemap.equalize.fused", "tonemap/EqualizeFused.comp",
                                                     {{"DEGENERATE_VALUE", std::to_string(kEqualizeDegenerateValue)}});
        gl::DebugGroup group("tonemap/equalize/fused");
        inputs.params.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingHistogramParams);
        inputs.histogram.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingHistogram);
        inputs.fusedCdf->bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingCdf);
        curve.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingCurve);
        mFusedProgram.set(1, mSettings.encodedOutput ? 1u : 0u);
        mFusedProgram.use();
        glDispatchCompute(1, 1, 1);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
        if (inputs.fusedCdfWritten)
            *inputs.fusedCdfWritten = true;
    } else {
        if (inputs.fusedCdf && inputs.scanMethod) {  // per channel: the luminance CDF for the median readback
            inputs.scanMethod->inclusiveScan(ctx, inputs.histogram, *inputs.fusedCdf, inputs.spec.binCount);
            if (inputs.fusedCdfWritten)
                *inputs.fusedCdfWritten = true;
        }
        drawEqualizeCurve(inputs, curve, perChannel);
    }

    constexpr std::size_t kParamsBytes = hd::kHistogramParamsWords * sizeof(std::uint32_t);
    const std::size_t cdfBytes = std::size_t(inputs.spec.binCount) * sizeof(std::uint32_t);
    if (!mReadback)
        mReadback = std::make_unique<StateReadback>("tonemap.equalize.median",
                                                    kParamsBytes + hd::kMaxHistogramBins * sizeof(std::uint32_t));
    mReadback->request(
        {StateReadback::Part{inputs.params, 0, kParamsBytes}, StateReadback::Part{luminanceCdf, 0, cdfBytes}},
        ctx.frameIndex);
}

bool ToneEqualize::offerCurveToHistogram(PassContext& /*ctx*/,
                                         const ToneInputs& inputs,
                                         gl::Buffer& curve,
                                         CurveTarget& target)
{
    if (!inputs.fusedCdf || mSettings.perChannel)
        return false;  // per channel needs the R, G and B histograms first
    target.kernel = 2;
    target.defines = {{"DEGENERATE_VALUE", std::to_string(kEqualizeDegenerateValue)}};
    target.curve = &curve;
    target.cdf = inputs.fusedCdf;
    target.state = nullptr;
    const unsigned encoded = mSettings.encodedOutput ? 1u : 0u;
    target.setUniforms = [encoded](const gl::Program& program, int base) { program.set(base + 1, encoded); };
    return true;
}

void ToneEqualize::drawEqualizeCurve(const ToneInputs& inputs, gl::Buffer& curve, bool perChannel)
{
    gl::DebugGroup group("tonemap/equalize/curve");
    inputs.params.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingHistogramParams);
    for (int c = 0; c < 3; ++c) {
        const gl::Buffer& cdf = perChannel ? mChannelCdfs[std::size_t(c)] : inputs.cdf;
        cdf.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingScratch0 + unsigned(c));
    }
    curve.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingCurve);
    mCurveProgram.set(0, perChannel ? 3u : 1u);
    mCurveProgram.set(1, mSettings.encodedOutput ? 1u : 0u);
    mCurveProgram.use();
    glDispatchCompute((hd::kMaxHistogramBins + 255u) / 256u, 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
}

std::optional<float> cdfMedianLog2(std::span<const std::uint32_t> inclusiveCdf, float logMin, float logMax)
{
    if (inclusiveCdf.empty() || inclusiveCdf.back() == 0u || !(logMax > logMin))
        return std::nullopt;
    const double half = 0.5 * double(inclusiveCdf.back());
    const auto bin = std::size_t(std::lower_bound(inclusiveCdf.begin(), inclusiveCdf.end(), half,
                                                  [](std::uint32_t c, double value) { return double(c) < value; }) -
                                 inclusiveCdf.begin());
    const double before = bin > 0 ? double(inclusiveCdf[bin - 1]) : 0.0;
    const double inBin = double(inclusiveCdf[bin]) - before;
    const double fraction = inBin > 0.0 ? (half - before) / inBin : 0.0;
    const double binWidth = (double(logMax) - double(logMin)) / double(inclusiveCdf.size());
    return float(double(logMin) + (double(bin) + fraction) * binWidth);
}

std::vector<KeyValueSample> ToneEqualize::takeKeyValues()
{
    std::vector<KeyValueSample> out;
    if (!mReadback)
        return out;
    for (const StateReadback::Arrival& arrival : mReadback->takeArrived()) {
        std::array<std::uint32_t, hd::kHistogramParamsWords> params{};
        std::memcpy(params.data(), arrival.words.data(), sizeof(params));
        float logMin = 0.0f;
        float logMax = 0.0f;
        std::memcpy(&logMin, &params[hd::kParamLogMin], sizeof(float));
        std::memcpy(&logMax, &params[hd::kParamLogMax], sizeof(float));
        const std::uint32_t bins = std::min(params[hd::kParamBinCount], hd::kMaxHistogramBins);
        std::vector<std::uint32_t> cdf(bins);
        std::memcpy(cdf.data(), arrival.words.data() + hd::kHistogramParamsWords, bins * sizeof(std::uint32_t));
        if (const std::optional<float> median = cdfMedianLog2(cdf, logMin, logMax))
            out.push_back({arrival.frameIndex, *median});
    }
    return out;
}

bool ToneEqualize::ui()
{
    bool changed = ImGui::Checkbox("Per channel (R, G, B)", &mSettings.perChannel);
    helpMarker(
        "Equalize R, G and B separately (three histograms built with the selected method, Scheuermann & "
        "Hensley Figure 2 C); colours shift. Off: equalize luminance and keep chromaticity.");
    changed |= ImGui::Checkbox("Equalize encoded levels", &mSettings.encodedOutput);
    helpMarker(
        "Treat the equalized value as an sRGB-encoded display level (uniform perceived levels) instead of "
        "linear display luminance.");
    return changed;
}

std::string ToneEqualize::status() const
{
    std::string text = mSettings.perChannel ? "equalize: per channel R, G, B" : "equalize: luminance";
    if (mSettings.encodedOutput)
        text += ", encoded levels";
    if (!mProblem.empty())
        text += " (" + mProblem + ")";
    return text;
}

ParameterList ToneEqualize::parameters()
{
    const EqualizeSettings d;
    ParameterList list;
    list.items = {
        boolParameter("equalize.per_channel", "Per channel (R, G, B)", mSettings.perChannel, d.perChannel),
        boolParameter("equalize.encoded_output", "Equalize encoded levels", mSettings.encodedOutput, d.encodedOutput),
    };
    return list;
}

bool ToneEqualize::describeForReference(const ToneVerifyFrame& frame, ref::ToneCheckInputs& check) const
{
    check.curve.settings = mSettings;
    check.curve.rgba = frame.histogramImage.data();  // per-channel histograms come from the histogram image
    check.curve.width = frame.histogramSize.x;
    check.curve.height = frame.histogramSize.y;
    return true;
}

}  // namespace post
