// MeteringOverlay.comp: the metering view. The tone-mapped image is darkened by each pixel's weight
// (meteringWeight at the frame's own size: shown = toned * (0.25 + 0.75 w)), and pixels of weight 0
// are tinted blue (shown = 0.5 toned * 0.25 + 0.5 (0.1, 0.3, 1.0)), as HDRP's exposure debug view
// tints excluded pixels. Values are the sRGB-encoded bytes of the tone-mapped image, scaled.
#include "histogram/HistogramCommon.glsl"
#include "tonemap/MeteringWeight.glsl"

layout(local_size_x = 16, local_size_y = 16) in;

layout(binding = kTextureUnitInput) uniform sampler2D uFrame;
layout(binding = 3) uniform sampler2D uToned; // GL_RGBA8, sRGB-encoded
layout(binding = kImageUnitOutput, rgba8) writeonly uniform image2D uOutput;

void main()
{
    ivec2 texel = ivec2(gl_GlobalInvocationID.xy);
    if (texel.x >= uImageSize.x || texel.y >= uImageSize.y)
        return;
    vec4 color = texelFetch(uFrame, texel, 0);
    uint q = meteringWeight(texel, paramLuminance(color)); // the luminance gate in cd/m^2
    vec3 toned = texelFetch(uToned, texel, 0).rgb;
    vec3 shown = q == 0u ? 0.5 * (toned * 0.25) + 0.5 * vec3(0.1, 0.3, 1.0)
                         : toned * (0.25 + 0.75 * (float(q) / kMeteringWeightScale));
    imageStore(uOutput, texel, vec4(shown, 1.0));
}
