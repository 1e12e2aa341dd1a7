// FusionSample.glsl: how a pass reads the fusion local exposure's map (post/localexposure/ExposureFusion.h)
// at a frame pixel: bilinear (the texture's own filtering), at the pixel centre scaled by the map's uv
// scale (ExposureFusion::uvScale: frame size / (reduction x map size)), so that each map texel's centre
// falls on its block's centre. Returns the log2 exposure adjustment; the pixel's scene value times
// exp2 of it is what the display curve then maps. The CPU side: ref::sampleFusionAdjustment.

float fusionExposureLog2(sampler2D fusionMap, ivec2 pixel, vec2 frameSize, vec2 uvScale)
{
    vec2 uv = (vec2(pixel) + 0.5) / frameSize * uvScale;
    return textureLod(fusionMap, uv, 0.0).r;
}
