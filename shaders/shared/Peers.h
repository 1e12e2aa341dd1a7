// Peers.h: the constants of the engine peers of `hdrlab bench pipeline --peers`
// (commands/bench/peers/, shaders/peers/), shared by the GLSL peers and their CPU references
// (reference/PeerMeteringRef.h): each engine's default bins, ranges, percentiles and speeds as its
// published sources set them (../shared/research/engines.md section b; the peers' headers name the
// files), the state buffer's layout and the uniform locations. Laid out by hand (read by GLSL too).
#ifndef HDRLAB_PEERS_H
#define HDRLAB_PEERS_H

#include "shared/HostDeviceMacros.h"

HD_NAMESPACE_BEGIN

// The state buffer (float words, bound at kBindingOperatorState): the engine's adapted quantity, its
// EV (log2 of the factor on cd/m^2) and this frame's target EV.
HD_CONST(HD_UINT, kPeerStateEngine, 0u)
HD_CONST(HD_UINT, kPeerStateEv, 1u)
HD_CONST(HD_UINT, kPeerStateTargetEv, 2u)
HD_CONST(HD_UINT, kPeerStateWords, 4u)
// Uniform locations of the adaptation passes: snap to the target (uint 0/1) and the frame time (s).
HD_CONST(int, kPeerUniformSnap, 0)
HD_CONST(int, kPeerUniformSeconds, 1)
HD_CONST(int, kPeerUniformSize, 2)   // ivec2: the size the pass reads
HD_CONST(int, kPeerUniformGroups, 3) // uvec2 or uint: the producer's workgroups (rows to reduce)

// Bevy (settings.rs, pipeline.rs): 64 bins, bin 0 below 2^min, bins 1..63 over log2 L -8..8, filter
// 10 %..90 %, speed_brighten 3, speed_darken 1 EV/s, exponential within 1.5 EV; the default
// metering mask is white, and a mask texel weighs u32(mask * 16).
HD_CONST(HD_UINT, kBevyBins, 64u)
HD_CONST(HD_UINT, kBevyGroupSide, 16u)
HD_CONST(float, kBevyLogMin, -8.0f)
HD_CONST(float, kBevyLogMax, 8.0f)
HD_CONST(float, kBevyLowPercent, 0.10f)
HD_CONST(float, kBevyHighPercent, 0.90f)
HD_CONST(float, kBevySpeedBrighten, 3.0f)
HD_CONST(float, kBevySpeedDarken, 1.0f)
HD_CONST(float, kBevyTransition, 1.5f)
HD_CONST(float, kBevyMaskLevels, 16.0f)

// Unreal Engine 5 (PostProcessHistogram.cpp/.usf, PostProcessHistogramCommon.ush, Scene.cpp): 64
// bins over log2 L -8..4, 8x4 threads, an 8x8 loop per thread over 2x2 quads, one histogram per
// thread in shared memory; 10 %..90 %, average luminance limited to 0.03..8, exposed to 0.18; speed
// up 3, down 1 EV/s, exponential within 1.5 EV; black bin weight 0 (BlackHistogramBucketInfluence).
HD_CONST(HD_UINT, kUnrealBins, 64u)
HD_CONST(HD_UINT, kUnrealGroupX, 8u)
HD_CONST(HD_UINT, kUnrealGroupY, 4u)
HD_CONST(HD_UINT, kUnrealLoopX, 8u)
HD_CONST(HD_UINT, kUnrealLoopY, 8u)
HD_CONST(float, kUnrealLogMin, -8.0f)
HD_CONST(float, kUnrealLogMax, 4.0f)
HD_CONST(float, kUnrealLowPercent, 0.10f)
HD_CONST(float, kUnrealHighPercent, 0.90f)
HD_CONST(float, kUnrealMinAverage, 0.03f)
HD_CONST(float, kUnrealMaxAverage, 8.0f)
HD_CONST(float, kUnrealKey, 0.18f)
HD_CONST(float, kUnrealSpeedUp, 3.0f)
HD_CONST(float, kUnrealSpeedDown, 1.0f)
HD_CONST(float, kUnrealTransition, 1.5f)
HD_CONST(float, kUnrealBlackBinWeight, 0.0f)

// Unity HDRP (HistogramExposure.compute, HistogramExposureCommon.hlsl, Exposure.cs): 128 bins over
// the limits -1..14 EV100 (EV100 = log2(L 100 / 12.5)), 16x8 threads over every second pixel of
// every second row, weights packed x 2048, 40 %..90 %, exposure 1 / (1.2 2^EV100), dark-to-light 3,
// light-to-dark 1, centre-weighted metering.
HD_CONST(HD_UINT, kHdrpBins, 128u)
HD_CONST(HD_UINT, kHdrpGroupX, 16u)
HD_CONST(HD_UINT, kHdrpGroupY, 8u)
HD_CONST(float, kHdrpLimitMin, -1.0f)
HD_CONST(float, kHdrpLimitMax, 14.0f)
HD_CONST(float, kHdrpLowPercent, 0.40f)
HD_CONST(float, kHdrpHighPercent, 0.90f)
HD_CONST(float, kHdrpWeightScale, 2048.0f)
HD_CONST(float, kHdrpLensImperfection, 1.2f)
HD_CONST(float, kHdrpSpeedDarkToLight, 3.0f)
HD_CONST(float, kHdrpSpeedLightToDark, 1.0f)

// Godot 4 (luminance_reduce.glsl, luminance.cpp, CameraAttributes): 8x8 blocks of max(r, g, b)
// averaged down to 1x1, then prev + (avg - prev) * speed * dt clamped to the luminance limits; the
// picture is multiplied by auto_exposure_scale / avg.
HD_CONST(HD_UINT, kGodotBlock, 8u)
HD_CONST(float, kGodotSpeed, 0.5f)
HD_CONST(float, kGodotScale, 0.4f)
HD_CONST(float, kGodotMinLuminance, 9.5367431640625e-7f) // 2^-20: hdrlab's stand-in for the camera's limits, so a black frame has a finite EV
HD_CONST(float, kGodotMaxLuminance, 1048576.0f)     // 2^20

HD_NAMESPACE_END

#endif
