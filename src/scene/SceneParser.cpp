// SceneParser.cpp: JSON scene text -> scene::Scene, with file:line error messages.
//
// Every object in the file is read through a FieldReader (SceneFieldReader.h) that knows the keys
// its context allows, so a typo is reported as an unknown field with the list of valid ones, and
// every value is type- and range-checked where it is read. The format itself is documented in
// docs/SCENE_FORMAT.md.
#include "scene/GltfLoader.h"
#include "scene/Scene.h"
#include "scene/SceneFieldReader.h"
#include "util/JsonReader.h"
#include "util/PrintableText.h"

#include <glm/ext/matrix_transform.hpp>
#include <glm/trigonometric.hpp>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <initializer_list>
#include <limits>
#include <map>
#include <numbers>
#include <sstream>

extern const char kDefaultSceneJson[];

namespace scene {
namespace {
using fields::FieldReader;
using fields::formatNumber;
using fields::kAny;
using fields::kMaxEchoedBytes;
using fields::kNonNegative;
using fields::kPositive;
using fields::kUnit;
using fields::quotedName;
using fields::Range;

class SceneParser
{
public:
    SceneParser(std::string sourceName, std::filesystem::path folder)
        : mSource(std::move(sourceName)), mFolder(std::move(folder))
    {
    }

    Scene parse(std::string_view text)
    {
        util::JsonValue root;
        try {
            root = util::parseJson(text);
        } catch (const util::JsonSyntaxError& e) {
            throw SceneError(util::escapeControlCharacters(mSource) + ":" + std::to_string(e.position().line) + ":" +
                             std::to_string(e.position().column) +
                             ": syntax error: " + util::escapeControlCharacters(e.what(), false, kMaxEchoedBytes));
        }
        FieldReader top(mSource, root, "the scene",
                        {"description", "materials", "objects", "lights", "sun", "sky", "ambient", "interior", "camera",
                         "cameraPath", "dynamicRange", "inject"});
        Scene scene;
        scene.sourceName = mSource;
        scene.description = top.string("description", "");
        readMaterials(top, scene);
        readObjects(top, scene);
        if (const util::JsonValue* lights = top.find("lights"))
            readLights(top, *lights, scene);
        if (const util::JsonValue* sun = top.find("sun"))
            scene.sun = readSun(*sun);
        if (const util::JsonValue* sky = top.find("sky"))
            scene.sky = readSky(*sky);
        if (const util::JsonValue* ambient = top.find("ambient"))
            scene.ambient = readAmbient(*ambient);
        if (const util::JsonValue* interior = top.find("interior"))
            scene.interior = readInterior(*interior);
        if (scene.sun.fromEnvironment && !scene.sky.environment)
            top.fail(*top.find("sun")->find("fromEnvironment"),
                     "\"fromEnvironment\" in \"sun\" needs an environment map (\"environment\" in \"sky\")");
        if (const util::JsonValue* path = top.find("cameraPath"))
            scene.cameraPath = readPath(*path);
        scene.camera = readCamera(top.find("camera"), scene.cameraPath);
        if (const util::JsonValue* range = top.find("dynamicRange"))
            scene.statedRange = readStatedRange(*range);
        if (const util::JsonValue* inject = top.find("inject"))
            scene.inject = readInjection(*inject);
        return scene;
    }

private:
    void readMaterials(const FieldReader& top, Scene& scene)
    {
        const util::JsonValue& materials = top.require("materials");
        top.expectKind(materials, util::JsonValue::Kind::Object, "\"materials\"");
        if (materials.members.empty())
            top.fail(materials, "\"materials\" must define at least one material");
        for (const util::JsonMember& member : materials.members) {
            FieldReader f(mSource, *member.value, "material " + quotedName(member.key),
                          {"baseColor", "roughness", "metalness", "emissionColor", "emissionLuminance"});
            Material m;
            m.name = member.key;
            m.baseColor = f.vec3("baseColor", m.baseColor, kUnit);
            m.roughness = f.number("roughness", m.roughness, kUnit);
            m.metalness = f.number("metalness", m.metalness, kUnit);
            m.emissionColor = f.hue("emissionColor", m.emissionColor);
            m.emissionLuminance = f.number("emissionLuminance", m.emissionLuminance, kNonNegative);
            mMaterialIndex[m.name] = int(scene.materials.size());
            scene.materials.push_back(m);
        }
    }

