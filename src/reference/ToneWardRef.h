// ToneWardRef.h: CPU reference of Ward Larson, Rushmeier and Piatko 1997, "A visibility matching
// tone reproduction operator for high dynamic range scenes" (IEEE TVCG 3(4)), histogram adjustment as
// Radiance pcond implements it (HEAD, see shared/research/algorithms.md 1.2): ~1 degree foveal box
// samples, a 100-bin natural-log histogram over [min, 1.01 max] (optional bottom-bin duplication),
// the linear ceiling T*db/(ln Ldmax - ln Ldmin) (or the Ferwerda TVI ceiling, pcond -s) iterated
// while trimmings exceed 2.5 % of the current total, failure or a fitting range -> the linear
// operator, and the piecewise-linear CDF mapping. pcond's random point samples are not modelled.
#pragma once

#include "shared/HostDevice.h"
#include "tone/ToneSettings.h"

#include <cstdint>
#include <span>
#include <vector>

namespace ref {

/// Human threshold contrast sensitivity dLt(La) in cd/m^2 (pcond htcontrs, after Ferwerda et al. 1996).
double htcontrs(double La);

/// The TVI ceiling factor [dLt(Ld) / dLt(Lw)] * [Lw / Ld].
double wardCeilingFactor(double Lw, double Ld);

struct FovealGrid
{
    int width = 2;
    int height = 2;
};
/// pcond's foveal sample grid for an image of w x h pixels seen with vertical field of view
/// fovY (degrees, horizontal from the aspect ratio): n = (int)(2 tan(fov/2) / (pi/180) + 0.5), at
/// least 2 and at most the pixel count of that axis. A field of view that is not finite or outside
/// (5, 179) degrees gets pcond's default view: 40 degrees on the longer axis.
FovealGrid fovealGridSize(int width, int height, double fovYDegrees);

/// Box-filtered foveal samples of an RGBA float image: the luminance (cd/m^2 = sceneScale * L, L
/// under `weights`) of the mean of the finite pixels of each block [x*w/gw, (x+1)*w/gw) x [...]; NaN
/// for a block without finite pixels. Row-major gw x gh.
std::vector<double> wardFovealLuminance(const float* rgba,
                                        int width,
                                        int height,
                                        FovealGrid grid,
                                        double sceneScale,
                                        const hd::LuminanceWeights& weights = {});

struct WardHistogram
{
    bool valid = false;            ///< false when no sample has a luminance above LMIN
    std::vector<double> bins;      ///< counts before the bottom-bin duplication
    double bwmin = 0.0;            ///< ln of the lower edge of bin 0 (cd/m^2)
    double bwmax = 0.0;            ///< ln of the upper edge of the last bin
    double bwavg = 0.0;            ///< mean ln Lw of the counted samples (the linear fallback's log-average)
    bool duplicateBottom = false;  ///< the range was extended by one bin and bin 1 is to be split into bin 0
};

/// pcond comphist over the given samples (cd/m^2; non-finite samples are ignored): lwmin / lwmax
/// from the samples (LMIN / LMAX limits), bin i = (int)(n (ln Lw - bwmin) / (bwmax - bwmin)),
/// samples outside [lwmin, lwmax) skipped.
WardHistogram wardHistogram(std::span<const double> samples, const post::WardSettings& settings);

enum class WardOutcome { Histogram, RangeFits, Failed, NoSamples };
const char* toString(WardOutcome outcome);

struct WardResult
{
    WardOutcome outcome = WardOutcome::NoSamples;
    int passes = 0;  ///< ceiling passes run
    double bwmin = 0.0;
    double bwmax = 0.0;
    double originalTotal = 0.0;    ///< histot
    double finalTotal = 0.0;       ///< mhistot of the last pass (before its trimming)
    double ceilingFraction = 0.0;  ///< linear ceiling / T = db / (ln Ldmax - ln Ldmin)
    std::vector<double> trimmed;   ///< modhist after the last pass
    std::vector<double> ceiling;   ///< each bin's ceiling in the last pass
    std::vector<double> cumf;      ///< n + 1 entries: the CDF the mapping uses (from the last pass)
    double linearScale = 0.0;      ///< linear operator: display value per cd/m^2
};

/// pcond mkbrmap (+ check2do and the linear fallback) on a histogram.
WardResult wardCurve(const WardHistogram& histogram, const post::WardSettings& settings);

/// Display value (Ld - Ldmin) / (Ldmax - Ldmin) of world luminance Lw (cd/m^2); the linear outcomes
/// give linearScale * Lw (unclamped, as pcond).
double wardDisplay(const WardResult& result, const post::WardSettings& settings, double LwCd);

}  // namespace ref
