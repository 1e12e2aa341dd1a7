// Clahe.cpp: the CPU reference of OpenCV's CLAHE (reference/Clahe.h), loop for loop as OpenCV's
// CLAHE_CalcLut_Body and CLAHE_Interpolation_Body compute it, with shared/Clahe.h's arithmetic.
#include "reference/Clahe.h"

#include <algorithm>
#include <cmath>

namespace ref {

template <class Sample>
std::vector<std::uint32_t> claheTileHistograms(const ClaheImage<Sample>& image, const hd::ClaheGeometry& g)
{
    std::vector<std::uint32_t> histograms(std::size_t(g.tileCount()) * std::size_t(g.bins), 0u);
    // Rows and columns of the padded image, mapped once to the original's.
    std::vector<int> sourceColumn(std::size_t(g.paddedWidth));
    for (int x = 0; x < g.paddedWidth; ++x)
        sourceColumn[std::size_t(x)] = hd::hdClaheReflect101(x, g.width);
    for (int y = 0; y < g.paddedHeight; ++y) {
        const Sample* row = image.samples.data() + std::size_t(hd::hdClaheReflect101(y, g.height)) * std::size_t(g.width);
        const int ty = y / g.tileHeight;
        for (int x = 0; x < g.paddedWidth; ++x) {
            const int tile = ty * g.tilesX + x / g.tileWidth;
            ++histograms[std::size_t(tile) * std::size_t(g.bins) + row[sourceColumn[std::size_t(x)]]];
        }
    }
    return histograms;
}

std::vector<std::uint16_t> claheLuts(const std::vector<std::uint32_t>& tileHistograms, const hd::ClaheGeometry& g)
{
    std::vector<std::uint16_t> luts(tileHistograms.size());
    const std::size_t bins = std::size_t(g.bins);
    for (std::size_t tile = 0; tile < std::size_t(g.tileCount()); ++tile) {
        const std::uint32_t* histogram = tileHistograms.data() + tile * bins;
        int clipped = 0;
        if (g.clipLimit > 0)
            for (std::size_t bin = 0; bin < bins; ++bin)
                clipped += std::max(int(histogram[bin]) - g.clipLimit, 0);
        int sum = 0;
        for (std::size_t bin = 0; bin < bins; ++bin) {
            const int count = int(histogram[bin]);
            sum += g.clipLimit > 0 ? hd::hdClaheRedistributed(count, int(bin), g.bins, g.clipLimit, clipped) : count;
            luts[tile * bins + bin] = std::uint16_t(hd::hdClaheLutValue(sum, g.lutScale, g.maxValue()));
        }
    }
    return luts;
}

template <class Sample>
ClaheImage<Sample> claheBlend(const ClaheImage<Sample>& image,
                              const std::vector<std::uint16_t>& luts,
                              const hd::ClaheGeometry& g)
{
    struct Axis
    {
        int lower, upper;
        float upperWeight, lowerWeight;
    };
    const auto axis = [](int x, float inverseTile, int tiles) {
        const float position = hd::hdClaheTilePosition(x, inverseTile);
        const int lower = int(std::floor(position));
        const float upperWeight = hd::hdClaheUpperWeight(position);
        return Axis{std::max(lower, 0), std::min(lower + 1, tiles - 1), upperWeight,
                    hd::hdClaheLowerWeight(upperWeight)};
    };
    std::vector<Axis> columns(std::size_t(g.width));
    for (int x = 0; x < g.width; ++x)
        columns[std::size_t(x)] = axis(x, g.inverseTileWidth, g.tilesX);

    ClaheImage<Sample> result{image.width, image.height, std::vector<Sample>(image.samples.size())};
    const std::size_t bins = std::size_t(g.bins);
    for (int y = 0; y < g.height; ++y) {
        const Axis row = axis(y, g.inverseTileHeight, g.tilesY);
        const std::uint16_t* topPlane = luts.data() + std::size_t(row.lower) * std::size_t(g.tilesX) * bins;
        const std::uint16_t* bottomPlane = luts.data() + std::size_t(row.upper) * std::size_t(g.tilesX) * bins;
        for (int x = 0; x < g.width; ++x) {
            const std::size_t index = std::size_t(y) * std::size_t(g.width) + std::size_t(x);
            const std::size_t value = image.samples[index];
            const Axis& column = columns[std::size_t(x)];
            const std::size_t left = std::size_t(column.lower) * bins + value;
            const std::size_t right = std::size_t(column.upper) * bins + value;
            const float blended = hd::hdClaheBlend(float(topPlane[left]), float(topPlane[right]), float(bottomPlane[left]),
                                                   float(bottomPlane[right]), column.upperWeight, column.lowerWeight,
                                                   row.upperWeight, row.lowerWeight);
            result.samples[index] = Sample(hd::hdClaheSaturate(blended, g.maxValue()));
        }
    }
    return result;
}

template <class Sample>
ClaheImage<Sample> clahe(const ClaheImage<Sample>& image, double clipLimit, int tilesX, int tilesY)
{
    const hd::ClaheGeometry geometry =
        hd::claheGeometry(image.width, image.height, tilesX, tilesY, clipLimit, claheBins<Sample>());
    return claheBlend(image, claheLuts(claheTileHistograms(image, geometry), geometry), geometry);
}

template std::vector<std::uint32_t> claheTileHistograms(const ClaheImage<std::uint8_t>&, const hd::ClaheGeometry&);
template std::vector<std::uint32_t> claheTileHistograms(const ClaheImage<std::uint16_t>&, const hd::ClaheGeometry&);
template ClaheImage<std::uint8_t> claheBlend(const ClaheImage<std::uint8_t>&,
                                             const std::vector<std::uint16_t>&,
                                             const hd::ClaheGeometry&);
template ClaheImage<std::uint16_t> claheBlend(const ClaheImage<std::uint16_t>&,
                                              const std::vector<std::uint16_t>&,
                                              const hd::ClaheGeometry&);
template ClaheImage<std::uint8_t> clahe(const ClaheImage<std::uint8_t>&, double, int, int);
template ClaheImage<std::uint16_t> clahe(const ClaheImage<std::uint16_t>&, double, int, int);

}  // namespace ref
