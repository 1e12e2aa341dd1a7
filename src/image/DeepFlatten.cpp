// DeepFlatten.cpp: see DeepFlatten.h for the technique and its rules.
//
// Overlapping samples are tidied and composited in one front-to-back sweep over every distinct
// depth (the document's suggestion). Between two neighbouring depths the active volume samples are
// split to that interval and merged; merging N pieces of the same interval is, in the document's
// terms, alpha = 1 - exp(-U) and colour = E * alpha / U with U = sum(u_k) and E = sum(c_k * v_k)
// (u = -log(1 - a), v = u / a, or 1 when a = 0). A piece of fraction f of a volume sample has u' = f * u
// and c' * v' = f * c * v, so each volume contributes constant rates u / length and c * v / length, and
// an interval of length d gets U and E as d times the sums of its active volumes' rates. Those sums
// live in a segment tree, recomputed from their parts on every change: adding and subtracting
// running totals would cancel catastrophically when a dense thin volume leaves a thin fog.
#include "image/DeepFlatten.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

namespace image {
namespace {

constexpr float kInfinity = std::numeric_limits<float>::infinity();

/// Point samples get zBack == z; see the header for the rules.
DeepSample normalised(DeepSample sample)
{
    if (std::isnan(sample.z))
        sample.z = kInfinity;
    const bool finiteVolume = sample.zBack > sample.z && std::isfinite(double(sample.zBack) - double(sample.z));
    if (!finiteVolume)
        sample.zBack = sample.z;
    return sample;
}

bool isPoint(const DeepSample& sample)
{
    return sample.zBack == sample.z;
}

bool isInFrontOf(const DeepSample& a, const DeepSample& b)
{
    return a.z < b.z || (a.z == b.z && a.zBack < b.zBack);
}

/// Sorted samples are tidy when each begins where the previous one ends or behind it; two point
/// samples at one depth are not (they must be merged). A point may sit at a volume's front or back.
bool isTidy(std::span<const DeepSample> sorted)
{
    for (std::size_t i = 1; i < sorted.size(); ++i) {
        const DeepSample& previous = sorted[i - 1];
        const DeepSample& next = sorted[i];
        if (next.z < previous.zBack || (next.z == previous.zBack && isPoint(previous) && isPoint(next)))
            return false;
    }
    return true;
}

/// "over", front to back, in float, from the stored values: OpenEXR's DeepCompositing arithmetic.
std::array<float, 4> compositeInOrder(std::span<const DeepSample> samples)
{
    float red = 0.0f, green = 0.0f, blue = 0.0f, alpha = 0.0f;
    for (const DeepSample& sample : samples) {
        if (!(alpha < 1.0f))  // opaque, or NaN: nothing behind can change the pixel's alpha
            break;
        const float transmitted = 1.0f - alpha;
        red += transmitted * sample.red;
        green += transmitted * sample.green;
        blue += transmitted * sample.blue;
        alpha += transmitted * sample.alpha;
    }
    return {red, green, blue, alpha};
}

/// Alpha as the split and merge formulas need it: in [0, 1], NaN as 0.
double unitAlpha(float alpha)
{
    return alpha > 0.0f ? (alpha < 1.0f ? double(alpha) : 1.0) : 0.0;
}

/// u = -log(1 - a) (optical depth) for a in [0, 1).
double opticalDepth(double alpha)
{
    return -std::log1p(-alpha);
}

/// v = u / a, the weight of a sample's colour in a merge (1 in the limit a -> 0).
double colourWeight(double alpha, double depth)
{
    return alpha > 0.0 ? depth / alpha : 1.0;
}

/// Opacity and colour of a merge with total optical depth U and weighted colour E.
struct Piece
{
    double red = 0.0, green = 0.0, blue = 0.0, alpha = 0.0;
};

Piece mergedPiece(double opticalDepthSum, const double weightedColour[3])
{
    const double alpha = -std::expm1(-opticalDepthSum);
    const double scale = opticalDepthSum > 0.0 ? alpha / opticalDepthSum : 1.0;
    return {weightedColour[0] * scale, weightedColour[1] * scale, weightedColour[2] * scale, alpha};
}

Piece storedPiece(const DeepSample& sample)
{
    return {sample.red, sample.green, sample.blue, sample.alpha};
}

/// The front fraction `fraction` of a volume sample (the document's split).
Piece splitPiece(const DeepSample& sample, double fraction)
{
    const double alpha = unitAlpha(sample.alpha);
    if (alpha >= 1.0)
        return {sample.red, sample.green, sample.blue, 1.0};  // opaque pieces stay opaque
    if (alpha <= 0.0)
        return {sample.red * fraction, sample.green * fraction, sample.blue * fraction, 0.0};
    const double pieceAlpha = -std::expm1(fraction * std::log1p(-alpha));
    const double scale = pieceAlpha / alpha;
    return {sample.red * scale, sample.green * scale, sample.blue * scale, pieceAlpha};
}

/// Coincident point samples merged (a single one as stored).
Piece mergedPoints(std::span<const DeepSample> points)
{
    if (points.size() == 1)
        return storedPiece(points[0]);
    double opaqueColour[3] = {0.0, 0.0, 0.0};
    std::size_t opaque = 0;
    double depthSum = 0.0;
    double weighted[3] = {0.0, 0.0, 0.0};
    for (const DeepSample& point : points) {
        const double alpha = unitAlpha(point.alpha);
        if (alpha >= 1.0) {
            ++opaque;
            opaqueColour[0] += point.red;
            opaqueColour[1] += point.green;
            opaqueColour[2] += point.blue;
            continue;
        }
        const double depth = opticalDepth(alpha);
        const double weight = colourWeight(alpha, depth);
        depthSum += depth;
        weighted[0] += point.red * weight;
        weighted[1] += point.green * weight;
        weighted[2] += point.blue * weight;
    }
    if (opaque > 0) {
        const double count = double(opaque);
        return {opaqueColour[0] / count, opaqueColour[1] / count, opaqueColour[2] / count, 1.0};
    }
    return mergedPiece(depthSum, weighted);
}

/// "over", front to back, in double.
class Composite
{
public:
    /// Adds a piece behind what is there; false once nothing behind can show (A >= 1, or NaN: the
    /// sweep must not go on through the rest of a pixel whose alpha is lost).
    bool add(const Piece& piece)
    {
        const double transmitted = 1.0 - mPiece.alpha;
        mPiece.red += transmitted * piece.red;
        mPiece.green += transmitted * piece.green;
        mPiece.blue += transmitted * piece.blue;
        mPiece.alpha += transmitted * piece.alpha;
        return mPiece.alpha < 1.0;
    }
    std::array<float, 4> value() const
    {
        return {float(mPiece.red), float(mPiece.green), float(mPiece.blue), float(mPiece.alpha)};
    }

private:
    Piece mPiece;
};

/// Sums over the active volume samples, kept in a segment tree so that every sum is formed from
/// its parts, never by subtracting.
struct ActiveSums
{
    double depthRate = 0.0;                  // sum of u / length (non-opaque samples)
    double colourRate[3] = {0.0, 0.0, 0.0};  // sum of c * v / length (non-opaque samples)
    std::uint32_t count = 0;
    std::uint32_t opaque = 0;
    std::uint32_t indexSum = 0;  // modulo 2^32: the index of the active sample when count == 1

