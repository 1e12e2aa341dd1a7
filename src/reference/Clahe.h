// Clahe.h: CPU reference of OpenCV's CLAHE (cv::createCLAHE(clipLimit, tileGridSize)->apply on
// CV_8UC1 and CV_16UC1 images, modules/imgproc/src/clahe.cpp, x86-64 builds), step by step so that
// the GPU backends can be checked stage by stage: the padded tile histograms, the clipped and
// redistributed histograms' LUTs, and the blended image. The arithmetic of every step is
// shaders/shared/Clahe.h's, which the GL and CUDA backends use too; tests/reference/ClaheOracleTest
// checks this reference against OpenCV itself. Limits: as shared/Clahe.h (grids of 1..64 tiles a side).
#pragma once

#include "shared/Clahe.h"

#include <cstdint>
#include <vector>

namespace ref {

/// A single-channel image of 8-bit or 16-bit samples, rows packed (width samples a row).
template <class Sample>
struct ClaheImage
{
    int width = 0, height = 0;
    std::vector<Sample> samples;
};

/// The tile histograms of the padded image: tileCount() x bins counts, tile (tx, ty) at row
/// ty * tilesX + tx.
template <class Sample>
std::vector<std::uint32_t> claheTileHistograms(const ClaheImage<Sample>& image, const hd::ClaheGeometry& geometry);

/// The tile LUTs from the tile histograms (clip, redistribution, running sum, scale): tileCount() x
/// bins values.
std::vector<std::uint16_t> claheLuts(const std::vector<std::uint32_t>& tileHistograms, const hd::ClaheGeometry& geometry);

/// The blend of the LUTs over the original image.
template <class Sample>
ClaheImage<Sample> claheBlend(const ClaheImage<Sample>& image,
                              const std::vector<std::uint16_t>& luts,
                              const hd::ClaheGeometry& geometry);

/// The whole of CLAHE: the geometry for this image (bins from the sample type), the histograms, the
/// LUTs, the blend.
template <class Sample>
ClaheImage<Sample> clahe(const ClaheImage<Sample>& image, double clipLimit, int tilesX, int tilesY);

/// 256 for 8-bit samples, 65536 for 16-bit.
template <class Sample>
constexpr int claheBins()
{
    return sizeof(Sample) == 1 ? hd::kClaheBins8 : hd::kClaheBins16;
}

}  // namespace ref
