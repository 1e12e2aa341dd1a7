#include "scene/PixelInjection.h"

#include "gl/Gl.h"
#include "gl/Texture.h"

#include <algorithm>
#include <cstdint>
#include <limits>

namespace scene {

std::vector<glm::ivec2> injectionPositions(glm::ivec2 size, int count)
{
    const std::int64_t pixels = std::int64_t(std::max(size.x, 0)) * std::max(size.y, 0);
    const std::int64_t n = std::clamp<std::int64_t>(count, 0, std::max<std::int64_t>(pixels - 1, 0));
    std::vector<glm::ivec2> positions;
    positions.reserve(std::size_t(n));
    for (std::int64_t k = 0; k < n; ++k) {
        const std::int64_t index = (k + 1) * pixels / (n + 1);
        positions.emplace_back(int(index % size.x), int(index / size.x));
    }
    return positions;
}

void injectPixels(const gl::Texture& target, const PixelInjection& inject)
{
    if (inject.total() == 0)
        return;
    constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
    constexpr float kInf = std::numeric_limits<float>::infinity();
    const float nan[4] = {kNaN, kNaN, kNaN, 1.0f};
    const float inf[4] = {kInf, kInf, kInf, 1.0f};
    const float negative[4] = {-1.0f, -1.0f, -1.0f, 1.0f};
    const std::vector<glm::ivec2> positions = injectionPositions(target.size(), inject.total());
    for (std::size_t k = 0; k < positions.size(); ++k) {
        const float* value = int(k) < inject.nan ? nan : int(k) < inject.nan + inject.inf ? inf : negative;
        glClearTexSubImage(target.id(), 0, positions[k].x, positions[k].y, 0, 1, 1, 1, GL_RGBA, GL_FLOAT, value);
    }
}

}  // namespace scene