    ActiveSums operator+(const ActiveSums& other) const
    {
        ActiveSums sum;
        sum.depthRate = depthRate + other.depthRate;
        for (int c = 0; c < 3; ++c)
            sum.colourRate[c] = colourRate[c] + other.colourRate[c];
        sum.count = count + other.count;
        sum.opaque = opaque + other.opaque;
        sum.indexSum = indexSum + other.indexSum;
        return sum;
    }
};

class ActiveVolumes
{
public:
    explicit ActiveVolumes(std::size_t capacity)
    {
        mLeaves = 1;
        while (mLeaves < capacity)
            mLeaves *= 2;
        mNodes.assign(2 * mLeaves, ActiveSums{});
    }

    void set(std::size_t slot, const ActiveSums& value)
    {
        std::size_t node = mLeaves + slot;
        mNodes[node] = value;
        for (node /= 2; node >= 1; node /= 2)
            mNodes[node] = mNodes[2 * node] + mNodes[2 * node + 1];
    }
    const ActiveSums& total() const { return mNodes[1]; }

private:
    std::size_t mLeaves = 1;
    std::vector<ActiveSums> mNodes;
};

ActiveSums ratesOf(const DeepSample& volume, std::uint32_t index)
{
    ActiveSums rates;
    rates.count = 1;
    rates.indexSum = index;
    const double alpha = unitAlpha(volume.alpha);
    if (alpha >= 1.0) {
        rates.opaque = 1;
        return rates;
    }
    const double length = double(volume.zBack) - double(volume.z);
    const double depth = opticalDepth(alpha);
    const double weight = colourWeight(alpha, depth);
    rates.depthRate = depth / length;
    rates.colourRate[0] = volume.red * weight / length;
    rates.colourRate[1] = volume.green * weight / length;
    rates.colourRate[2] = volume.blue * weight / length;
    return rates;
}

}  // namespace

std::array<float, 4> DeepPixelFlattener::flatten(std::span<const DeepSample> samples, DeepDepth depth)
{
    if (depth == DeepDepth::Absent)
        return compositeInOrder(samples);
    mSorted.clear();
    for (const DeepSample& sample : samples)
        mSorted.push_back(normalised(sample));
    // Stable: samples at the same depths keep their stored order.
    std::stable_sort(mSorted.begin(), mSorted.end(), isInFrontOf);
    if (isTidy(mSorted))
        return compositeInOrder(mSorted);
    return compositeOverlapping();
}

/// The sweep over the distinct depths of mSorted (not tidy): at each depth d, first the interval
/// that ends at d, then the point samples at d, then the volumes that begin at d start.
std::array<float, 4> DeepPixelFlattener::compositeOverlapping()
{
    mVolumes.clear();
    mDepths.clear();
    for (std::size_t i = 0; i < mSorted.size(); ++i) {
        mDepths.push_back(mSorted[i].z);
        if (!isPoint(mSorted[i])) {
            mVolumes.push_back(i);
            mDepths.push_back(mSorted[i].zBack);
        }
    }
    std::sort(mDepths.begin(), mDepths.end());
    mDepths.erase(std::unique(mDepths.begin(), mDepths.end()), mDepths.end());
    mVolumesByBack.assign(mVolumes.begin(), mVolumes.end());
    std::stable_sort(mVolumesByBack.begin(), mVolumesByBack.end(),
                     [&](std::size_t a, std::size_t b) { return mSorted[a].zBack < mSorted[b].zBack; });
    // Slot k of the tree belongs to mVolumes[k]; the sample's index in mSorted identifies it.
    mSlotOf.assign(mSorted.size(), 0);
    for (std::size_t k = 0; k < mVolumes.size(); ++k)
        mSlotOf[mVolumes[k]] = k;
    ActiveVolumes active(mVolumes.size());

    Composite composite;
    std::size_t nextSample = 0;  // mSorted is in front order: points and volume fronts alike
    std::size_t nextBack = 0;
    float previous = 0.0f;
    for (const float depth : mDepths) {
        const ActiveSums& sums = active.total();
        if (sums.count > 0) {
            Piece piece;
            if (sums.count == 1) {
                const DeepSample& volume = mSorted[sums.indexSum];
                piece = previous == volume.z && depth == volume.zBack
                            ? storedPiece(volume)
                            : splitPiece(volume, (double(depth) - double(previous)) /
                                                     (double(volume.zBack) - double(volume.z)));
            } else if (sums.opaque > 0) {
                // Merging with an opaque piece gives that piece (the mean of several); A becomes 1 here.
                double colour[3] = {0.0, 0.0, 0.0};
                for (std::size_t k : mVolumes) {
                    const DeepSample& volume = mSorted[k];
                    if (volume.z <= previous && volume.zBack >= depth && unitAlpha(volume.alpha) >= 1.0) {
                        colour[0] += volume.red;
                        colour[1] += volume.green;
                        colour[2] += volume.blue;
                    }
                }
                piece = {colour[0] / sums.opaque, colour[1] / sums.opaque, colour[2] / sums.opaque, 1.0};
            } else {
                const double length = double(depth) - double(previous);
                const double weighted[3] = {sums.colourRate[0] * length, sums.colourRate[1] * length,
                                            sums.colourRate[2] * length};
                piece = mergedPiece(sums.depthRate * length, weighted);
            }
            if (!composite.add(piece))
                return composite.value();
        }
        for (; nextBack < mVolumesByBack.size() && mSorted[mVolumesByBack[nextBack]].zBack == depth; ++nextBack)
            active.set(mSlotOf[mVolumesByBack[nextBack]], ActiveSums{});
        const std::size_t firstPoint = nextSample;
        std::size_t endPoint = firstPoint;
        while (endPoint < mSorted.size() && mSorted[endPoint].z == depth && isPoint(mSorted[endPoint]))
            ++endPoint;
        if (endPoint > firstPoint && !composite.add(mergedPoints(std::span<const DeepSample>(mSorted).subspan(
                                         firstPoint, endPoint - firstPoint))))
            return composite.value();
        for (nextSample = endPoint; nextSample < mSorted.size() && mSorted[nextSample].z == depth; ++nextSample)
            active.set(mSlotOf[nextSample], ratesOf(mSorted[nextSample], std::uint32_t(nextSample)));
        previous = depth;
    }
    return composite.value();
}

}  // namespace image
