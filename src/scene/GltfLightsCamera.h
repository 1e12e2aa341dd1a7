// GltfLightsCamera.h: a glTF file's lights and camera into the scene, for glTF files loaded as whole
// scenes (GltfImportOptions::takeLightsAndCamera). KHR_lights_punctual: the first directional
// light becomes the sun (illuminance in lux, its colour's hue, azimuth and elevation from the node's
// -Z), point lights become point lights (intensity in cd, range 0 meaning "until 0.01 lux"), spot
// lights become point lights with a warning, at most kMaxPointLights. The first perspective camera
// sets the scene camera (position, yaw and pitch from the node, vertical field of view, near and far
// planes) and clears the camera path; other cameras are ignored with a warning. A file without a
// perspective camera gets one framing its meshes' bounds (frameMeshes), as glTF viewers do (three.js's
// editor and glTF viewers, Blender's "frame all"): the bounding sphere fills the vertical field of view,
// seen from the +Z side 20 degrees above, with near and far planes around the sphere; a warning says so.
// Internal to the glTF import (GltfLoader.cpp).
#pragma once

#include "scene/GltfImport.h"

#include <glm/mat4x4.hpp>

#include <string>

namespace scene::gltf {

class GltfLightsCamera
{
public:
    explicit GltfLightsCamera(GltfImport& import) : mImport(import) {}

    /// Camera `index` of the node whose world transform is `world`; `nodeWhat` names the node.
    void importCamera(int index, const glm::mat4& world, const std::string& nodeWhat);
    /// KHR_lights_punctual light `index` of the node whose world transform is `world`.
    void importLight(int index, const glm::mat4& world, const std::string& nodeWhat);
    /// Whether a perspective camera of the file set the scene camera.
    bool cameraTaken() const { return mCameraTaken; }
    /// Points the scene camera at the bounds of the scene's meshes (no camera in the file); nothing
    /// without a vertex. Clears the camera path.
    void frameMeshes();

private:
    GltfImport& mImport;
    bool mCameraTaken = false;
    bool mSunTaken = false;
};

}  // namespace scene::gltf
