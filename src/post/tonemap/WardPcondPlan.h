// WardPcondPlan.h: what the GPU path of Ward's pcond-compatible sampling needs to know of a picture
// size before any pixel is read (docs/TONE_OPERATORS.md, "pcond sampling"): the foveal grid, the
// scanline and column ranges of pfilt's one-pass box filter ("pfilt -1 -b -x fvxr -y fvyr"), and
// the pixels pcond's getlumsamp draws with drand48 from its unseeded state. All of it depends only on
// the size, the view and the pixel aspect, so ToneWard makes it once per size and uploads it; the
// shaders (tonemap/WardPcond*.comp) then only read pixels.
//
// The box ranges and the draw are computed here from pfilt's and pcond's rules directly, not through
// reference/WardPcondRef (the CPU reference the tests compare the GPU path against); only the view
// and grid formula is shared (tone/PcondView.h: ref::pcondFovealGrid).
#pragma once

#include "tone/PcondView.h"

#include <cstdint>
#include <vector>

namespace post {

struct WardPcondPlan
{
    int width = 0;  ///< picture: scanline length and scanline count (row 0 = the top scanline)
    int height = 0;
    ref::PcondView view;
    double pixelAspect = 1.0;
    ref::PcondGrid grid;
    /// [2 * grid.height] first and one-past-last scanline of each output row, then
    /// [2 * grid.width] first and one-past-last pixel of each output column.
    std::vector<std::int32_t> boxes;
    /// The drawn pixels in draw order, x | scanline << 16.
    std::vector<std::uint32_t> positions;

    bool matches(int w, int h, const ref::PcondView& v, double aspect) const;
    /// Throws std::invalid_argument for sizes outside 1..16384.
    static WardPcondPlan make(int width, int height, const ref::PcondView& view, double pixelAspect);
};

/// pfilt's box on one axis: the first and one-past-last input index of output index `out` of
/// `outCount` over `inCount` inputs (dobox's window test, as a range).
std::pair<int, int> pfiltBoxRange(int out, int outCount, int inCount);

}  // namespace post
