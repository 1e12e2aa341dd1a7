// TileHistogramTarget.h: a local tone operator's per-tile histograms (clahe; shared/LocalTiles.h grid)
// counted by the histogram method in its own read of the frame, and the two capabilities that hand
// them over (the pipeline finds them with dynamic_cast before the histogram pass: the operator that
// wants tile histograms is a TileHistogramSource, the method that can count them a TileHistogramSink).
// Kept out of PostTypes.h, HistogramMethod.h and ToneOperator.h so that it touches no widely included
// header (a later merge can fold it into HistogramTargets and the traits, as the foveal target is).
#pragma once

#include "gl/Buffer.h"

#include <glm/vec2.hpp>

namespace post {

/// uint[tiles x bins], tile-major, bins as the histogram's (codes < 0 in no tile); the method clears
/// what it writes.
struct TileHistogramTarget
{
    gl::Buffer* histograms = nullptr;
    glm::ivec2 tiles{0};     ///< the grid
    glm::ivec2 tileSize{0};  ///< pixels of the histogram image a tile covers (the last ones may be narrower)
    bool written = false;    ///< set by the method that filled it this frame; cleared by its consumer
};

/// A tone operator that takes per-tile histograms from the histogram pass.
class TileHistogramSource
{
public:
    virtual ~TileHistogramSource() = default;
    /// The target for a frame of `frameSize` whose histogram image is `histogramSize`, or nullptr (none
    /// wanted this frame). Asked before the histogram pass; computeCurve sees `written`.
    virtual TileHistogramTarget* tileHistogramTarget(glm::ivec2 frameSize, glm::ivec2 histogramSize) = 0;
};

/// A histogram method that can count per-tile histograms in the same read of the frame.
class TileHistogramSink
{
public:
    virtual ~TileHistogramSink() = default;
    /// The target of the next build() (nullptr: none); build() fills it where it can and forgets it.
    virtual void offerTileHistograms(TileHistogramTarget* target) = 0;
};

}  // namespace post
