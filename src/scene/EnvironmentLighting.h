// EnvironmentLighting.h: image-based lighting from an equirectangular environment map, split-sum
// style (Karis 2013): a diffuse irradiance map, a GGX-prefiltered radiance mip chain indexed by
// roughness, and a 2-D BRDF table (scale and bias applied to F0), all computed once on the GPU by
// compute shaders when the scene is built; shading then costs three texture lookups.
//
// Maps are equirectangular: row 0 is the zenith, the image centre looks down -Z (camera yaw 0),
// yaw grows towards +X to the right (EnvironmentSampling.glsl holds the GPU twin of the mapping).
// The map's sun is the scene's analytic sun's job: the lighting copy of the map has a cone around
// the scene's sun direction zeroed (the background keeps it), so sunlight is counted once and stays
// shadowed. Limits: no occlusion (the caller blends with its sky-occlusion term), prefiltered maps
// are 256x128 at roughness 0 (sharper reflections are blurred), maps up to 8192x4096.
#pragma once

#include "gl/Buffer.h"
#include "gl/Program.h"
#include "gl/Texture.h"
#include "image/Image.h"

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

#include <filesystem>
#include <optional>

namespace scene {

struct Scene;

inline constexpr int kMaxEnvironmentWidth = 8192;
inline constexpr int kMinEnvironmentWidth = 8;

/// Direction (unit, Y up) of texture coordinate `uv` of an equirectangular map (u right, v down).
glm::vec3 equirectDirection(glm::vec2 uv);
/// Texture coordinate of direction `d` (need not be unit); u in [0, 1), v in [0, 1].
glm::vec2 equirectUv(glm::vec3 d);
/// `worldDirection` in the map's frame when the map is turned by `rotationDegrees` of yaw.
glm::vec3 worldToMap(glm::vec3 worldDirection, float rotationDegrees);
/// Solid angle (sr) of one texel of row `row` of a width x height equirectangular map.
double equirectTexelSolidAngle(int row, int width, int height);

/// Where a scene's environment file is: an absolute path as is; a relative one in the scene
/// file's folder when it exists there, otherwise under the data root.
std::filesystem::path resolveEnvironmentPath(const Scene& scene, const std::filesystem::path& dataRoot);

/// Loads the scene's environment map (which must be set) scaled by its intensity, in cd/m².
/// Throws SceneError "scene:line: \"environment\" in \"sky\" ...: problem" for a missing or
/// unreadable file, a map that is not 2:1, too small or large, or holds NaN/Inf/negative values.
image::ImageF loadEnvironmentImage(const Scene& scene, const std::filesystem::path& dataRoot);

/// Zeroes every texel whose centre lies within `coneRadians` of `mapDirection` (sun removal).
void maskCone(image::ImageF& map, glm::vec3 mapDirection, float coneRadians);

struct EnvironmentOptions
{
    float rotationDegrees = 0.0f;
    /// The lighting copy of the map loses this cone (map frame) to the analytic sun; none: kept whole.
    std::optional<glm::vec3> sunMaskDirection;
    float sunMaskRadians = 0.0f;
};

/// What a scene asks for: its map's rotation, and a mask around its sun while the sun is up.
EnvironmentOptions environmentOptionsFor(const Scene& scene);

/// The radius of the cone actually masked in a map `mapHeight` texels high: the options' cone plus
/// half a texel. The background swaps the same cone for the analytic sun (EnvironmentLighting.glsl).
float maskedSunConeRadians(const EnvironmentOptions& options, int mapHeight);

class EnvironmentLighting
{
public:
    static constexpr glm::ivec2 kIrradianceSize{32, 16};
    static constexpr glm::ivec2 kSpecularSize{256, 128};
    static constexpr int kSpecularLevels = 6;  ///< level i holds perceptual roughness i / 5
    static constexpr int kBrdfLutSize = 64;    ///< x: n.v, y: roughness, at texel centres
    static constexpr int kSpecularSamples = 256;
    static constexpr int kBrdfSamples = 4096;
    /// Texture units and uniform block binding read by EnvironmentLighting.glsl.
    static constexpr GLuint kIrradianceUnit = 12;
    static constexpr GLuint kSpecularUnit = 13;
    static constexpr GLuint kBrdfUnit = 14;
    static constexpr GLuint kBackgroundUnit = 15;
    static constexpr GLuint kBlockBinding = 5;

    /// Uploads `map` (cd/m², row 0 = zenith) and runs the prefilter passes.
    EnvironmentLighting(const gl::ShaderLibrary& shaders, const image::ImageF& map, const EnvironmentOptions& options);

    /// Binds the maps and the environment block for the scene's shaders.
    void bind() const;

    const gl::Texture& background() const { return mBackground; }
    const gl::Texture& irradiance() const { return mIrradiance; }  ///< cosine-weighted mean radiance E / pi
    const gl::Texture& specular() const { return mSpecular; }
    const gl::Texture& brdfLut() const { return mBrdfLut; }

private:
    gl::Texture mBackground;  ///< the whole map, RGBA32F (sun values exceed half floats)
    gl::Texture mSource;      ///< the sun-masked lighting copy with its full mip chain
    gl::Texture mIrradiance;
    gl::Texture mSpecular;
    gl::Texture mBrdfLut;
    gl::Buffer mBlock;
};

}  // namespace scene
