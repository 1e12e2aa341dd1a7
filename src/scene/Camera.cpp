// Camera.cpp: camera matrices and camera path evaluation (see Camera.h).
#include "scene/Camera.h"

#include <glm/gtc/matrix_transform.hpp>
#include <glm/trigonometric.hpp>

#include <algorithm>
#include <cmath>

namespace scene {

glm::vec3 directionFromYawPitch(float yawDegrees, float pitchDegrees)
{
    float yaw = glm::radians(yawDegrees);
    float pitch = glm::radians(pitchDegrees);
    return {std::cos(pitch) * std::sin(yaw), std::sin(pitch), -std::cos(pitch) * std::cos(yaw)};
}

glm::vec3 Camera::forward() const
{
    return directionFromYawPitch(yawDegrees, pitchDegrees);
}

glm::vec3 Camera::right() const
{
    float yaw = glm::radians(yawDegrees);
    return {std::cos(yaw), 0.0f, std::sin(yaw)};
}

glm::mat4 Camera::view() const
{
    glm::vec3 f = forward();
    // Near the poles lookAt's up vector degenerates; derive up from the yaw-only right vector.
    glm::vec3 up = glm::cross(right(), f);
    return glm::lookAt(position, position + f, up);
}

glm::mat4 Camera::projection(float aspect) const
{
    return glm::perspective(glm::radians(verticalFovDegrees), std::max(aspect, 1e-6f), nearPlane, farPlane);
}

namespace {

struct Sample
{
    glm::vec3 position;
    float yaw;
    float pitch;
};

Sample sampleOf(const CameraKeyframe& k)
{
    return {k.position, k.yawDegrees, k.pitchDegrees};
}

Sample lerp(const Sample& a, const Sample& b, float s)
{
    return {a.position + (b.position - a.position) * s, a.yaw + (b.yaw - a.yaw) * s, a.pitch + (b.pitch - a.pitch) * s};
}

// Catmull-Rom tangent for non-uniform keyframe times: the central difference over the neighbours,
// one-sided at the ends of the path.
Sample tangentAt(const std::vector<CameraKeyframe>& keys, std::size_t i)
{
    std::size_t before = i == 0 ? 0 : i - 1;
    std::size_t after = std::min(i + 1, keys.size() - 1);
    float dt = float(keys[after].time - keys[before].time);
    if (dt <= 0.0f)
        return {glm::vec3(0.0f), 0.0f, 0.0f};
    Sample a = sampleOf(keys[before]);
    Sample b = sampleOf(keys[after]);
    return {(b.position - a.position) / dt, (b.yaw - a.yaw) / dt, (b.pitch - a.pitch) / dt};
}

// Cubic Hermite between keys i and i+1 at s in [0, 1].
Sample hermite(const std::vector<CameraKeyframe>& keys, std::size_t i, float s)
{
    float h = float(keys[i + 1].time - keys[i].time);
    Sample p0 = sampleOf(keys[i]);
    Sample p1 = sampleOf(keys[i + 1]);
    Sample m0 = tangentAt(keys, i);
    Sample m1 = tangentAt(keys, i + 1);
    float s2 = s * s;
    float s3 = s2 * s;
    float h00 = 2 * s3 - 3 * s2 + 1;
    float h10 = s3 - 2 * s2 + s;
    float h01 = -2 * s3 + 3 * s2;
    float h11 = s3 - s2;
    return {h00 * p0.position + h10 * h * m0.position + h01 * p1.position + h11 * h * m1.position,
            h00 * p0.yaw + h10 * h * m0.yaw + h01 * p1.yaw + h11 * h * m1.yaw,
            h00 * p0.pitch + h10 * h * m0.pitch + h01 * p1.pitch + h11 * h * m1.pitch};
}

}  // namespace

Camera CameraPath::evaluate(double seconds, const Camera& base) const
{
    Camera camera = base;
    if (keyframes.empty())
        return camera;
    Sample sample = sampleOf(keyframes.front());
    double start = keyframes.front().time;
    double length = duration();
    double t = seconds;
    if (!std::isfinite(t))
        t = start;
    if (wrap == PathWrap::Loop && length > 0.0) {
        t = std::fmod(t - start, length);
        if (t < 0.0)
            t += length;
        t += start;
    }
    if (keyframes.size() > 1 && t > start) {
        if (t >= keyframes.back().time) {
            sample = sampleOf(keyframes.back());
        } else {
            auto next = std::upper_bound(keyframes.begin(), keyframes.end(), t,
                                         [](double value, const CameraKeyframe& k) { return value < k.time; });
            std::size_t i = std::size_t(next - keyframes.begin()) - 1;
            float s = float((t - keyframes[i].time) / (keyframes[i + 1].time - keyframes[i].time));
            sample = interpolation == PathInterpolation::Linear
                         ? lerp(sampleOf(keyframes[i]), sampleOf(keyframes[i + 1]), s)
                         : hermite(keyframes, i, s);
        }
    }
    camera.position = sample.position;
    camera.yawDegrees = sample.yaw;
    camera.pitchDegrees = std::clamp(sample.pitch, -89.9f, 89.9f);
    return camera;
}

}  // namespace scene
