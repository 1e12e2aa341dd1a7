// Camera.h: a yaw/pitch perspective camera and the deterministic keyframed camera path.
//
// Conventions (also in docs/SCENE_FORMAT.md): right-handed, +Y up, metres, angles in degrees. Yaw 0
// looks along -Z, yaw 90 along +X; pitch 90 looks straight up. The path interpolates position, yaw
// and pitch independently (yaw is not wrapped: write 370 rather than 10 to keep turning), so a given
// time always gives the same pose and headless captures are reproducible.
#pragma once

#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>

#include <vector>

namespace scene {

struct Camera
{
    glm::vec3 position{0.0f, 1.6f, 0.0f};
    float yawDegrees = 0.0f;
    float pitchDegrees = 0.0f;
    float verticalFovDegrees = 60.0f;
    float nearPlane = 0.05f;
    float farPlane = 1000.0f;

    /// Unit view direction from yaw and pitch.
    glm::vec3 forward() const;
    glm::vec3 right() const;
    glm::mat4 view() const;
    /// OpenGL clip space (z in [-1, 1]); aspect = width / height.
    glm::mat4 projection(float aspect) const;
};

/// Direction for a yaw/pitch pair (the same convention as the camera and the sun).
glm::vec3 directionFromYawPitch(float yawDegrees, float pitchDegrees);

enum class PathInterpolation { Linear, CatmullRom };
enum class PathWrap { Clamp, Loop };

struct CameraKeyframe
{
    double time = 0.0;  ///< seconds, strictly increasing along the path
    glm::vec3 position{0.0f};
    float yawDegrees = 0.0f;
    float pitchDegrees = 0.0f;
};

struct CameraPath
{
    PathInterpolation interpolation = PathInterpolation::CatmullRom;
    PathWrap wrap = PathWrap::Loop;
    std::vector<CameraKeyframe> keyframes;

    bool empty() const { return keyframes.empty(); }
    double duration() const { return keyframes.empty() ? 0.0 : keyframes.back().time - keyframes.front().time; }
    /// The pose at `seconds`; fov/near/far come from `base`. An empty path returns `base`.
    Camera evaluate(double seconds, const Camera& base) const;
};

}  // namespace scene
