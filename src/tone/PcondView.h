// PcondView.h: the plain data Ward's pcond-compatible sampling shares between its GPU path
// (post/tonemap/WardPcondPlan) and its CPU reference (reference/WardPcondRef): a picture's view, the
// picture as pcond reads it, pcond's foveal grid (getahead/getfovimg: the view, or pcond's default
// 40-degree perspective, and fvxr = (int)(sqrt(hn2) / (pi/180) + 0.5), at least 2) and the adaptation
// histogram a fed table turns into. Below both post/ and reference/; no GL.
#pragma once

#include "tone/ToneSettings.h"

#include <array>
#include <utility>
#include <vector>

namespace ref {

/// A Radiance VIEW (the parts pcond uses), or the camera of a rendered frame.
struct PcondView
{
    bool given = false;      ///< false: no usable view -> pcond's default 40-degree perspective
    char type = 'v';         ///< v perspective, l parallel, c cylindrical, a angular, h hemispherical, s planispheric
    double horizontal = 45;  ///< degrees (Radiance's default view is 45 x 45)
    double vertical = 45;
};

/// What pcond needs of a picture: its pixels (row 0 = the first scanline, i.e. the top, RGBA float)
/// and how it turns them into cd/m^2.
struct PcondPicture
{
    int width = 0;
    int height = 0;
    const float* rgba = nullptr;
    std::array<float, 3> weights{0.26510582f, 0.67010582f, 0.06478836f};  ///< Radiance's default primaries
    double efficacy = 179.0;  ///< WHTEFFICACY for Radiance pictures; 1 for pictures in cd/m^2
    double exposure = 1.0;    ///< product of the EXPOSURE header values
    PcondView view;
    double pixelAspect = 1.0;  ///< PIXASPECT
};

struct PcondGrid
{
    int width = 2;
    int height = 2;
    friend bool operator==(const PcondGrid&, const PcondGrid&) = default;
};

/// The view pcond ends up with (getahead): `view` when usable, else the 40-degree default.
PcondView pcondEffectiveView(int width, int height, const PcondView& view, double pixelAspect);

/// pcond's foveal grid (fvxr, fvyr) for a picture of width x height.
PcondGrid pcondFovealGrid(int width, int height, const PcondView& view, double pixelAspect);

struct PcondHistogram
{
    bool valid = false;        ///< false: no sample inside the range (pcond would divide by zero)
    std::vector<double> bins;  ///< bwhist after the "false samples at bottom" (what mkbrmap starts from)
    double bwmin = 0.0;        ///< ln cd/m^2 of the lower edge of bin 0
    double bwmax = 0.0;        ///< ln cd/m^2 of the upper edge of the last bin
    double bwavg = 0.0;        ///< the weighted mean ln Lw (the linear fallback's log-average)
    double histot = 0.0;       ///< the weighted sample total (comphist's histot)
    double lwmin = 0.0;        ///< cd/m^2, after the LMIN rule / bottom-bin duplication
    double lwmax = 0.0;        ///< cd/m^2, after the 1.01 factor and LMAX
    bool duplicated = false;   ///< the range was extended by one bin (lwmin above LMIN + FTINY)
    int fovealSamples = 0;
    int pointSamples = 0;
};

/// pcond gethisto (-I): a histogram given as (ln Lw at the bin's lower edge, count) pairs with equal
/// steps, turned into the adaptation histogram (range from the first and last non-empty bins, LMIN/
/// LMAX, bottom-bin duplication, rebinning into settings.bins bins by the lower edges).
PcondHistogram pcondHistogramFromBins(const std::vector<std::pair<double, double>>& lowerEdgeLnAndCount,
                                      const post::WardSettings& settings);

}  // namespace ref