    void readObjects(const FieldReader& top, Scene& scene)
    {
        const util::JsonValue& objects = top.require("objects");
        top.expectKind(objects, util::JsonValue::Kind::Array, "\"objects\"");
        if (objects.items.empty())
            top.fail(objects, "\"objects\" must contain at least one object");
        int index = 0;
        for (const util::JsonValue& item : objects.items) {
            const util::JsonValue* nameValue = item.kind == util::JsonValue::Kind::Object ? item.find("name") : nullptr;
            std::string context = "object " + std::to_string(index);
            if (nameValue && nameValue->kind == util::JsonValue::Kind::String)
                context += " (" + quotedName(nameValue->string) + ")";
            if (item.kind == util::JsonValue::Kind::Object && item.find("gltf"))
                scene.models.push_back(readModel(item, context));
            else
                scene.objects.push_back(readObject(item, context));
            ++index;
        }
    }

    ModelReference readModel(const util::JsonValue& item, const std::string& context)
    {
        FieldReader f(mSource, item, context,
                      {"name", "gltf", "position", "rotation", "scale", "castsShadow", "emissiveLuminance"});
        ModelReference m;
        m.name = f.string("name", "");
        const util::JsonValue& file = f.require("gltf");
        f.expectKind(file, util::JsonValue::Kind::String, f.field("gltf"));
        if (file.string.empty())
            f.fail(file, f.field("gltf") + " must name a .gltf or .glb file");
        m.file = file.string;
        m.line = item.position.line;
        m.position = f.vec3("position", m.position);
        m.rotationDegrees = f.vec3("rotation", m.rotationDegrees);
        if (const util::JsonValue* scale = f.find("scale")) {
            if (scale->kind == util::JsonValue::Kind::Number)
                m.scale = glm::vec3(float(f.checkedNumber(*scale, f.field("scale"), kPositive)));
            else
                m.scale = f.vec3(*scale, f.field("scale"), kPositive);
        }
        m.castsShadow = f.boolean("castsShadow", m.castsShadow);
        m.emissiveLuminance = f.number("emissiveLuminance", m.emissiveLuminance, kNonNegative);
        return m;
    }

    Object readObject(const util::JsonValue& item, const std::string& context)
    {
        // Only the shape fields of the object's type are accepted, so e.g. a sphere's "size" is an error.
        FieldReader probe(mSource, item, context, {});
        Object o;
        o.type = probe.choice<PrimitiveType>("type", PrimitiveType::Box,
                                             {{"box", PrimitiveType::Box},
                                              {"plane", PrimitiveType::Plane},
                                              {"sphere", PrimitiveType::Sphere},
                                              {"cylinder", PrimitiveType::Cylinder}});
        probe.require("type");
        auto reader = [&]() {
            switch (o.type) {
                case PrimitiveType::Box:
                case PrimitiveType::Plane:
                    return FieldReader(mSource, item, context,
                                       {"name", "type", "material", "position", "rotation", "size", "castsShadow"});
                case PrimitiveType::Sphere:
                    return FieldReader(mSource, item, context,
                                       {"name", "type", "material", "position", "rotation", "radius", "castsShadow"});
                case PrimitiveType::Cylinder:
                    break;
            }
            return FieldReader(mSource, item, context,
                               {"name", "type", "material", "position", "rotation", "radius", "height", "castsShadow"});
        };
        FieldReader f = reader();
        o.name = f.string("name", "");
        o.position = f.vec3("position", o.position);
        o.rotationDegrees = f.vec3("rotation", o.rotationDegrees);
        o.castsShadow = f.boolean("castsShadow", o.castsShadow);
        if (o.type == PrimitiveType::Box) {
            o.size = f.vec3(f.require("size"), f.field("size"), kPositive);
        } else if (o.type == PrimitiveType::Plane) {
            const util::JsonValue& size = f.require("size");
            f.expectKind(size, util::JsonValue::Kind::Array, f.field("size"));
            if (size.items.size() != 2)
                f.fail(size, f.field("size") + " must be an array of 2 numbers (x and z extents), got " +
                                 std::to_string(size.items.size()) + " elements");
            o.size = {float(f.checkedNumber(size.items[0], f.field("size") + "[0]", kPositive)), 0.0f,
                      float(f.checkedNumber(size.items[1], f.field("size") + "[1]", kPositive))};
        } else {
            f.require("radius");
            o.radius = f.number("radius", o.radius, kPositive);
            if (o.type == PrimitiveType::Cylinder) {
                f.require("height");
                o.height = f.number("height", o.height, kPositive);
            }
        }
        const util::JsonValue& material = f.require("material");
        f.expectKind(material, util::JsonValue::Kind::String, f.field("material"));
        auto found = mMaterialIndex.find(material.string);
        if (found == mMaterialIndex.end())
            f.fail(material, f.field("material") + " names unknown material \"" + material.string + "\"");
        o.material = found->second;
        return o;
    }

