// PeerMeteringRef.h: CPU references of the engine peers of `bench pipeline --peers`
// (commands/bench/peers/, shaders/peers/): the same arithmetic as each peer's shaders, in float,
// pixel by pixel in the shaders' order where it matters (Godot's tree sums), with the constants of
// shared/Peers.h. Differences from the GPU, and the tests' tolerances for them
// (tests/app/PeerMeteringGlTest.cpp): the hardware log2 and dot product (a pixel within an ulp of a
// bin edge may change bins: Bevy's and HDRP's integer bins, UE's splat weights); UE's
// half-resolution image is rounded to half floats here with glm's conversion, the GPU's own rounding
// may differ in the last bit; float sums in another order (UE's rows, HDRP's tree).
#pragma once

#include <cstdint>
#include <vector>

namespace ref {

/// A frame as the peers read it: RGBA floats (the texels as stored), row 0 first, the params'
/// luminance weights (which undo the frame's pre-exposure) and cd/m^2 per unit of a channel.
struct PeerFrame
{
    const float* rgba = nullptr;
    int width = 0;
    int height = 0;
    float weights[3] = {0.2126f, 0.7152f, 0.0722f};
    float cdPerUnit = 1.0f;
};

/// The adapted state before the run: `snap` starts from the frame's target (PeerMetering's first run).
struct PeerAdaptation
{
    bool snap = true;
    float engineState = 0.0f;
    float seconds = 1.0f / 60.0f;
};

/// What a peer's state holds after one run (PeerExposure's fields).
struct PeerResult
{
    float engineState = 0.0f;
    float ev = 0.0f;
    float targetEv = 0.0f;
};

PeerResult bevyMetering(const PeerFrame& frame, const PeerAdaptation& adaptation);
/// The 64 bins Bevy's histogram pass adds up (mask weight 16 a pixel).
std::vector<std::uint32_t> bevyHistogram(const PeerFrame& frame);

PeerResult unrealMetering(const PeerFrame& frame, const PeerAdaptation& adaptation);
/// UE's reduced 64-bin histogram (each bin's splatted weight / half-resolution area).
std::vector<float> unrealHistogram(const PeerFrame& frame);

PeerResult hdrpMetering(const PeerFrame& frame, const PeerAdaptation& adaptation);
/// HDRP's 128 bins (centre weights x 2048, truncated per pixel).
std::vector<std::uint32_t> hdrpHistogram(const PeerFrame& frame);

PeerResult godotMetering(const PeerFrame& frame, const PeerAdaptation& adaptation);
/// The mean of max(r, g, b) x cdPerUnit as Godot's chain computes it, before the adaptation.
float godotAverage(const PeerFrame& frame);

}  // namespace ref
