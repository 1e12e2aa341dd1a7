#include "support/ClaheCases.h"

#include <algorithm>
#include <cmath>
#include <random>

namespace testing_support {

std::string ClaheCase::describe() const
{
    static const char* const kContent[] = {"constant", "two-level", "noise", "photo-like"};
    return std::to_string(width) + "x" + std::to_string(height) + " grid " + std::to_string(tilesX) + "x" +
           std::to_string(tilesY) + " clip " + std::to_string(clipLimit) + (sixteenBit ? " 16-bit " : " 8-bit ") +
           kContent[int(content)] + " seed " + std::to_string(seed);
}

std::vector<ClaheCase> randomClaheCases(std::uint32_t seed, int count, int maxSide, int maxSixteenBitTiles)
{
    std::mt19937 rng(seed);
    const auto uniform = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    std::vector<ClaheCase> cases;
    for (int i = 0; i < count; ++i) {
        ClaheCase c;
        // Mostly small images (many configurations a second), one in ten up to maxSide, and sides of
        // one pixel now and then.
        const int side = i % 10 == 0 ? maxSide : std::min(maxSide, 160);
        c.width = uniform(0, 15) == 0 ? 1 : uniform(1, side);
        c.height = uniform(0, 15) == 0 ? 1 : uniform(1, side);
        c.sixteenBit = uniform(0, 3) == 0;
        c.tilesX = uniform(1, hd::kClaheMaxTiles);
        const int maxTilesY = c.sixteenBit ? std::clamp(maxSixteenBitTiles / c.tilesX, 1, hd::kClaheMaxTiles)
                                           : hd::kClaheMaxTiles;
        c.tilesY = uniform(1, maxTilesY);
        if (uniform(0, 1))
            std::swap(c.tilesX, c.tilesY);
        const int clipKind = uniform(0, 4);
        c.clipLimit = clipKind == 0 ? 0.0
                      : clipKind == 1 ? std::uniform_real_distribution<double>(0.001, 2.0)(rng)
                                      : std::uniform_real_distribution<double>(0.0, 100.0)(rng);
        c.content = ClaheContent(uniform(0, 3));
        c.seed = rng();
        cases.push_back(c);
    }
    return cases;
}

std::vector<ClaheCase> fixedClaheCases()
{
    std::vector<ClaheCase> cases;
    const auto add = [&](int w, int h, int tx, int ty, double clip, bool sixteen, ClaheContent content) {
        cases.push_back({w, h, tx, ty, clip, sixteen, content, std::uint32_t(cases.size() + 7)});
    };
    for (bool sixteen : {false, true}) {
        add(1, 1, 1, 1, 40.0, sixteen, ClaheContent::Noise);
        add(1, 1, 8, 8, 40.0, sixteen, ClaheContent::Noise);
        add(1, 37, 16, 16, 2.0, sixteen, ClaheContent::PhotoLike);
        add(53, 1, 16, 3, 0.0, sixteen, ClaheContent::TwoLevel);
        add(64, 61, 8, 8, 40.0, sixteen, ClaheContent::PhotoLike);  // width divides, height does not
        add(61, 64, 8, 8, 40.0, sixteen, ClaheContent::PhotoLike);  // height divides, width does not
        add(64, 64, 8, 8, 40.0, sixteen, ClaheContent::Noise);      // no padding
        add(100, 80, 8, 8, 1e-9, sixteen, ClaheContent::Noise);     // a limit of less than one count: 1
        add(40, 40, 2, 2, 3.0, sixteen, ClaheContent::Constant);
    }
    add(1920, 1081, 16, 16, 40.0, false, ClaheContent::PhotoLike);  // 1081 rows: tw = 121, not 120
    add(1500, 1500, 64, 64, 4.0, false, ClaheContent::Noise);
    add(7, 5, 64, 64, 40.0, false, ClaheContent::Noise);  // pads far wider than the image
    return cases;
}

namespace {

template <class Sample>
ref::ClaheImage<Sample> makeImage(const ClaheCase& c, int maxValue)
{
    std::mt19937 rng(c.seed);
    ref::ClaheImage<Sample> image{c.width, c.height, std::vector<Sample>(std::size_t(c.width) * std::size_t(c.height))};
    const int low = std::uniform_int_distribution<int>(0, maxValue)(rng);
    const int high = std::uniform_int_distribution<int>(0, maxValue)(rng);
    for (int y = 0; y < c.height; ++y)
        for (int x = 0; x < c.width; ++x) {
            int value = 0;
            switch (c.content) {
            case ClaheContent::Constant: value = low; break;
            case ClaheContent::TwoLevel: value = std::uniform_int_distribution<int>(0, 3)(rng) == 0 ? high : low; break;
            case ClaheContent::Noise: value = std::uniform_int_distribution<int>(0, maxValue)(rng); break;
            case ClaheContent::PhotoLike: {
                // A dim, smooth scene with a bright patch and grain: most values in a narrow band.
                const double u = double(x) / std::max(1, c.width), v = double(y) / std::max(1, c.height);
                double level = 0.15 + 0.1 * std::sin(6.0 * u) * std::cos(4.0 * v) + (u > 0.6 && v < 0.3 ? 0.6 : 0.0);
                level += std::normal_distribution<double>(0.0, 0.01)(rng);
                value = int(std::lround(std::clamp(level, 0.0, 1.0) * maxValue));
                break;
            }
            }
            image.samples[std::size_t(y) * std::size_t(c.width) + std::size_t(x)] = Sample(value);
        }
    return image;
}

}  // namespace

ref::ClaheImage<std::uint8_t> claheImage8(const ClaheCase& c)
{
    return makeImage<std::uint8_t>(c, 255);
}

ref::ClaheImage<std::uint16_t> claheImage16(const ClaheCase& c)
{
    return makeImage<std::uint16_t>(c, 65535);
}

}  // namespace testing_support
