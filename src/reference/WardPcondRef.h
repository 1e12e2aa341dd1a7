// WardPcondRef.h: CPU reference of Ward's histogram adjustment sampled exactly as Radiance pcond
// (HEAD, shared/research/algorithms.md 1.2) samples a picture: pcond's adaptation histogram, step for
// step, then its mapping. Written from pcond's specification, independently of the GPU path
// (post/tonemap/WardPcond*), which the tests compare against it.
//
//  1. View and foveal grid (pcond getahead/getfovimg): the picture's view, or with none (or a
//     parallel one, or one of 5 degrees or less) a perspective view of 40 degrees on the longer axis
//     (the other 2 atan(0.3639702 ratio)); fvxr = (int)(sqrt(hn2) / (pi/180) + 0.5), at least 2.
//  2. Foveal image as "pfilt -1 -b -pa 0 -x fvxr -y fvyr" makes it: a one-pass box filter (output
//     pixel centre (int)((c+.5) xres / ncols), the input pixels whose scaled offset lies in
//     [-0.5, 0.5)), summed in float32 in scanline order and scaled by 1/count in double, then written
//     as RGBE (setcolr) and read back as pcond reads it ((m + 0.5) 2^(e - 136)).
//  3. min(16 fvxr fvyr, xres yres) random point samples, drawn with drand48 from its unseeded state in
//     getlumsamp's order (per scanline, a skip distance from one draw; a draw that runs past the
//     scanline is spent), their luminances rounded to float.
//  4. comphist: the range over both sample sets (lwmax *= 1.01, at most LMAX; lwmin below LMIN ->
//     LMIN, else the bottom bin duplicated), the foveal samples with weight 1, the point samples with
//     weight histot_foveal / nlumsamp, the log-average, then the "false samples at bottom".
//  5. check2do (range fits -> linear), mkbrmap (the ceiling loop with pcond's clampf, T the current
//     total, stop when the trimmings are at most 2.5 % of it, fail at 2.5 % of the original ->
//     linear), and BLw / putmapping.
// Luminance is pcond's plum(): efficacy * (float)(wr r + wg g + wb b) / exposure, the weighted sum in
// float arithmetic as Radiance's rgblum evaluates it (efficacy 179 and the EXPOSURE product for a
// Radiance picture). Pixels are read as a Radiance picture holds them: a negative or non-finite
// channel counts as 0. Arithmetic is double where pcond's is, literally in pcond's order.
// Not modelled: pcond's acuity, veil and colour options (-a -v -c), centre weighting (-w), fixation
// histograms (-i), rotated pictures (pcond swaps the grid for them) and pfilt's wrap-around for 360-
// degree cylindrical views. Where pcond divides by a zero total (no sample inside the range, e.g. a
// uniform picture under 1e-6 cd/m^2) the result is "no samples" (black) instead of pcond's NaN.
#pragma once

#include "tone/PcondView.h"
#include "tone/ToneSettings.h"

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

namespace ref {

/// Radiance's setcolr + colr_color round trip of one colour (what writing a COLOR into a picture and
/// reading it back gives).
std::array<float, 3> radianceRgbeRoundTrip(float r, float g, float b);

/// pcond's plum() of an RGB colour (double).
double pcondLuminance(const PcondPicture& picture, float r, float g, float b);

/// The foveal image as pcond reads it from pfilt: grid.width * grid.height RGB triples, row 0 first.
std::vector<float> pcondFovealImage(const PcondPicture& picture, PcondGrid grid);

/// The pixels getlumsamp picks for `count` samples of a width x height picture, in the order drawn:
/// (x, scanline) with scanline 0 the first (top) one.
std::vector<std::pair<int, int>> pcondSamplePixels(int width, int height, int count);

/// The number of point samples pcond draws: min(16 fvxr fvyr, width * height).
int pcondPointSampleCount(int width, int height, PcondGrid grid);

/// comphist over the foveal image (RGB triples as pcondFovealImage returns them) and the point
/// luminances (float, in draw order), with settings.bins bins (pcond HISTRES, 100).
PcondHistogram pcondHistogramOf(const PcondPicture& picture,
                                const std::vector<float>& foveal,
                                PcondGrid grid,
                                const std::vector<float>& pointLuminances,
                                const post::WardSettings& settings);

/// The whole of comphist on a picture: foveal image, point samples, histogram.
PcondHistogram pcondHistogram(const PcondPicture& picture, const post::WardSettings& settings);

enum class PcondOutcome : std::uint32_t { Histogram = 0, RangeFits = 1, Failed = 2, NoSamples = 3 };

struct PcondMapping
{
    PcondOutcome outcome = PcondOutcome::NoSamples;
    int passes = 0;
    double bwmin = 0.0;
    double bwmax = 0.0;
    double Bldmin = 0.0;  ///< ln Ldmin
    double Bldmax = 0.0;  ///< ln Ldmax
    double histot = 0.0;
    double mhistot = 0.0;         ///< the total of the last pass (before its trimming)
    std::vector<double> modhist;  ///< after the last pass
    std::vector<double> ceiling;  ///< each bin's ceiling in the last pass
    std::vector<double> cumf;     ///< bins + 1 entries
    double scalef = 0.0;          ///< linear outcomes: display luminance per world luminance (cd/m^2 per cd/m^2)
    bool humanContrast = false;
};

/// check2do + mkbrmap (+ the linear scale of mapimage) on an adaptation histogram.
PcondMapping pcondMapping(const PcondHistogram& histogram, const post::WardSettings& settings);

/// Display luminance (cd/m^2) of world luminance Lw (cd/m^2): exp(BLw(Lw)) for the histogram
/// outcome, scalef * Lw clamped to [Ldmin, Ldmax] for the linear ones, Ldmin for no samples.
double pcondDisplayLuminance(const PcondMapping& mapping, const post::WardSettings& settings, double Lw);

/// What `pcond -x` prints: one (world, display) pair of cd/m^2 per bin centre, b accumulated from
/// bwmin + s/2 by s as pcond does. In the linear case pcond prints 179 x the output pixel value,
/// i.e. (179 / Ldmax) scalef Lw clamped to [Ldmin, Ldmax], not the display luminance scalef Lw; that
/// is reproduced here so the pairs compare with pcond's file directly.
std::vector<std::pair<double, double>> pcondPrintedMapping(const PcondMapping& mapping,
                                                           const post::WardSettings& settings);

}  // namespace ref
