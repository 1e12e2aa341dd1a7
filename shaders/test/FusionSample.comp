// Test shader: samples the fusion map at every frame pixel as an apply pass would (FusionSample.glsl).
#include "localexposure/FusionSample.glsl"

layout(local_size_x = 8, local_size_y = 8) in;
layout(binding = 0) uniform sampler2D uMap;
layout(binding = 0, r32f) writeonly uniform image2D uOut;
layout(location = 0) uniform ivec2 uFrameSize;
layout(location = 1) uniform vec2 uUvScale;

void main()
{
    ivec2 pixel = ivec2(gl_GlobalInvocationID.xy);
    if (any(greaterThanEqual(pixel, uFrameSize)))
        return;
    imageStore(uOut, pixel, vec4(fusionExposureLog2(uMap, pixel, vec2(uFrameSize), uUvScale)));
}
