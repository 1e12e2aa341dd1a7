// TileCurveLookup.glsl: the tiled apply of the local tone operators (clahe, ward-local;
// shared/LocalTiles.h): one tile curve evaluated as CurveLookup.glsl evaluates the curve buffer (a
// LUT over log2 Lw, linear interpolation, linear in Lw below the first sample, clamped above the
// last; or scale * Lw), and the bilinear blend of a pixel's four tiles (OpenCV CLAHE's geometry).
// The includer declares `float tileCurves[]` (the tile-curve buffer, hd::kTile* layout).

// The value is clamped to the display's [0, 1] (tiledDisplayClamp): a LinearScale tile (Ward's "fits"
// outcome) can exceed 1 by orders of magnitude and would dominate the blend, and +Inf would give NaN.
float tiledDisplayClamp(float v)
{
    return v > 0.0 ? min(v, 1.0) : 0.0;
}

float evaluateTileCurve(uint base, float Lw)
{
    if (tileCurves[base + kCurveMode] == kCurveModeLinearScale)
        return tiledDisplayClamp(tileCurves[base + kCurveScale] * Lw);
    int samples = clamp(int(tileCurves[base + kCurveSampleCount]), 1, int(kMaxCurveSamples));
    float logMin = tileCurves[base + kCurveLogMin];
    float logMax = tileCurves[base + kCurveLogMax];
    float span = logMax > logMin ? logMax - logMin : 1.0;
    float samplesPerEv = float(samples) / span;
    uint lut = base + kCurveHeaderWords;
    if (isinf(Lw))
        return tiledDisplayClamp(tileCurves[lut + uint(samples - 1)]);
    float position = (log2(Lw) - logMin) * samplesPerEv - 0.5;
    if (position < 0.0)
        return tiledDisplayClamp(tileCurves[lut] * exp2(position / samplesPerEv));
    position = min(position, float(samples - 1));
    int below = int(floor(position));
    int above = min(below + 1, samples - 1);
    return tiledDisplayClamp(mix(tileCurves[lut + uint(below)], tileCurves[lut + uint(above)], position - float(below)));
}

// The four tiles' curves at Lw blended bilinearly for the pixel at `texel`.
float tiledLocalValue(ivec2 texel, float Lw)
{
    int tilesX = int(tileCurves[kTileTilesX]);
    int tilesY = int(tileCurves[kTileTilesY]);
    float fx = hdTileBlendPosition(texel.x, 1.0 / tileCurves[kTileWidth]);
    float fy = hdTileBlendPosition(texel.y, 1.0 / tileCurves[kTileHeight]);
    int x1 = hdTileBlendFirst(fx);
    int x2 = hdTileBlendSecond(fx, tilesX);
    int y1 = hdTileBlendFirst(fy);
    int y2 = hdTileBlendSecond(fy, tilesY);
    float xa = hdTileBlendWeight(fx);
    float ya = hdTileBlendWeight(fy);
    float v11 = evaluateTileCurve(hdTileCurveBase(uint(y1 * tilesX + x1)), Lw);
    float v21 = x2 == x1 ? v11 : evaluateTileCurve(hdTileCurveBase(uint(y1 * tilesX + x2)), Lw);
    float v12 = y2 == y1 ? v11 : evaluateTileCurve(hdTileCurveBase(uint(y2 * tilesX + x1)), Lw);
    float v22 = y2 == y1 ? v21 : evaluateTileCurve(hdTileCurveBase(uint(y2 * tilesX + x2)), Lw);
    return hdTileLerp(hdTileLerp(v11, v21, xa), hdTileLerp(v12, v22, xa), ya);
}
