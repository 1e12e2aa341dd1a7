// Scene.h: the in-memory scene (materials, primitive objects, sun, sky, ambient, lights, camera and
// camera path) and the functions that load it from the JSON format of docs/SCENE_FORMAT.md.
//
// Units are scene-linear and roughly photometric: luminances in cd/m², illuminance in lux, point
// light intensity in cd, lengths in metres, angles in degrees. Colours are linear Rec.709 RGB; the
// "color" of a light or emitter is normalised on load to luminance 1 so that its strength lives in
// one number. Errors throw SceneError naming the file, the line and the problem.
#pragma once

#include "scene/Camera.h"

#include <glm/vec3.hpp>

#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace scene {

/// A scene that cannot be loaded: "file:line: what is wrong" (or "file:line:column: syntax error").
class SceneError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

struct Material
{
    std::string name;
    glm::vec3 baseColor{0.5f};       ///< linear albedo (dielectric) or F0 (metal), each in [0, 1]
    float roughness = 0.5f;          ///< perceptual roughness in [0, 1] (GGX alpha = roughness²)
    float metalness = 0.0f;          ///< [0, 1]
    glm::vec3 emissionColor{1.0f};   ///< normalised to luminance 1
    float emissionLuminance = 0.0f;  ///< cd/m²
};

enum class PrimitiveType { Box, Plane, Sphere, Cylinder };
std::string_view toString(PrimitiveType type);

struct Object
{
    std::string name;
    PrimitiveType type = PrimitiveType::Box;
    glm::vec3 position{0.0f};         ///< centre, metres
    glm::vec3 rotationDegrees{0.0f};  ///< applied about X, then Y, then Z (world axes)
    glm::vec3 size{1.0f};             ///< box: full extents; plane: x and z extents (y unused)
    float radius = 0.5f;              ///< sphere, cylinder
    float height = 1.0f;              ///< cylinder (along its local Y)
    int material = 0;                 ///< index into Scene::materials
    bool castsShadow = true;
};

struct Sun
{
    float azimuthDegrees = 0.0f;     ///< direction towards the sun, yaw convention of the camera
    float elevationDegrees = 45.0f;  ///< above the horizon
    float illuminance = 100000.0f;   ///< lux on a surface facing the sun
    glm::vec3 color{1.0f};           ///< normalised to luminance 1
    float angularRadiusDegrees = 0.265f;
    int shadowMapSize = 2048;
    /// Optional world-space box the shadow map covers; by default the shadow casters' bounds.
    std::optional<std::pair<glm::vec3, glm::vec3>> shadowBounds;

    glm::vec3 direction() const;  ///< unit vector towards the sun
};

enum class SkyModel { CieClear, CieOvercast };
std::string_view toString(SkyModel model);

/// An equirectangular environment map that replaces the analytic sky (background and ambient light,
/// see scene/EnvironmentLighting.h). The file is read when the renderer is built.
struct EnvironmentMap
{
    std::string path;                   ///< as written in the scene file
    std::filesystem::path sceneFolder;  ///< folder of the scene file (empty for the built-in scene)
    int line = 0;                       ///< line of the "environment" field, for error messages
    float intensity = 1.0f;             ///< multiplies the stored values to give cd/m²
    float rotationDegrees = 0.0f;       ///< yaw of the map about +Y, camera yaw convention
};

struct Sky
{
    SkyModel model = SkyModel::CieClear;
    float zenithLuminance = 5000.0f;             ///< cd/m²
    glm::vec3 zenithColor{0.55f, 0.75f, 1.25f};  ///< normalised to luminance 1
    glm::vec3 horizonColor{0.9f, 1.0f, 1.1f};    ///< normalised to luminance 1
    float groundAlbedo = 0.2f;                   ///< what the sky shader shows below the horizon
    std::optional<EnvironmentMap> environment;   ///< set: drawn and used for lighting instead
};

/// Ambient (constant, hemispherical) radiance standing in for indirect light. Points with open sky
/// straight above get `outdoor`, covered points (under a roof) `indoor`.
struct Ambient
{
    glm::vec3 outdoor{800.0f};  ///< cd/m² per channel
    glm::vec3 indoor{0.1f};     ///< cd/m² per channel
};

/// An unshadowed point light (lamps light rooms through it; emitters only glow).
struct PointLight
{
    glm::vec3 position{0.0f};
    float intensity = 100.0f;  ///< cd
    glm::vec3 color{1.0f};     ///< normalised to luminance 1
    float range = 10.0f;       ///< metres; falls smoothly to zero at the range
};

inline constexpr int kMaxPointLights = 16;

struct Scene
{
    std::string sourceName;  ///< file path or "scenes/default.json (built in)"
    std::string description;
    std::vector<Material> materials;
    std::vector<Object> objects;
    std::vector<PointLight> lights;
    Sun sun;
    Sky sky;
    Ambient ambient;
    Camera camera;          ///< fov, near/far and the start pose
    CameraPath cameraPath;  ///< may be empty: the camera then stays at its start pose

    /// The camera at time `seconds` of the path (the start pose if there is no path).
    Camera cameraAt(double seconds) const { return cameraPath.evaluate(seconds, camera); }
};

/// Parses scene JSON; `sourceName` prefixes every error message; `folder` is where relative file
/// paths in the scene are looked up first (the scene file's folder; empty: only the data root).
Scene parseScene(std::string_view text, const std::string& sourceName, const std::filesystem::path& folder = {});
/// Reads and parses a scene file.
Scene loadSceneFile(const std::filesystem::path& path);
/// The built-in scene (scenes/default.json compiled into the binary).
Scene defaultScene();
/// The text of the built-in scene.
std::string_view defaultSceneText();

}  // namespace scene
