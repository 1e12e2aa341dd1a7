// GltfLightsCamera.cpp: glTF lights and camera into the scene (see GltfLightsCamera.h).
#include "scene/GltfLightsCamera.h"

#include <glm/common.hpp>
#include <glm/geometric.hpp>
#include <glm/mat3x3.hpp>
#include <glm/trigonometric.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace scene::gltf {

void GltfLightsCamera::importCamera(int index, const glm::mat4& world, const std::string& nodeWhat)
{
    if (std::size_t(index) >= mImport.model.cameras.size())
        mImport.fail(nodeWhat + " refers to camera " + std::to_string(index) + ", which does not exist");
    if (mCameraTaken)
        return;
    const tinygltf::Camera& c = mImport.model.cameras[std::size_t(index)];
    if (c.type != "perspective") {
        mImport.warn("camera " + std::to_string(index) + " is not perspective and is ignored");
        return;
    }
    mCameraTaken = true;
    Camera& camera = mImport.scene.camera;
    float fov = glm::degrees(float(c.perspective.yfov));
    if (finite(fov) && fov > 0.0f && fov < 179.0f)
        camera.verticalFovDegrees = fov;
    if (c.perspective.znear > 0.0 && std::isfinite(c.perspective.znear))
        camera.nearPlane = float(c.perspective.znear);
    if (c.perspective.zfar > c.perspective.znear && std::isfinite(c.perspective.zfar))
        camera.farPlane = float(c.perspective.zfar);
    if (!(camera.farPlane > camera.nearPlane))
        camera.farPlane = camera.nearPlane * 1e4f;
    camera.position = glm::vec3(world[3]);
    glm::vec3 forward = glm::mat3(world) * glm::vec3(0, 0, -1);
    if (glm::dot(forward, forward) > 1e-12f) {
        forward = glm::normalize(forward);
        camera.yawDegrees = glm::degrees(std::atan2(forward.x, -forward.z));
        camera.pitchDegrees = std::clamp(glm::degrees(std::asin(std::clamp(forward.y, -1.0f, 1.0f))), -89.9f, 89.9f);
    }
    mImport.scene.cameraPath = {};
}

void GltfLightsCamera::frameMeshes()
{
    glm::vec3 low(std::numeric_limits<float>::max()), high(-std::numeric_limits<float>::max());
    for (const ImportedMesh& mesh : mImport.scene.meshes)
        for (const MeshVertex& vertex : mesh.vertices) {
            low = glm::min(low, vertex.position);
            high = glm::max(high, vertex.position);
        }
    if (!(low.x <= high.x))
        return;  // no vertex: loadGltfScene refuses the file anyway
    const glm::vec3 centre = 0.5f * (low + high);
    // The bounding sphere of the box; a point or a flat line still gets a finite distance.
    const float radius = std::max(0.5f * glm::length(high - low), 1e-3f);
    Camera& camera = mImport.scene.camera;
    const float halfFov = glm::radians(0.5f * camera.verticalFovDegrees);
    const float distance = 1.1f * radius / std::sin(halfFov);  // the sphere within the vertical view, 10 % margin
    constexpr float kFramingPitchDegrees = -20.0f;
    camera.yawDegrees = 0.0f;
    camera.pitchDegrees = kFramingPitchDegrees;
    camera.position = centre - distance * directionFromYawPitch(camera.yawDegrees, camera.pitchDegrees);
    camera.nearPlane = std::max(distance - 2.0f * radius, 1e-3f * distance);
    camera.farPlane = std::max(distance + 2.0f * radius, camera.nearPlane * 2.0f);
    mImport.scene.cameraPath = {};
    char text[200];
    std::snprintf(
        text, sizeof text,
        "has no camera: framed its bounds (centre %.3g %.3g %.3g, radius %.3g m) from %.3g m, looking along -Z "
        "20 degrees down",
        double(centre.x), double(centre.y), double(centre.z), double(radius), double(distance));
    mImport.warn(text);
}

void GltfLightsCamera::importLight(int index, const glm::mat4& world, const std::string& nodeWhat)
{
    if (index < 0 || std::size_t(index) >= mImport.model.lights.size())
        mImport.fail(nodeWhat + " refers to light " + std::to_string(index) + ", which does not exist");
    const tinygltf::Light& light = mImport.model.lights[std::size_t(index)];
    std::string what = "light " + std::to_string(index);
    auto color = mImport.factor<3>(light.color, {1, 1, 1}, what + " color");
    glm::vec3 rgb = glm::max(glm::vec3(color[0], color[1], color[2]), 0.0f);
    float luminance = luminanceOf(rgb);
    float intensity = float(light.intensity) * luminance;
    if (!finite(intensity) || intensity < 0.0f)
        mImport.fail(what + " has a negative or non-finite intensity");
    glm::vec3 hue = luminance > 0.0f ? rgb / luminance : glm::vec3(1.0f);
    if (light.type == "directional") {
        if (mSunTaken) {
            mImport.warn(what + ": only the first directional light becomes the sun; this one is ignored");
            return;
        }
        mSunTaken = true;
        glm::vec3 towards = glm::mat3(world) * glm::vec3(0, 0, 1);  // the light shines along -Z
        if (!(glm::dot(towards, towards) > 1e-12f))
            mImport.fail(what + " has a degenerate direction");
        towards = glm::normalize(towards);
        Sun& sun = mImport.scene.sun;
        sun.illuminance = intensity;  // lux
        sun.color = hue;
        sun.azimuthDegrees = glm::degrees(std::atan2(towards.x, -towards.z));
        sun.elevationDegrees = glm::degrees(std::asin(std::clamp(towards.y, -1.0f, 1.0f)));
        return;
    }
    if (light.type == "spot")
        mImport.warn(what + " is a spot light, drawn as a point light");
    else if (light.type != "point")
        mImport.fail(what + " has unknown type '" + printable(light.type) + "'");
    if (mImport.scene.lights.size() >= std::size_t(kMaxPointLights)) {
        mImport.warn(what + ": at most " + std::to_string(kMaxPointLights) + " point lights are supported; ignored");
        return;
    }
    PointLight point;
    point.position = glm::vec3(world[3]);
    point.intensity = intensity;  // cd
    point.color = hue;
    // glTF range 0 means infinite: stop where the illuminance falls to 0.01 lux.
    float range = light.range > 0.0 && std::isfinite(light.range) ? float(light.range)
                                                                  : std::sqrt(std::max(intensity, 1e-6f) / 0.01f);
    point.range = std::clamp(range, 0.01f, 1e4f);
    mImport.scene.lights.push_back(point);
}

}  // namespace scene::gltf
