// GodotReduce.comp: one step of Godot 4's luminance reduction chain, its structure (servers/rendering/
// renderer_rd/shaders/effects/luminance_reduce.glsl, chained by effects/luminance.cpp) written anew
// (commands/bench/peers/GodotPeer.h): 8x8 invocations, each reading one texel (READ_FRAME: the frame's
// max(r, g, b), in cd/m^2; else the previous step's R32F value), a shared tree sum, and invocation 0
// writes the block's mean (over the texels inside the source) to the next, 8x smaller R32F image.
// FINAL_PASS (the step that writes 1x1): the mean blends with the previous luminance,
// prev + (avg - prev) x speed x dt, clamped to the luminance limits, and the state gets the EV of
// auto_exposure_scale / avg. Invocations outside the source read nothing (Godot tests any(), not
// all(), of the coordinates and relies on robust reads returning 0 past the edge).
#include "shared/HostDevice.h"
#include "shared/Peers.h"

#ifndef READ_FRAME
#define READ_FRAME 0
#endif
#ifndef FINAL_PASS
#define FINAL_PASS 0
#endif

layout(local_size_x = kGodotBlock, local_size_y = kGodotBlock) in;

#if READ_FRAME
layout(binding = kTextureUnitInput) uniform sampler2D uFrame;
layout(std430, binding = kBindingHistogramParams) readonly buffer ParamsBuffer { uint params[]; };
#else
layout(binding = 0, r32f) uniform readonly image2D uSource;
#endif
layout(binding = 1, r32f) uniform writeonly image2D uDestination;
#if FINAL_PASS
layout(std430, binding = kBindingOperatorState) buffer State { float state[]; };
layout(location = kPeerUniformSnap) uniform uint uSnap;
layout(location = kPeerUniformSeconds) uniform float uSeconds;
#endif
layout(location = kPeerUniformSize) uniform ivec2 uSourceSize;

shared float sValues[kGodotBlock * kGodotBlock];

void main()
{
    const uint t = gl_LocalInvocationIndex;
    const ivec2 pos = ivec2(gl_GlobalInvocationID.xy);
    float value = 0.0;
    if (all(lessThan(pos, uSourceSize))) {
#if READ_FRAME
        const vec3 rgb = texelFetch(uFrame, pos, 0).rgb;
        value = max(rgb.r, max(rgb.g, rgb.b)) * uintBitsToFloat(params[kParamCdPerUnit]);
#else
        value = imageLoad(uSource, pos).r;
#endif
    }
    sValues[t] = value;
    barrier();
    for (uint size = (kGodotBlock * kGodotBlock) >> 1u; size >= 1u; size >>= 1u) {
        if (t < size)
            sValues[t] += sValues[t + size];
        barrier();
    }
    if (t != 0u)
        return;
    const ivec2 rect = min(uSourceSize - pos, ivec2(kGodotBlock));
    float average = sValues[0] / float(rect.x * rect.y);
#if FINAL_PASS
    const float previous = uSnap != 0u ? average : state[kPeerStateEngine];
    const float target = average;
    average = clamp(previous + (average - previous) * kGodotSpeed * uSeconds, kGodotMinLuminance, kGodotMaxLuminance);
    state[kPeerStateEngine] = average;
    state[kPeerStateEv] = log2(kGodotScale / average);
    state[kPeerStateTargetEv] = log2(kGodotScale / clamp(target, kGodotMinLuminance, kGodotMaxLuminance));
#endif
    imageStore(uDestination, pos / int(kGodotBlock), vec4(average));
}
