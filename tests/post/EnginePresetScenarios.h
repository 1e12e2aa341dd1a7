// EnginePresetScenarios.h: the scripted luminance step the engine-preset tests run: 60 frames of a
// uniform frame at about 1 cd/m^2, 180 at about 64 cd/m^2, 420 back at about 1 cd/m^2 (long enough
// for both directions to pass the linear part and spend seconds in the exponential one), with fixed
// (1/60 s), variable, or partly zero frame times. Each frame is the histogram of a uniform frame in
// the preset's bins and the log2 luminance an engine meters for it (engine_model::Frame). The
// luminance is moved to where hdrlab's band mean of a one-bin frame lands (bin i + the mean of the
// band fractions), so hdrlab meters exactly what the engine model is given; beyond the range the
// frame clamps into the end bin and the model gets the true value (the engines clamp it too).
#pragma once

#include "post/EngineExposureModels.h"
#include "post/tonemap/EnginePresets.h"

#include <cmath>
#include <cstdint>
#include <vector>

namespace preset_scenario {

enum class Timing { Fixed60, Variable, WithZeroDt };

inline constexpr std::size_t kStepDown = 240;  ///< first frame back at 1 cd/m^2
inline constexpr std::size_t kFrames = 660;

struct ScenarioFrame
{
    std::vector<std::uint32_t> bins;
    engine_model::Frame model;
};

inline ScenarioFrame uniformFrame(const post::EnginePreset& preset, double wantedLog2, double dt)
{
    const post::EngineHistogram& h = preset.histogram;
    const double width = (double(h.logMax) - double(h.logMin)) / double(h.bins);
    const double bandMiddle = (double(preset.settings.bandLow) + double(preset.settings.bandHigh)) / 200.0;
    ScenarioFrame frame;
    frame.bins.assign(h.bins, 0u);
    frame.model.dtSeconds = dt;
    std::uint32_t bin = 0;
    if (wantedLog2 < h.logMin) {
        frame.model.meteredLog2 = wantedLog2;
    } else if (wantedLog2 >= h.logMax) {
        bin = h.bins - 1u;
        frame.model.meteredLog2 = wantedLog2;
    } else {
        bin = std::uint32_t(std::floor((wantedLog2 - h.logMin) / width));
        frame.model.meteredLog2 = h.logMin + (bin + bandMiddle) * width;
    }
    frame.bins[bin] = 4096u;
    return frame;
}

inline double frameTime(Timing timing, std::size_t frame)
{
    if (timing == Timing::Variable) {
        const double dts[] = {1.0 / 30, 1.0 / 144, 0.1, 1.0 / 60, 0.25, 1.0 / 90, 0.05};
        return dts[frame % 7];
    }
    if (timing == Timing::WithZeroDt && ((frame >= 61 && frame < 76) || frame % 7 == 3))
        return 0.0;  // a paused stretch right after the step, and single zero frames throughout
    return 1.0 / 60.0;
}

inline std::vector<ScenarioFrame> luminanceStep(const post::EnginePreset& preset, Timing timing)
{
    std::vector<ScenarioFrame> frames;
    for (std::size_t i = 0; i < kFrames; ++i) {
        const double wanted = i < 60 ? 0.0 : i < kStepDown ? 6.0 : 0.0;  // log2 of 1 and 64 cd/m^2
        frames.push_back(uniformFrame(preset, wanted, frameTime(timing, i)));
    }
    return frames;
}

inline engine_model::Engine engineOf(const post::EnginePreset& preset)
{
    if (preset.id == "unreal")
        return engine_model::Engine::Unreal;
    if (preset.id == "unity-hdrp")
        return engine_model::Engine::Hdrp;
    return engine_model::Engine::Bevy;
}

inline std::vector<engine_model::Frame> modelFrames(const std::vector<ScenarioFrame>& frames)
{
    std::vector<engine_model::Frame> out;
    for (const ScenarioFrame& frame : frames)
        out.push_back(frame.model);
    return out;
}

}  // namespace preset_scenario
