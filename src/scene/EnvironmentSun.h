// EnvironmentSun.h: the sun of a photographed (or any) equirectangular environment map, found as
// its brightest region, so that a scene can make it the analytic sun ("sun": {"fromEnvironment":
// true}) as the generated maps' known suns are: a shadowed key light, removed from the image-based
// light so it is counted once.
//
// Technique: the region grown from the map's brightest texel over its 8-neighbours (yaw wraps)
// whose luminance is at least the geometric mean of the peak and the map's median (halfway between
// sky and sun on a log scale, so the threshold does not depend on the map's units), within
// kMaxSunRegionDegrees of the peak. Its luminance-weighted mean direction is the sun's direction,
// its solid angle gives the disc's angular radius (the disc of equal solid angle), the sum of
// radiance times solid angle its illuminance and colour. A map whose peak is less than
// kMinSunContrast times its median has no distinct sun (overcast, interiors).
// Limits: one sun; a photographed sun is usually clipped by the camera, so the measured illuminance
// is a lower bound (a scene may state its own, docs/SCENE_FORMAT.md); lens flare connected to the
// disc above the threshold counts as sun.
#pragma once

#include "image/Image.h"

#include <glm/vec3.hpp>

#include <optional>
#include <string>

namespace scene {

struct Scene;
struct Sun;

inline constexpr double kMinSunContrast = 1000.0;     ///< peak over median luminance, at least
inline constexpr double kMaxSunRegionDegrees = 10.0;  ///< the region stays within this of the peak

struct EnvironmentSunEstimate
{
    glm::vec3 mapDirection{0.0f, 1.0f, 0.0f};  ///< unit, in the map's frame (before the scene's turn)
    double solidAngle = 0.0;                   ///< sr, of the region's texels
    glm::dvec3 illuminance{0.0};               ///< rgb, sum of radiance x solid angle (map units x sr)
    double extentRadians = 0.0;                ///< farthest region texel centre from the direction
    int texels = 0;
    double peakLuminance = 0.0;
    double medianLuminance = 0.0;

    double luminance() const;             ///< of `illuminance`: the illuminance on a surface facing the sun
    double angularRadiusRadians() const;  ///< of the disc with the region's solid angle
};

/// The brightest region of `map` (cd/m², row 0 = zenith), or nothing when the map has no distinct
/// sun; `why` (optional) then says what was found instead.
std::optional<EnvironmentSunEstimate> findEnvironmentSun(const image::ImageF& map, std::string* why = nullptr);

/// Makes `sun` the estimate's: azimuth and elevation (the map turned by `rotationDegrees`, as the
/// renderer turns it), angular radius, colour, the mask extent, and the illuminance unless the
/// scene stated one (Sun::measureIlluminance).
void applyEnvironmentSun(Sun& sun, const EnvironmentSunEstimate& estimate, float rotationDegrees);

/// For a scene whose sun is "fromEnvironment": finds the sun in its loaded environment map (cd/m²)
/// and applies it; throws SceneError "scene:line: ... no distinct sun ..." when the map has none.
void takeSunFromEnvironment(Scene& scene, const image::ImageF& map);

}  // namespace scene
