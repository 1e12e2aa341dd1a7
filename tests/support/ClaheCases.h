// ClaheCases.h: the CLAHE configurations every backend is checked on (OpenCV against the CPU
// reference in tests/reference/ClaheOracleTest.cpp; the GL and CUDA backends against the CPU
// reference): seeded random sizes (1..1500 a side, 1-pixel sides and sizes no grid divides), grids
// (1..64 tiles an axis), clip limits (0 and random positive values), 8-bit and 16-bit samples, and
// constant, two-level, noise and photo-like images; plus fixed corner cases. Deterministic: case i
// of a seed is always the same image.
#pragma once

#include "reference/Clahe.h"

#include <cstdint>
#include <string>
#include <vector>

namespace testing_support {

enum class ClaheContent { Constant, TwoLevel, Noise, PhotoLike };

struct ClaheCase
{
    int width = 1, height = 1;
    int tilesX = 8, tilesY = 8;
    double clipLimit = 40.0;
    bool sixteenBit = false;
    ClaheContent content = ClaheContent::Noise;
    std::uint32_t seed = 1;

    std::string describe() const;
};

/// `count` random cases from `seed`. 16-bit cases keep tilesX * tilesY <= `maxSixteenBitTiles`
/// (each tile holds a 65536-bin histogram and LUT); `maxSide` bounds the sides (tests that run on a
/// software GL renderer ask for smaller images).
std::vector<ClaheCase> randomClaheCases(std::uint32_t seed, int count, int maxSide = 1500, int maxSixteenBitTiles = 256);

/// The fixed corner cases: 1x1, 1xN and Nx1 with large grids, sizes where only one side divides
/// (OpenCV pads both), the default 8x8 grid at a size it divides, clip limits around 1 count.
std::vector<ClaheCase> fixedClaheCases();

ref::ClaheImage<std::uint8_t> claheImage8(const ClaheCase& c);
ref::ClaheImage<std::uint16_t> claheImage16(const ClaheCase& c);

}  // namespace testing_support
