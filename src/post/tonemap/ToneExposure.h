// ToneExposure.h: "exposure", the fixed-exposure reference operator (no histogram): Ld =
// curve(Lw * 2^EV) with a selectable display curve (clamp, Reinhard 2002, Hable's Uncharted 2 filmic
// curve, Narkowicz's ACES fit). Clamp uses the curve buffer's LinearScale mode (exact for any Lw);
// the other curves a 1024-sample LUT over exposed luminance 2^-16 .. 2^12 (darker is black on any
// display, all curves are flat above; the apply pass clamps beyond the ends).
#pragma once

#include "post/tonemap/ToneOperator.h"
#include "tone/ToneSettings.h"

#include <utility>
#include <vector>

namespace post {

class ToneExposure final : public ToneOperator, public ToneState, public ToneVerification
{
public:
    static constexpr std::string_view kId = "exposure";

    std::string_view id() const override { return kId; }
    std::string_view label() const override { return "Fixed exposure"; }
    std::string_view description() const override;
    ToneTraits traits() const override
    {
        return {.usesHistogram = false,
                .usesPipelineCdf = false,
                .displayTransform = displayTransformCode(mSettings.display.curve),
                .curveCarriesExposure = true};
    }

    void computeCurve(PassContext& ctx, const ToneInputs& inputs, gl::Buffer& curve) override;
    /// No histogram read: only the curve (one float per bin) is written.
    Traffic curveMinimumTraffic(const TrafficShape& shape) const override
    {
        return {0, std::uint64_t(shape.bins) * kBinBytes};
    }
    bool ui() override;
    ParameterList parameters() override;
    std::string status() const override;
    /// The set EV of each frame computed since the last call (known on the CPU: no readback).
    std::vector<KeyValueSample> takeKeyValues() override { return std::exchange(mKeyValues, {}); }
    std::string_view keyValueName() const override { return "exposure"; }
    ToneState* state() override { return this; }
    const ToneVerification* verification() const override { return this; }
    bool describeForReference(const ToneVerifyFrame&, ref::ToneCheckInputs& check) const override
    {
        check.curve.settings = mSettings;
        return true;
    }

    const ExposureSettings& settings() const { return mSettings; }
    void setSettings(const ExposureSettings& settings) { mSettings = sanitize(settings); }

private:
    ExposureSettings mSettings;
    gl::Program mProgram;
    std::vector<KeyValueSample> mKeyValues;
};

}  // namespace post