    void readLights(const FieldReader& top, const util::JsonValue& lights, Scene& scene)
    {
        top.expectKind(lights, util::JsonValue::Kind::Array, "\"lights\"");
        if (lights.items.size() > std::size_t(kMaxPointLights))
            top.fail(lights, "\"lights\" has " + std::to_string(lights.items.size()) + " lights, at most " +
                                 std::to_string(kMaxPointLights) + " are supported");
        int index = 0;
        for (const util::JsonValue& item : lights.items) {
            FieldReader f(mSource, item, "light " + std::to_string(index++),
                          {"position", "intensity", "color", "range"});
            PointLight light;
            light.position = f.vec3(f.require("position"), f.field("position"), kAny);
            light.intensity = f.number("intensity", light.intensity, kNonNegative);
            light.color = f.hue("color", light.color);
            light.range = f.number("range", light.range, kPositive);
            scene.lights.push_back(light);
        }
    }

    Sun readSun(const util::JsonValue& value)
    {
        FieldReader f(mSource, value, "\"sun\"",
                      {"azimuth", "elevation", "illuminance", "color", "angularRadius", "shadowMapSize", "shadowBounds",
                       "fromEnvironment"});
        Sun sun;
        sun.fromEnvironment = f.boolean("fromEnvironment", false);
        if (sun.fromEnvironment) {
            for (const char* key : {"azimuth", "elevation", "color", "angularRadius"})
                if (const util::JsonValue* given = f.find(key))
                    f.fail(*given, f.field(key) + " comes from the environment map with \"fromEnvironment\"");
            sun.measureIlluminance = !f.has("illuminance");
        }
        sun.azimuthDegrees = f.number("azimuth", sun.azimuthDegrees, kAny);
        sun.elevationDegrees = f.number("elevation", sun.elevationDegrees, Range{-90.0, 90.0});
        sun.illuminance = f.number("illuminance", sun.illuminance, kNonNegative);
        sun.color = f.hue("color", sun.color);
        sun.angularRadiusDegrees = f.number("angularRadius", sun.angularRadiusDegrees, Range{0.0, 10.0, true});
        sun.shadowMapSize = f.integer("shadowMapSize", sun.shadowMapSize, Range{16.0, 8192.0});
        if (const util::JsonValue* bounds = f.find("shadowBounds")) {
            FieldReader b(mSource, *bounds, "\"sun\".\"shadowBounds\"", {"min", "max"});
            glm::vec3 lo = b.vec3(b.require("min"), b.field("min"), kAny);
            glm::vec3 hi = b.vec3(b.require("max"), b.field("max"), kAny);
            if (!(glm::all(glm::lessThan(lo, hi))))
                b.fail(*bounds, "\"shadowBounds\" \"min\" must be below \"max\" on every axis");
            sun.shadowBounds = std::make_pair(lo, hi);
        }
        return sun;
    }

