// Camera and camera path tests: interpolation hits the keyframes, is deterministic, loops and clamps.
#include "scene/Camera.h"
#include "scene/Scene.h"

#include <gtest/gtest.h>
#include <glm/geometric.hpp>

namespace {

scene::CameraPath makePath(scene::PathInterpolation interpolation, scene::PathWrap wrap)
{
    scene::CameraPath path;
    path.interpolation = interpolation;
    path.wrap = wrap;
    path.keyframes = {{0.0, {0, 0, 0}, 0.0f, 0.0f}, {2.0, {2, 0, 0}, 90.0f, 10.0f}, {6.0, {2, 0, -4}, 180.0f, 0.0f}};
    return path;
}

TEST(SceneCameraPath, PassesThroughKeyframes)
{
    for (auto interpolation : {scene::PathInterpolation::Linear, scene::PathInterpolation::CatmullRom}) {
        scene::CameraPath path = makePath(interpolation, scene::PathWrap::Clamp);
        for (const scene::CameraKeyframe& k : path.keyframes) {
            scene::Camera c = path.evaluate(k.time, {});
            EXPECT_NEAR(glm::length(c.position - k.position), 0.0f, 1e-5f);
            EXPECT_NEAR(c.yawDegrees, k.yawDegrees, 1e-4f);
            EXPECT_NEAR(c.pitchDegrees, k.pitchDegrees, 1e-4f);
        }
    }
}

TEST(SceneCameraPath, LinearIsLinearAndCatmullRomIsSmooth)
{
    scene::CameraPath linear = makePath(scene::PathInterpolation::Linear, scene::PathWrap::Clamp);
    scene::Camera mid = linear.evaluate(1.0, {});
    EXPECT_NEAR(mid.position.x, 1.0f, 1e-6f);
    EXPECT_NEAR(mid.yawDegrees, 45.0f, 1e-5f);

    // Catmull-Rom: the velocity is continuous across a keyframe (finite differences either side).
    scene::CameraPath smooth = makePath(scene::PathInterpolation::CatmullRom, scene::PathWrap::Clamp);
    const double h = 1e-3;
    glm::vec3 before = (smooth.evaluate(2.0, {}).position - smooth.evaluate(2.0 - h, {}).position) / float(h);
    glm::vec3 after = (smooth.evaluate(2.0 + h, {}).position - smooth.evaluate(2.0, {}).position) / float(h);
    EXPECT_NEAR(glm::length(before - after), 0.0f, 0.02f);
}

TEST(SceneCameraPath, IsDeterministic)
{
    scene::CameraPath path = makePath(scene::PathInterpolation::CatmullRom, scene::PathWrap::Loop);
    for (double t = -3.0; t < 20.0; t += 0.37) {
        scene::Camera a = path.evaluate(t, {});
        scene::Camera b = path.evaluate(t, {});
        EXPECT_EQ(a.position, b.position);
        EXPECT_EQ(a.yawDegrees, b.yawDegrees);
    }
}

TEST(SceneCameraPath, LoopWrapsAndClampHolds)
{
    scene::CameraPath loop = makePath(scene::PathInterpolation::Linear, scene::PathWrap::Loop);
    EXPECT_NEAR(glm::length(loop.evaluate(7.0, {}).position - loop.evaluate(1.0, {}).position), 0.0f, 1e-5f);
    EXPECT_NEAR(glm::length(loop.evaluate(-5.0, {}).position - loop.evaluate(1.0, {}).position), 0.0f, 1e-5f);
    scene::CameraPath clamp = makePath(scene::PathInterpolation::Linear, scene::PathWrap::Clamp);
    EXPECT_EQ(clamp.evaluate(100.0, {}).position, glm::vec3(2, 0, -4));
    EXPECT_EQ(clamp.evaluate(-1.0, {}).position, glm::vec3(0, 0, 0));
}

TEST(SceneCameraPath, KeepsLensSettingsAndTheDefaultScenePathStartsAtTheCamera)
{
    scene::Camera base;
    base.verticalFovDegrees = 40.0f;
    base.farPlane = 77.0f;
    scene::Camera c = makePath(scene::PathInterpolation::CatmullRom, scene::PathWrap::Loop).evaluate(3.0, base);
    EXPECT_EQ(c.verticalFovDegrees, 40.0f);
    EXPECT_EQ(c.farPlane, 77.0f);

    scene::Scene s = scene::defaultScene();
    scene::Camera start = s.cameraAt(0.0);
    EXPECT_EQ(start.position, s.cameraPath.keyframes.front().position);
    // The default path loops seamlessly: its end pose looks the same way as its start.
    scene::Camera end = s.cameraAt(s.cameraPath.duration() - 1e-6);
    EXPECT_NEAR(glm::length(end.forward() - start.forward()), 0.0f, 1e-3f);
}

TEST(SceneCamera, ConventionsAndMatrices)
{
    scene::Camera c;
    c.position = {1, 2, 3};
    EXPECT_NEAR(glm::length(c.forward() - glm::vec3(0, 0, -1)), 0.0f, 1e-6f);
    c.yawDegrees = 90.0f;
    EXPECT_NEAR(glm::length(c.forward() - glm::vec3(1, 0, 0)), 0.0f, 1e-6f);
    c.pitchDegrees = 30.0f;
    glm::vec4 ahead = c.projection(16.0f / 9.0f) * c.view() * glm::vec4(c.position + 5.0f * c.forward(), 1.0f);
    EXPECT_NEAR(ahead.x / ahead.w, 0.0f, 1e-5f);
    EXPECT_NEAR(ahead.y / ahead.w, 0.0f, 1e-5f);
    EXPECT_GT(ahead.w, 0.0f);
}

}  // namespace
