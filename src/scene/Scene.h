// Scene.h: the in-memory scene (materials, textures, primitive objects, imported glTF meshes, sun,
// sky, ambient, lights, camera and camera path) and the functions that load it from the JSON format
// of docs/SCENE_FORMAT.md or from a glTF 2.0 file (scene/GltfLoader.h).
//
// Units are scene-linear and roughly photometric: luminances in cd/m², illuminance in lux, point
// light intensity in cd, lengths in metres, angles in degrees. Colours are linear Rec.709 RGB; the
// "color" of a light or emitter is normalised on load to luminance 1 so that its strength lives in
// one number. Errors throw SceneError naming the file, the line and the problem.
#pragma once

#include "image/Image.h"
#include "scene/Camera.h"

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include <cstdint>
#include <filesystem>
#include <memory>
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

enum class TextureWrap { Repeat, ClampToEdge, MirroredRepeat };

/// An RGBA8 texture of a material (glTF imports only). Colour textures (base colour, emissive) are
/// sRGB-encoded, data textures (metallic-roughness, normal, occlusion) linear.
struct Texture
{
    std::string name;
    std::shared_ptr<const image::Image8> image;  ///< 4 channels, shared between colour-space variants
    bool srgb = false;
    TextureWrap wrapS = TextureWrap::Repeat;
    TextureWrap wrapT = TextureWrap::Repeat;
};

enum class AlphaMode { Opaque, Mask };

/// Indices into Scene::textures; -1 where the material has no such texture.
struct MaterialTextures
{
    int baseColor = -1;          ///< rgb multiplies baseColor, a multiplies baseAlpha
    int metallicRoughness = -1;  ///< g multiplies roughness, b metalness (glTF layout)
    int normal = -1;             ///< tangent-space normal map
    int emissive = -1;           ///< rgb multiplies the emission
    int occlusion = -1;          ///< r: ambient occlusion (applies to the ambient term only)

    bool any() const
    {
        return baseColor >= 0 || metallicRoughness >= 0 || normal >= 0 || emissive >= 0 || occlusion >= 0;
    }
};

struct Material
{
    std::string name;
    glm::vec3 baseColor{0.5f};       ///< linear albedo (dielectric) or F0 (metal), each in [0, 1]
    float roughness = 0.5f;          ///< perceptual roughness in [0, 1] (GGX alpha = roughness²)
    float metalness = 0.0f;          ///< [0, 1]
    glm::vec3 emissionColor{1.0f};   ///< normalised to luminance 1
    float emissionLuminance = 0.0f;  ///< cd/m²
    // glTF materials only (the JSON format's materials keep these defaults):
    MaterialTextures textures;
    float baseAlpha = 1.0f;  ///< coverage for AlphaMode::Mask
    AlphaMode alphaMode = AlphaMode::Opaque;
    float alphaCutoff = 0.5f;  ///< Mask: fragments with alpha below are cut (also from shadows)
    float normalScale = 1.0f;
    float occlusionStrength = 1.0f;
    bool doubleSided = false;

    /// Drawn in the shared untextured batch (single-sided, opaque, no textures).
    bool plain() const { return !textures.any() && alphaMode == AlphaMode::Opaque && !doubleSided; }
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

/// One vertex of the scene's world-space triangle mesh (procedural primitives and glTF imports).
struct MeshVertex
{
    glm::vec3 position;
    glm::vec3 normal;
    glm::vec2 texcoord{0.0f};
    glm::vec4 tangent{0.0f};  ///< xyz unit tangent, w bitangent sign; all 0: no tangent frame
    float material = 0.0f;    ///< material index, as a float so that one float attribute format serves all
};

/// A glTF mesh primitive baked into world space (one per node instance), one material.
struct ImportedMesh
{
    std::string name;
    std::vector<MeshVertex> vertices;
    std::vector<std::uint32_t> indices;  ///< triangles, counter-clockwise seen from the front
    int material = 0;
    bool castsShadow = true;
};

/// A JSON scene's reference to a glTF model (an "objects" entry with a "gltf" field); loadSceneFile
/// imports it, parseScene only records it.
struct ModelReference
{
    std::string name;
    std::string file;  ///< as written, relative to the scene file's folder
    int line = 0;      ///< where the reference is, for error messages
    glm::vec3 position{0.0f};
    glm::vec3 rotationDegrees{0.0f};  ///< about X, then Y, then Z (world axes), like objects
    glm::vec3 scale{1.0f};
    bool castsShadow = true;
    float emissiveLuminance = 1000.0f;  ///< cd/m² of glTF emissive 1.0 (kDefaultGltfEmissiveLuminance)
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
    /// Direction, angular radius, colour and (unless stated) illuminance come from the brightest
    /// region of the sky's environment map (scene/EnvironmentSun.h); the renderer fills them in
    /// when it loads the map.
    bool fromEnvironment = false;
    bool measureIlluminance = false;  ///< fromEnvironment without a stated "illuminance"
    float maskExtentDegrees = 0.0f;   ///< the map's sun region reaches this far from the direction