    Sky readSky(const util::JsonValue& value)
    {
        FieldReader f(mSource, value, "\"sky\"",
                      {"model", "zenithLuminance", "zenithColor", "horizonColor", "groundAlbedo", "environment",
                       "intensity", "rotationDegrees"});
        Sky sky;
        sky.model = f.choice<SkyModel>("model", sky.model,
                                       {{"cie-clear", SkyModel::CieClear}, {"cie-overcast", SkyModel::CieOvercast}});
        sky.zenithLuminance = f.number("zenithLuminance", sky.zenithLuminance, kNonNegative);
        sky.zenithColor = f.hue("zenithColor", sky.zenithColor);
        sky.horizonColor = f.hue("horizonColor", sky.horizonColor);
        sky.groundAlbedo = f.number("groundAlbedo", sky.groundAlbedo, kUnit);
        if (const util::JsonValue* environment = f.find("environment")) {
            f.expectKind(*environment, util::JsonValue::Kind::String, f.field("environment"));
            if (environment->string.empty())
                f.fail(*environment, f.field("environment") + " must name an image file, got \"\"");
            EnvironmentMap map;
            map.path = environment->string;
            map.sceneFolder = mFolder;
            map.line = environment->position.line;
            map.intensity = f.number("intensity", map.intensity, kPositive);
            map.rotationDegrees = f.number("rotationDegrees", map.rotationDegrees, Range{-360.0, 360.0});
            sky.environment = map;
        } else {
            for (const char* key : {"intensity", "rotationDegrees"})
                if (const util::JsonValue* orphan = f.find(key))
                    f.fail(*orphan, f.field(key) + " only applies with \"environment\" (an environment map file)");
        }
        return sky;
    }

    Interior readInterior(const util::JsonValue& value)
    {
        FieldReader f(mSource, value, "\"interior\"",
                      {"min", "max", "reflectance", "floorAlbedo", "scale", "openings"});
        Interior interior;
        interior.min = f.vec3(f.require("min"), f.field("min"), kAny);
        interior.max = f.vec3(f.require("max"), f.field("max"), kAny);
        if (!glm::all(glm::lessThan(interior.min, interior.max)))
            f.fail(value, "\"interior\" \"min\" must be below \"max\" on every axis");
        // A mean reflectance of 1 would keep the light forever (the interreflection's 1 / (1 - r)).
        interior.reflectance = f.vec3("reflectance", interior.reflectance, Range{0.0, 0.95});
        interior.floorAlbedo = f.vec3("floorAlbedo", interior.floorAlbedo, kUnit);
        interior.scale = f.number("scale", interior.scale, kNonNegative);
        const util::JsonValue& openings = f.require("openings");
        f.expectKind(openings, util::JsonValue::Kind::Array, f.field("openings"));
        if (openings.items.empty() || openings.items.size() > std::size_t(kMaxOpenings))
            f.fail(openings, f.field("openings") + " must list 1 to " + std::to_string(kMaxOpenings) +
                                 " openings, got " + std::to_string(openings.items.size()));
        int index = 0;
        for (const util::JsonValue& item : openings.items) {
            FieldReader o(mSource, item, "opening " + std::to_string(index++),
                          {"name", "position", "size", "rotation"});
            Opening opening;
            opening.name = o.string("name", "");
            opening.position = o.vec3(o.require("position"), o.field("position"), kAny);
            const util::JsonValue& size = o.require("size");
            o.expectKind(size, util::JsonValue::Kind::Array, o.field("size"));
            if (size.items.size() != 2)
                o.fail(size, o.field("size") + " must be an array of 2 numbers (width and height), got " +
                                 std::to_string(size.items.size()) + " elements");
            opening.size = {float(o.checkedNumber(size.items[0], o.field("size") + "[0]", kPositive)),
                            float(o.checkedNumber(size.items[1], o.field("size") + "[1]", kPositive))};
            opening.rotationDegrees = o.vec3("rotation", opening.rotationDegrees);
            interior.openings.push_back(opening);
        }
        return interior;
    }

