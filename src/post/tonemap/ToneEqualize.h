// ToneEqualize.h: "equalize", histogram equalization of log luminance.
//
// Technique: Gonzalez & Woods' equalization as the numerical integral of the histogram (Scheuermann &
// Hensley 2007, section 3.1), in the cdf_min form of Bugetti's equation (1), without rounding:
// T[v] = (cdf(v) - cdf_min) / (N - cdf_min), one curve sample per bin centre over the histogram
// range. The value is display luminance (default) or, as an option, an sRGB-encoded level (the curve
// is then its sRGB EOTF: equalizes perceived rather than linear display levels). One occupied bin
// (a uniform image, N == cdf_min) or an empty histogram gives 0.5 everywhere, the value
// equalization gives the median. Per-channel mode (S&H Figure 2 C): three histograms of R, G and B
// built with the selected histogram method on grey images carrying one channel (L(c, c, c) = c times
// cd/m^2 per unit since the weights sum to about that; the apply pass looks c up at
// c times cd/m^2 per unit), integrated by the selected scan method, and a
// 3-channel curve (the apply pass maps each channel through its own LUT: colours shift, by design).
// Limits: bins below the first occupied one map to 0, above the last to 1 (contrast stretch).
#pragma once

#include "post/tonemap/ToneCommon.h"
#include "post/tonemap/ToneOperator.h"
#include "tone/ToneSettings.h"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>

namespace post {

/// log2 luminance of the median of a histogram given by its inclusive CDF over [logMin, logMax]: the
/// first bin whose CDF reaches half the total, linearly interpolated inside it (the bin's uniform
/// density model); nullopt for an empty histogram.
std::optional<float> cdfMedianLog2(std::span<const std::uint32_t> inclusiveCdf, float logMin, float logMax);

class ToneEqualize final : public ToneOperator, public ToneState, public ToneVerification
{
public:
    static constexpr std::string_view kId = "equalize";

    std::string_view id() const override { return kId; }
    std::string_view label() const override { return "Histogram equalization"; }
    std::string_view description() const override;

    /// Scan in-curve (*Fused.comp); for HDR10 its display values span [0, peak].
    ToneTraits traits() const override { return {.scansInCurve = true, .hdrScaling = {.sceneReferred = false}}; }
    void computeCurve(PassContext& ctx, const ToneInputs& inputs, gl::Buffer& curve) override;
    /// Scan and luminance curve in the histogram pass's last workgroup (CURVE_KERNEL 2); not per channel.
    bool offerCurveToHistogram(PassContext& ctx,
                               const ToneInputs& inputs,
                               gl::Buffer& curve,
                               CurveTarget& target) override;
    Traffic curveMinimumTraffic(const TrafficShape& shape) const override;
    bool ui() override;
    ParameterList parameters() override;
    std::string status() const override;
    /// log2 of the luminance histogram's median (cdfMedianLog2 of a readback of the params and CDF).
    std::vector<KeyValueSample> takeKeyValues() override;
    void flushStateReadback() override
    {
        if (mReadback)
            mReadback->flush();
    }
    std::string_view keyValueName() const override { return "median"; }
    ToneState* state() override { return this; }
    const ToneVerification* verification() const override { return this; }
    /// Its settings; per-channel histograms come from the histogram image.
    bool describeForReference(const ToneVerifyFrame& frame, ref::ToneCheckInputs& check) const override;

    const EqualizeSettings& settings() const { return mSettings; }
    void setSettings(const EqualizeSettings& settings) { mSettings = settings; }

    /// Per-channel mode: the R, G, B histograms and CDFs of the last frame (tests and the view).
    const gl::Buffer& channelHistogram(int channel) const { return mChannelHistograms[std::size_t(channel)]; }
    const gl::Buffer& channelCdf(int channel) const { return mChannelCdfs[std::size_t(channel)]; }

private:
    void buildChannelCdfs(PassContext& ctx, const ToneInputs& inputs);
    void drawEqualizeCurve(const ToneInputs& inputs, gl::Buffer& curve, bool perChannel);

    EqualizeSettings mSettings;
    std::string mProblem;
    gl::Program mCurveProgram;
    gl::Program mSplitProgram;
    gl::Program mFusedProgram;  ///< scan in-curve: scan and curve in one dispatch (EqualizeFused.comp)
    gl::Texture mChannelImage;
    std::array<gl::Buffer, 3> mChannelHistograms;
    std::array<gl::Buffer, 3> mChannelCdfs;
    std::unique_ptr<StateReadback> mReadback;  ///< histogram params words, then the luminance CDF
};

}  // namespace post