    glm::vec3 direction() const;  ///< unit vector towards the sun
    /// The disc's luminance (cd/m^2): a uniform disc of the angular radius delivering the illuminance.
    float discLuminance() const;
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

/// A rectangular opening (window, door) in a room's walls, through which daylight enters: the
/// rectangle lies in its local XY plane (width along X, height along Y) and faces local +Z, into
/// the room, before `rotationDegrees` (about X, then Y, then Z) and `position` place it.
struct Opening
{
    std::string name;
    glm::vec3 position{0.0f};  ///< centre, m
    glm::vec2 size{1.0f};      ///< width and height, m
    glm::vec3 rotationDegrees{0.0f};
};

inline constexpr int kMaxOpenings = 8;

/// A room lit through its openings ("interior"): the estimate of its indirect light
/// (scene/InteriorLight.h) replaces nothing and adds to `ambient.indoor` inside `min`..`max`.
struct Interior
{
    glm::vec3 min{0.0f};  ///< the room's air volume (the floor at min.y), m
    glm::vec3 max{0.0f};
    glm::vec3 reflectance{0.5f};    ///< mean albedo of the room's surfaces, each < 1 (interreflection)
    glm::vec3 floorAlbedo{0.3f};    ///< where sunlight through the openings lands
    float scale = 1.0f;             ///< multiplies the estimate (1: as computed)
    std::vector<Opening> openings;  ///< 1 to kMaxOpenings
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

/// What a preset states about its frames ("dynamicRange"): the preset tests render it and check.
struct StatedRange
{
    double atLeast = 0.0;         ///< 99.9th / 0.1th percentile of the positive finite luminances, at least
    bool uniform = false;         ///< every pixel has the same luminance
    double maxLitFraction = 1.0;  ///< at most this share of the pixels has luminance > 0
    double peakLuminance = 0.0;   ///< cd/m² of the brightest pixel the scene describes (0: no claim)
};

/// Pixels overwritten in the HDR frame after the scene renders ("inject", a stress preset's NaN,
/// +Inf and negative pixels; scene/PixelInjection.h).
struct PixelInjection
{
    int nan = 0;
    int inf = 0;
    int negative = 0;
    int total() const { return nan + inf + negative; }
};

inline constexpr int kMaxInjectedPixels = 65536;  ///< per kind

struct Scene
{
    std::string sourceName;  ///< file path or "scenes/default.json (built in)"
    std::string description;
    std::vector<Material> materials;
    std::vector<Object> objects;
    std::vector<ModelReference> models;  ///< not yet imported references (parseScene output)
    std::vector<ImportedMesh> meshes;    ///< imported glTF geometry, world space
    std::vector<Texture> textures;
    std::vector<PointLight> lights;
    Sun sun;
    Sky sky;
    Ambient ambient;
    Camera camera;          ///< fov, near/far and the start pose
    CameraPath cameraPath;  ///< may be empty: the camera then stays at its start pose
    std::optional<StatedRange> statedRange;
    PixelInjection inject;
    std::optional<Interior> interior;  ///< indirect light of a room through its openings

    /// The camera at time `seconds` of the path (the start pose if there is no path).
    Camera cameraAt(double seconds) const { return cameraPath.evaluate(seconds, camera); }
};

/// Parses scene JSON; `sourceName` prefixes every error message; `folder` is where relative file
/// paths in the scene are looked up first (the scene file's folder; empty: only the data root).
/// glTF model references are listed in Scene::models, not imported (see importModels).
Scene parseScene(std::string_view text, const std::string& sourceName, const std::filesystem::path& folder = {});
/// Reads a scene file: a glTF 2.0 file (.gltf/.glb, or glTF binary magic) through the glTF loader,
/// anything else as scene JSON, whose glTF model references are then imported (paths relative to
/// the scene file's folder).
Scene loadSceneFile(const std::filesystem::path& path);
/// Imports the glTF models `scene.models` references (paths relative to sceneFile's folder) and
/// clears the list; loadSceneFile calls it. Errors name the scene file and line, then the model.
void importModels(Scene& scene, const std::filesystem::path& sceneFile);
/// The built-in scene (scenes/default.json compiled into the binary).
Scene defaultScene();
/// The text of the built-in scene.
std::string_view defaultSceneText();

}  // namespace scene