    Ambient readAmbient(const util::JsonValue& value)
    {
        FieldReader f(mSource, value, "\"ambient\"", {"outdoor", "indoor"});
        Ambient ambient;
        ambient.outdoor = f.vec3("outdoor", ambient.outdoor, kNonNegative);
        ambient.indoor = f.vec3("indoor", ambient.indoor, kNonNegative);
        return ambient;
    }

    StatedRange readStatedRange(const util::JsonValue& value)
    {
        FieldReader f(mSource, value, "\"dynamicRange\"", {"atLeast", "uniform", "maxLitFraction", "peakLuminance"});
        StatedRange range;
        range.atLeast = f.number64("atLeast", range.atLeast, kNonNegative);
        range.uniform = f.boolean("uniform", range.uniform);
        range.maxLitFraction = f.number64("maxLitFraction", range.maxLitFraction, kUnit);
        range.peakLuminance = f.number64("peakLuminance", range.peakLuminance, kNonNegative);
        return range;
    }

    PixelInjection readInjection(const util::JsonValue& value)
    {
        FieldReader f(mSource, value, "\"inject\"", {"nan", "inf", "negative"});
        const Range count{0.0, double(kMaxInjectedPixels), false};
        PixelInjection inject;
        inject.nan = f.integer("nan", 0, count);
        inject.inf = f.integer("inf", 0, count);
        inject.negative = f.integer("negative", 0, count);
        return inject;
    }

    CameraKeyframe readKeyframe(const util::JsonValue& value, int index)
    {
        FieldReader f(mSource, value, "keyframe " + std::to_string(index), {"time", "position", "yaw", "pitch"});
        CameraKeyframe k;
        f.require("time");
        k.time = f.number64("time", 0.0, kAny);
        k.position = f.vec3(f.require("position"), f.field("position"), kAny);
        k.yawDegrees = f.number("yaw", 0.0f, kAny);
        k.pitchDegrees = f.number("pitch", 0.0f, Range{-89.9, 89.9});
        return k;
    }

    CameraPath readPath(const util::JsonValue& value)
    {
        FieldReader f(mSource, value, "\"cameraPath\"", {"interpolation", "wrap", "keyframes"});
        CameraPath path;
        path.interpolation = f.choice<PathInterpolation>(
            "interpolation", path.interpolation,
            {{"catmull-rom", PathInterpolation::CatmullRom}, {"linear", PathInterpolation::Linear}});
        path.wrap = f.choice<PathWrap>("wrap", path.wrap, {{"loop", PathWrap::Loop}, {"clamp", PathWrap::Clamp}});
        const util::JsonValue& keys = f.require("keyframes");
        f.expectKind(keys, util::JsonValue::Kind::Array, f.field("keyframes"));
        if (keys.items.empty())
            f.fail(keys, f.field("keyframes") + " must contain at least one keyframe");
        for (const util::JsonValue& item : keys.items) {
            CameraKeyframe k = readKeyframe(item, int(path.keyframes.size()));
            if (!path.keyframes.empty() && !(k.time > path.keyframes.back().time))
                f.fail(item, "keyframe " + std::to_string(path.keyframes.size()) +
                                 ": \"time\" must be greater than the previous keyframe's (" +
                                 formatNumber(path.keyframes.back().time) + "), got " + formatNumber(k.time));
            path.keyframes.push_back(k);
        }
        return path;
    }

