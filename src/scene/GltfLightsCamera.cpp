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
    // The planes are checked as the floats the renderer uses: a double znear of 1e-50 is 0 in float.
    const float nearPlane = float(c.perspective.znear), farPlane = float(c.perspective.zfar);
    if (finite(nearPlane) && nearPlane > 0.0f)
        camera.nearPlane = nearPlane;
    if (finite(farPlane) && farPlane > camera.nearPlane)
        camera.farPlane = farPlane;
    else if (finite(camera.nearPlane * 1e4f))
        camera.farPlane = camera.nearPlane * 1e4f;  // glTF's infinite projection (no zfar), made finite
    if (!(camera.farPlane > camera.nearPlane)) {
        mImport.warn("camera " + std::to_string(index) + " has unusable clip planes; the defaults are used");
        camera.nearPlane = Camera{}.nearPlane;
        camera.farPlane = Camera{}.farPlane;
    }
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
    // In double: the box of finite float vertices can be wider than the largest float (-3e38 .. 3e38).
    const glm::dvec3 centre = 0.5 * (glm::dvec3(low) + glm::dvec3(high));
    // The bounding sphere of the box; a point or a flat line still gets a finite distance.
    const double radius = std::max(0.5 * glm::length(glm::dvec3(high) - glm::dvec3(low)), 1e-3);
    Camera& camera = mImport.scene.camera;
    const double halfFov = glm::radians(0.5 * double(camera.verticalFovDegrees));
    const double distance = 1.1 * radius / std::sin(halfFov);  // the sphere within the vertical view, 10 % margin
    constexpr float kFramingPitchDegrees = -20.0f;
    const glm::dvec3 position = centre - distance * glm::dvec3(directionFromYawPitch(0.0f, kFramingPitchDegrees));
    const float nearPlane = float(std::max(distance - 2.0 * radius, 1e-3 * distance));
    const float farPlane = float(std::max(distance + 2.0 * radius, double(nearPlane) * 2.0));
    const glm::vec3 floatPosition(position);
    if (!(finite(floatPosition.x) && finite(floatPosition.y) && finite(floatPosition.z) && nearPlane > 0.0f &&
          finite(farPlane) && farPlane > nearPlane)) {
        mImport.warn("has no camera, and its bounds are too large to frame in float: the default camera is used");
        return;
    }
    camera.yawDegrees = 0.0f;
    camera.pitchDegrees = kFramingPitchDegrees;
    camera.position = floatPosition;
    camera.nearPlane = nearPlane;
    camera.farPlane = farPlane;
    mImport.scene.cameraPath = {};
    char text[200];
    std::snprintf(
        text, sizeof text,
        "has no camera: framed its bounds (centre %.3g %.3g %.3g, radius %.3g m) from %.3g m, looking along -Z "
        "20 degrees down",
        centre.x, centre.y, centre.z, radius, distance);
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
