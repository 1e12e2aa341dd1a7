// glTF rendering tests (GL, llvmpipe in CI): a textured, alpha-masked quad written by the test shows
// its texture's colours where expected and the sky through its cut-out; the cut-out also lets the
// sun through in the shadow pass.
#include "GltfTestFiles.h"

#include "scene/Scene.h"
#include "scene/SceneRenderer.h"
#include "shared/HostDevice.h"
#include "support/GlTestEnvironment.h"
#include "support/TestPaths.h"

#include <gtest/gtest.h>

#include <glm/glm.hpp>

#include <cmath>
#include <string>

namespace {

using namespace gltf_test;
using testing_support::GlTest;

class GltfRenderTest : public GlTest
{
protected:
    std::filesystem::path mFolder = testing_support::scratchDir("gltf-render");
};

/// 3x1 texture: opaque red, a transparent blue texel, opaque green.
image::Image8 redHoleGreen()
{
    image::Image8 texture(3, 1, 4);
    texture.pixels = {255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 255};
    return texture;
}

const std::string kMaskedMaterial =
    "{\"pbrMetallicRoughness\":{\"baseColorTexture\":{\"index\":0},\"metallicFactor\":0},"
    "\"alphaMode\":\"MASK\",\"alphaCutoff\":0.5,\"doubleSided\":true}";

struct Frame
{
    std::vector<float> rgba;
    glm::ivec2 size;
    glm::mat4 viewProjection;

    /// The colour where world point `p` lands.
    glm::vec3 at(glm::vec3 p) const
    {
        glm::vec4 clip = viewProjection * glm::vec4(p, 1.0f);
        glm::vec2 ndc = glm::vec2(clip) / clip.w;
        int x = std::clamp(int((ndc.x * 0.5f + 0.5f) * float(size.x)), 0, size.x - 1);
        int y = std::clamp(int((ndc.y * 0.5f + 0.5f) * float(size.y)), 0, size.y - 1);  // GL rows, bottom first
        std::size_t i = (std::size_t(y) * std::size_t(size.x) + std::size_t(x)) * 4;
        return {rgba[i], rgba[i + 1], rgba[i + 2]};
    }
};

Frame render(const scene::Scene& s, glm::ivec2 size)
{
    scene::SceneRenderer renderer(testing_support::shaderLibrary(), s);
    renderer.resize(size);
    scene::RenderOptions options;
    options.drawSunDisc = false;
    renderer.render(s.camera, options);
    return {renderer.hdrTarget().readRgbaFloat(), size,
            s.camera.projection(float(size.x) / float(size.y)) * s.camera.view()};
}

TEST_F(GltfRenderTest, TexturedQuadShowsItsColoursAndTheSkyThroughTheHole)
{
    // The quad faces the default camera (at y 1.6, looking along -Z) 2 m away (set here: a file
    // without a camera gets one framing its bounds from above, GltfLoaderTest).
    Builder b;
    std::string primitive = addQuad(b);
    auto path = mFolder / "quad.gltf";
    writeText(path, b.gltf(",\"nodes\":[{\"mesh\":0,\"translation\":[0,1.6,-2]}],\"meshes\":[{\"primitives\":[" +
                           primitive + "]}],\"materials\":[" + kMaskedMaterial +
                           "],\"textures\":[{\"source\":0}],\"images\":[{\"uri\":\"" +
                           pngDataUri(redHoleGreen(), mFolder) + "\"}]"));
    scene::Scene s = scene::loadSceneFile(path);
    s.camera = scene::Camera{};
    Frame frame = render(s, {96, 96});
    glm::vec3 red = frame.at({-2.0f / 3.0f, 1.6f, -2.0f});
    glm::vec3 hole = frame.at({0.0f, 1.6f, -2.0f});
    glm::vec3 green = frame.at({2.0f / 3.0f, 1.6f, -2.0f});
    for (glm::vec3 c : {red, hole, green})
        ASSERT_TRUE(std::isfinite(c.x) && std::isfinite(c.y) && std::isfinite(c.z));
    EXPECT_GT(red.x, 1.0f);
    EXPECT_GT(red.x, 10.0f * std::max(red.y, red.z)) << red.x << " " << red.y << " " << red.z;
    EXPECT_GT(green.y, 1.0f);
    EXPECT_GT(green.y, 10.0f * std::max(green.x, green.z)) << green.x << " " << green.y << " " << green.z;
    // Through the hole: the sky near the horizon, bluish white and brighter than the quad in the
    // shade, not the hidden texel's pure blue.
    EXPECT_GT(hole.z, hole.x) << hole.x << " " << hole.y << " " << hole.z;
    EXPECT_GT(hole.y, 0.5f * hole.z) << hole.x << " " << hole.y << " " << hole.z;
    EXPECT_GT(hole.y, red.x);
}

TEST_F(GltfRenderTest, AlphaMaskCutsTheShadowToo)
{
    // A masked quad lying flat 2 m above a white ground, the sun straight overhead: the ground under
    // the hole is sunlit, under the opaque texels it is in shadow.
    float s = std::sqrt(0.5f);
    std::string faceUp = "\"rotation\":[" + std::to_string(-s) + ",0,0," + std::to_string(s) + "]";
    Builder b;
    std::string quad = addQuad(b);
    std::string ground = quad;
    ground.replace(ground.rfind("\"material\":0"), 12, "\"material\":1");
    auto path = mFolder / "shadow.gltf";
    writeText(path, b.gltf(",\"scenes\":[{\"nodes\":[0,1,2]}],\"nodes\":[{\"mesh\":0," + faceUp +
                           ",\"translation\":[0,2,-3],\"scale\":[1.5,1.5,1.5]},{\"mesh\":1," + faceUp +
                           ",\"scale\":[10,10,10]},{" + faceUp +
                           ",\"extensions\":{\"KHR_lights_punctual\":{\"light\":0}}}],"
                           "\"meshes\":[{\"primitives\":[" +
                           quad + "]},{\"primitives\":[" + ground + "]}],\"materials\":[" + kMaskedMaterial +
                           ",{\"pbrMetallicRoughness\":{\"metallicFactor\":0}}],\"textures\":[{\"source\":0}],"
                           "\"images\":[{\"uri\":\"" +
                           pngDataUri(redHoleGreen(), mFolder) +
                           "\"}],\"extensions\":{\"KHR_lights_punctual\":{\"lights\":[{\"type\":\"directional\","
                           "\"intensity\":50000}]}}"));
    scene::Scene sc = scene::loadSceneFile(path);
    ASSERT_NEAR(sc.sun.elevationDegrees, 90.0f, 1e-3f);
    sc.camera.position = {0.0f, 1.0f, 2.0f};
    sc.camera.pitchDegrees = glm::degrees(std::atan2(-1.0f, 5.0f));
    Frame frame = render(sc, {128, 96});
    auto luminance = [](glm::vec3 c) { return hd::hdLuminance(c.x, c.y, c.z); };
    float underHole = luminance(frame.at({0.0f, 0.0f, -3.0f}));
    float underRed = luminance(frame.at({-1.0f, 0.0f, -3.0f}));
    float underGreen = luminance(frame.at({1.0f, 0.0f, -3.0f}));
    float open = luminance(frame.at({0.0f, 0.0f, 0.0f}));
    EXPECT_GT(underHole, 0.5f * open) << "the hole casts a shadow";
    EXPECT_GT(underHole, 5.0f * underRed);
    EXPECT_GT(underHole, 5.0f * underGreen);
}

}  // namespace
