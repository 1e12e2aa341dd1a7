// EngineExposureModels.h: CPU models of three engines' histogram auto-exposure *as documented*
// (../shared/research/engines.md, sections a and b, and the source functions it names), written
// independently of hdrlab's operator and reference, to check the engine presets (EnginePresets.h):
//   Unreal (PostProcessHistogramCommon.ush ComputeEyeAdaptation, PostProcessEyeAdaptation.cpp): the
//     state is log2 of the adapted average luminance A; target = clamp(metered, log2 0.03, log2 8)
//     (Min/MaxBrightness); speed 3 when the target is brighter (SpeedUp), else 1; |diff| > 1.5: linear
//     step dt*speed that stops at the target; else diff * (1 - 2^(-dt speed)) * M with
//     M = (1/60) / ((1 - 2^(-speed/60)) * (1.5 / speed)); exposure = log2(0.18) - A.
//   Unity HDRP (PhysicalCamera.hlsl ComputeLuminanceAdaptation, ExposureCommon): the state is the
//     adapted EV100; target = clamp(metered + log2(100 / 12.5), -1, 14); speed 3 (dark to light) when
//     the target is higher, else 1; prev + delta (1 - 2^(-dt speed)); exposure = 1 / (1.2 * 2^EV100).
//   Bevy (auto_exposure.wgsl compute_average): the state is the exposure in EV; target = -metered;
//     target above: + min(speed_down dt, delta speed_down dt / 1.5); below: + max(-speed_up dt, ...).
// Metering is not modelled: a frame is given by the metered log2 luminance. Every model snaps to
// the first frame's target (hdrlab's choice; Bevy itself starts from exposure 0).
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

namespace engine_model {

enum class Engine { Unreal, Hdrp, Bevy };

struct Frame
{
    double meteredLog2 = 0.0;  ///< log2 cd/m^2 the engine meters for the frame
    double dtSeconds = 1.0 / 60.0;
};

/// hdrlab's exposure EV (log2 of the scale applied to scene luminance) after every frame.
inline std::vector<double> trajectory(Engine engine, const std::vector<Frame>& frames)
{
    std::vector<double> exposures;
    double state = 0.0;
    bool first = true;
    for (const Frame& frame : frames) {
        const double dt = frame.dtSeconds;
        if (engine == Engine::Unreal) {
            const double target = std::clamp(frame.meteredLog2, std::log2(0.03), std::log2(8.0));
            if (first) {
                state = target;
            } else {
                const double diff = target - state;
                const double speed = diff > 0.0 ? 3.0 : 1.0;
                const double startDistance = 1.5;
                const double m = (1.0 / 60.0) / ((1.0 - std::exp2(-speed / 60.0)) * (startDistance / speed));
                if (std::abs(diff) > startDistance)
                    state =
                        state < target ? std::min(target, state + dt * speed) : std::max(target, state - dt * speed);
                else
                    state = state + diff * (1.0 - std::exp2(-dt * speed)) * m;
            }
            exposures.push_back(std::log2(0.18) - state);
        } else if (engine == Engine::Hdrp) {
            const double target = std::clamp(frame.meteredLog2 + std::log2(100.0 / 12.5), -1.0, 14.0);
            if (first) {
                state = target;
            } else {
                const double delta = target - state;
                const double speed = delta > 0.0 ? 3.0 : 1.0;
                state = state + delta * (1.0 - std::exp2(-dt * speed));
            }
            exposures.push_back(std::log2(1.0 / (1.2 * std::exp2(state))));
        } else {
            const double target = -frame.meteredLog2;
            if (first) {
                state = target;
            } else {
                const double delta = target - state;
                if (target > state) {
                    const double speedDown = 1.0 * dt;
                    state = state + std::min(speedDown, delta * speedDown / 1.5);
                } else {
                    const double speedUp = 3.0 * dt;
                    state = state + std::max(-speedUp, delta * speedUp / 1.5);
                }
            }
            exposures.push_back(state);
        }
        first = false;
    }
    return exposures;
}

}  // namespace engine_model
