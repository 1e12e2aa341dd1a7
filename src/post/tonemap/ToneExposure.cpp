#include "post/tonemap/ToneExposure.h"

#include "gl/Debug.h"
#include "post/tonemap/ToneCommon.h"
#include "post/tonemap/ToneShaders.h"

#include <imgui.h>

#include <cmath>

namespace post {

std::string_view ToneExposure::description() const
{
    return "Fixed exposure in EV followed by a display curve; ignores the histogram (the non-adaptive reference).";
}

void ToneExposure::computeCurve(PassContext& ctx, const ToneInputs& inputs, gl::Buffer& curve)
{
    if (!mProgram)
        mProgram = buildExposureCurveProgram(ctx.shaders, "tonemap.exposure.curve");
    const float logMin = kExposureCurveLowEv - mSettings.exposureEv;
    const float logMax = kExposureCurveHighEv - mSettings.exposureEv;
    dispatchExposureCurve(mProgram, inputs.params, curve, nullptr, mSettings.display, kExposureCurveSamples,
                          mSettings.exposureEv, logMin, logMax);
    if (mKeyValues.size() >= StateReadback::kMaxArrived)  // nobody takes them: keep the newest
        mKeyValues.erase(mKeyValues.begin());
    mKeyValues.push_back({ctx.frameIndex, mSettings.exposureEv});
}

bool ToneExposure::ui()
{
    bool changed = ImGui::SliderFloat("Exposure (EV)", &mSettings.exposureEv, -16.0f, 16.0f, "%+.2f");
    helpMarker("Scene luminance is multiplied by 2^EV before the display curve.");
    changed |= displayCurveUi(mSettings.display);
    if (changed)
        mSettings = sanitize(mSettings);
    return changed;
}

std::string ToneExposure::status() const
{
    return "exposure " + formatEv(mSettings.exposureEv) + " EV, " + std::string(toString(mSettings.display.curve));
}

ParameterList ToneExposure::parameters()
{
    const ExposureSettings d;
    ParameterList list;
    list.items.push_back(
        floatParameter("exposure.exposure_ev", "Exposure (EV)", mSettings.exposureEv, -64.0f, 64.0f, d.exposureEv));
    appendDisplayCurveParameters(list.items, "exposure", mSettings.display);
    list.commit = [this] { mSettings = sanitize(mSettings); };  // as ui() does after a change
    return list;
}

}  // namespace post