    Camera readCamera(const util::JsonValue* value, const CameraPath& path)
    {
        Camera camera;
        if (!path.empty()) {
            camera.position = path.keyframes.front().position;
            camera.yawDegrees = path.keyframes.front().yawDegrees;
            camera.pitchDegrees = path.keyframes.front().pitchDegrees;
        }
        if (!value)
            return camera;
        FieldReader f(mSource, *value, "\"camera\"", {"fov", "near", "far", "position", "yaw", "pitch"});
        camera.verticalFovDegrees = f.number("fov", camera.verticalFovDegrees, Range{0.0, 179.0, true});
        camera.nearPlane = f.number("near", camera.nearPlane, kPositive);
        camera.farPlane = f.number("far", camera.farPlane, kPositive);
        if (!(camera.farPlane > camera.nearPlane))
            f.fail(f.has("far") ? f.require("far") : *value, f.field("far") + " must be greater than \"near\" (" +
                                                                 formatNumber(camera.nearPlane) + "), got " +
                                                                 formatNumber(camera.farPlane));
        camera.position = f.vec3("position", camera.position);
        camera.yawDegrees = f.number("yaw", camera.yawDegrees, kAny);
        camera.pitchDegrees = f.number("pitch", camera.pitchDegrees, Range{-89.9, 89.9});
        return camera;
    }

    std::string mSource;
    std::filesystem::path mFolder;
    std::map<std::string, int> mMaterialIndex;
};

}  // namespace

std::string_view toString(PrimitiveType type)
{
    switch (type) {
        case PrimitiveType::Box:
            return "box";
        case PrimitiveType::Plane:
            return "plane";
        case PrimitiveType::Sphere:
            return "sphere";
        case PrimitiveType::Cylinder:
            return "cylinder";
    }
    return "?";
}

std::string_view toString(SkyModel model)
{
    return model == SkyModel::CieClear ? "cie-clear" : "cie-overcast";
}

glm::vec3 Sun::direction() const
{
    return directionFromYawPitch(azimuthDegrees, elevationDegrees);
}

float Sun::discLuminance() const
{
    // A uniform disc of solid angle 2*pi*(1 - cos r) delivering the illuminance.
    float radius = glm::radians(angularRadiusDegrees);
    float solidAngle = 2.0f * float(std::numbers::pi) * (1.0f - std::cos(radius));
    return illuminance / std::max(solidAngle, 1e-12f);
}

Scene parseScene(std::string_view text, const std::string& sourceName, const std::filesystem::path& folder)
{
    return SceneParser(sourceName, folder).parse(text);
}

Scene loadSceneFile(const std::filesystem::path& path)
{
    if (looksLikeGltf(path))
        return loadGltfScene(path);
    std::error_code folderCheck;
    if (std::filesystem::is_directory(path, folderCheck))  // opens fine, then reads as an empty file
        throw SceneError("cannot open scene file '" + path.string() + "': it is a folder, not a file");
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        int error = errno;
        throw SceneError("cannot open scene file '" + path.string() +
                         "': " + std::strerror(error != 0 ? error : ENOENT));
    }
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad())
        throw SceneError("cannot read scene file '" + path.string() + "'");
    // A bare file name lives in the working directory.
    Scene scene = parseScene(text.str(), path.string(), path.has_parent_path() ? path.parent_path() : ".");
    importModels(scene, path);
    return scene;
}

void importModels(Scene& scene, const std::filesystem::path& sceneFile)
{
    for (const ModelReference& model : scene.models) {
        GltfImportOptions options;
        glm::mat4 transform = glm::translate(glm::mat4(1.0f), model.position);
        transform = glm::rotate(transform, glm::radians(model.rotationDegrees.z), glm::vec3(0, 0, 1));
        transform = glm::rotate(transform, glm::radians(model.rotationDegrees.y), glm::vec3(0, 1, 0));
        transform = glm::rotate(transform, glm::radians(model.rotationDegrees.x), glm::vec3(1, 0, 0));
        options.transform = glm::scale(transform, model.scale);
        options.castsShadow = model.castsShadow;
        options.emissiveLuminance = model.emissiveLuminance;
        try {
            importGltf(sceneFile.parent_path() / model.file, scene, options);
        } catch (const SceneError& error) {
            throw SceneError(util::escapeControlCharacters(sceneFile.string()) + ":" + std::to_string(model.line) +
                             ": " + error.what());
        }
    }
    scene.models.clear();
}

std::string_view defaultSceneText()
{
    return kDefaultSceneJson;
}

Scene defaultScene()
{
    return parseScene(defaultSceneText(), "scenes/default.json (built in)");
}

}  // namespace scene
