// glTF loader tests: small glTF files written by the tests themselves (GltfTestFiles.h): node
// transforms, accessor component types, materials and textures, lights and camera, .glb, model
// references from scene JSON, and one clear error line for each kind of malformed file.
#include "GltfTestFiles.h"

#include "scene/GltfLoader.h"
#include "scene/PrimitiveMesh.h"
#include "scene/Scene.h"
#include "support/TestPaths.h"

#include <gtest/gtest.h>

#include <glm/geometric.hpp>

#include <cmath>
#include <string>

#define EXPECT_CONTAINS(text, part) EXPECT_NE(std::string(text).find(part), std::string::npos) << "message: " << (text)

namespace {

using namespace gltf_test;

constexpr float kTolerance = 1e-5f;

void expectNear(glm::vec3 actual, glm::vec3 expected)
{
    EXPECT_NEAR(actual.x, expected.x, kTolerance);
    EXPECT_NEAR(actual.y, expected.y, kTolerance);
    EXPECT_NEAR(actual.z, expected.z, kTolerance);
}

/// A 2x1 RGBA texture: red, then green.
image::Image8 redGreen()
{
    image::Image8 texture(2, 1, 4);
    texture.pixels = {255, 0, 0, 255, 0, 255, 0, 255};
    return texture;
}

class GltfLoaderTest : public ::testing::Test
{
protected:
    std::filesystem::path mFolder = testing_support::scratchDir("gltf-loader");

    std::filesystem::path write(const std::string& name, const std::string& text)
    {
        std::filesystem::path path = mFolder / name;
        std::filesystem::create_directories(path.parent_path());
        writeText(path, text);
        return path;
    }

    /// One quad node with the given material JSON and extra top-level members.
    std::string quadFile(const std::string& material,
                         const std::string& node = "{\"mesh\":0}",
                         const std::string& extra = "",
                         int indexType = kUnsignedShort)
    {
        Builder b;
        std::string primitive = addQuad(b, indexType);
        return b.gltf(",\"scenes\":[{\"nodes\":[0]}],\"nodes\":[" + node + "],\"meshes\":[{\"primitives\":[" +
                      primitive + "]}],\"materials\":[" + material + "]" + extra);
    }

    std::string errorOf(const std::filesystem::path& path)
    {
        try {
            scene::loadSceneFile(path);
        } catch (const scene::SceneError& error) {
            std::string message = error.what();
            EXPECT_EQ(message.find('\n'), std::string::npos) << message;
            return message;
        }
        ADD_FAILURE() << "no error for " << path;
        return {};
    }
};

TEST_F(GltfLoaderTest, NodeTransformsBakeIntoWorldSpace)
{
    // Parent: translation; child: rotation 90 degrees about Y then scale 2.
    float s = std::sqrt(0.5f);
    std::string nodes = "{\"translation\":[0,0,-5],\"children\":[1]},{\"rotation\":[0," + std::to_string(s) + ",0," +
                        std::to_string(s) + "],\"scale\":[2,2,2],\"mesh\":0}";
    Builder b;
    std::string primitive = addQuad(b);
    auto path =
        write("transforms.gltf", b.gltf(",\"scenes\":[{\"nodes\":[0]}],\"nodes\":[" + nodes +
                                        "],\"meshes\":[{\"primitives\":[" + primitive + "]}],\"materials\":[{}]"));
    scene::Scene s0 = scene::loadSceneFile(path);
    ASSERT_EQ(s0.meshes.size(), 1u);
    const scene::ImportedMesh& mesh = s0.meshes[0];
    ASSERT_EQ(mesh.vertices.size(), 4u);
    ASSERT_EQ(mesh.indices.size(), 6u);
    // (-1,-1,0) scaled to (-2,-2,0), rotated about Y (+X goes to -Z): (0,-2,2), translated: (0,-2,-3).
    expectNear(mesh.vertices[0].position, {0.0f, -2.0f, -3.0f});
    expectNear(mesh.vertices[0].normal, {1.0f, 0.0f, 0.0f});
    EXPECT_FLOAT_EQ(mesh.vertices[0].material, float(mesh.material));
}

TEST_F(GltfLoaderTest, MatrixTransformAndMirroringKeepWinding)
{
    // Column-major matrix: mirror X, translate (1,2,3).
    auto path = write("matrix.gltf", quadFile("{}", "{\"matrix\":[-1,0,0,0, 0,1,0,0, 0,0,1,0, 1,2,3,1],\"mesh\":0}"));
    scene::Scene s = scene::loadSceneFile(path);
    ASSERT_EQ(s.meshes.size(), 1u);
    const scene::ImportedMesh& mesh = s.meshes[0];
    expectNear(mesh.vertices[0].position, {2.0f, 1.0f, 3.0f});
    // Triangles stay counter-clockwise seen from the front (+Z) after the mirror.
    glm::vec3 a = mesh.vertices[mesh.indices[0]].position, b = mesh.vertices[mesh.indices[1]].position,
              c = mesh.vertices[mesh.indices[2]].position;
    EXPECT_GT(glm::cross(b - a, c - a).z, 0.0f);
}

TEST_F(GltfLoaderTest, EveryIndexComponentTypeReadsTheSameTriangles)
{
    for (int type : {kUnsignedByte, kUnsignedShort, kUnsignedInt}) {
        SCOPED_TRACE(type);
        auto path = write("indices-" + std::to_string(type) + ".gltf", quadFile("{}", "{\"mesh\":0}", "", type));
        scene::Scene s = scene::loadSceneFile(path);
        ASSERT_EQ(s.meshes.size(), 1u);
        EXPECT_EQ(s.meshes[0].indices, (std::vector<std::uint32_t>{0, 1, 2, 0, 2, 3}));
    }
}

TEST_F(GltfLoaderTest, NormalizedTexcoordsAndFlatNormalsWithoutIndices)
{
    // Unindexed triangle, no normals, TEXCOORD_0 as normalized unsigned bytes and shorts.
    for (int type : {kUnsignedByte, kUnsignedShort}) {
        SCOPED_TRACE(type);
        Builder b;
        int position = b.accessor(std::vector<float>{0, 0, 0, 1, 0, 0, 0, 1, 0}, kFloat, 3, "VEC3");
        int uv = type == kUnsignedByte
                     ? b.accessor(std::vector<std::uint8_t>{0, 0, 255, 0, 0, 51}, type, 3, "VEC2", true)
                     : b.accessor(std::vector<std::uint16_t>{0, 0, 65535, 0, 0, 13107}, type, 3, "VEC2", true);
        auto path = write("normalized-" + std::to_string(type) + ".gltf",
                          b.gltf(",\"nodes\":[{\"mesh\":0}],\"meshes\":[{\"primitives\":[{\"attributes\":{"
                                 "\"POSITION\":" +
                                 std::to_string(position) + ",\"TEXCOORD_0\":" + std::to_string(uv) + "}}]}]"));
        scene::Scene s = scene::loadSceneFile(path);
        ASSERT_EQ(s.meshes.size(), 1u);
        const scene::ImportedMesh& mesh = s.meshes[0];
        ASSERT_EQ(mesh.vertices.size(), 3u);
        EXPECT_NEAR(mesh.vertices[1].texcoord.x, 1.0f, kTolerance);
        EXPECT_NEAR(mesh.vertices[2].texcoord.y, 0.2f, kTolerance);
        expectNear(mesh.vertices[0].normal, {0.0f, 0.0f, 1.0f});
        // No material: the spec's default material (white, metallic, rough).
        const scene::Material& m = s.materials.at(std::size_t(mesh.material));
        EXPECT_FLOAT_EQ(m.metalness, 1.0f);
        EXPECT_FLOAT_EQ(m.baseColor.x, 1.0f);
    }
}

TEST_F(GltfLoaderTest, MaterialsAndTextures)
{
    std::string png = pngDataUri(redGreen(), mFolder);
    write("textures/external.png", "");
    image::writePng(mFolder / "textures" / "external.png", redGreen());
    std::string material =
        "{\"pbrMetallicRoughness\":{\"baseColorFactor\":[0.5,0.25,1,0.8],\"baseColorTexture\":{\"index\":0},"
        "\"metallicFactor\":0.3,\"roughnessFactor\":0.6,\"metallicRoughnessTexture\":{\"index\":1}},"
        "\"normalTexture\":{\"index\":1,\"scale\":0.5},\"occlusionTexture\":{\"index\":1,\"strength\":0.7},"
        "\"emissiveTexture\":{\"index\":0},\"emissiveFactor\":[1,1,1],"
        "\"extensions\":{\"KHR_materials_emissive_strength\":{\"emissiveStrength\":4}},"
        "\"alphaMode\":\"MASK\",\"alphaCutoff\":0.3,\"doubleSided\":true}";
    std::string extra =
        ",\"textures\":[{\"source\":0,\"sampler\":0},{\"source\":1}],\"samplers\":[{\"wrapS\":33071,"
        "\"wrapT\":33648}],\"images\":[{\"uri\":\"" +
        png + "\"},{\"uri\":\"textures/external.png\"}]";
    auto path = write("materials.gltf", quadFile(material, "{\"mesh\":0}", extra));
    scene::Scene s = scene::loadSceneFile(path);
    ASSERT_EQ(s.meshes.size(), 1u);
    const scene::Material& m = s.materials.at(std::size_t(s.meshes[0].material));
    EXPECT_FLOAT_EQ(m.baseColor.y, 0.25f);
    EXPECT_FLOAT_EQ(m.baseAlpha, 0.8f);
    EXPECT_FLOAT_EQ(m.metalness, 0.3f);
    EXPECT_FLOAT_EQ(m.roughness, 0.6f);
    EXPECT_FLOAT_EQ(m.normalScale, 0.5f);
    EXPECT_FLOAT_EQ(m.occlusionStrength, 0.7f);
    EXPECT_EQ(m.alphaMode, scene::AlphaMode::Mask);
    EXPECT_FLOAT_EQ(m.alphaCutoff, 0.3f);
    EXPECT_TRUE(m.doubleSided);
    EXPECT_FALSE(m.plain());
    // Emissive white 1.0 times strength 4 times the default scale.
    EXPECT_FLOAT_EQ(m.emissionLuminance, 4.0f * scene::kDefaultGltfEmissiveLuminance);
    // Texture 0 as sRGB (base colour, emissive), texture 1 as linear data: two scene textures.
    ASSERT_EQ(s.textures.size(), 2u);
    const scene::Texture& base = s.textures.at(std::size_t(m.textures.baseColor));
    EXPECT_TRUE(base.srgb);
    EXPECT_EQ(m.textures.emissive, m.textures.baseColor);
    EXPECT_EQ(base.wrapS, scene::TextureWrap::ClampToEdge);
    EXPECT_EQ(base.wrapT, scene::TextureWrap::MirroredRepeat);
    ASSERT_EQ(base.image->width, 2);
    EXPECT_EQ(base.image->pixels[4 + 1], 255);  // second texel green
    const scene::Texture& data = s.textures.at(std::size_t(m.textures.normal));
    EXPECT_FALSE(data.srgb);
    EXPECT_EQ(m.textures.metallicRoughness, m.textures.normal);
    EXPECT_EQ(m.textures.occlusion, m.textures.normal);
    // Normal map without TANGENT: tangents generated along +u, which is +X on this quad.
    glm::vec4 tangent = s.meshes[0].vertices[0].tangent;
    expectNear(glm::vec3(tangent), {1.0f, 0.0f, 0.0f});
    EXPECT_NE(tangent.w, 0.0f);
    // The masked material gets its own batch among the masked shadow casters.
    scene::TriangleMesh batched = scene::buildSceneMesh(s);
    ASSERT_EQ(batched.batches.size(), 1u);
    EXPECT_TRUE(batched.batches[0].alphaMask);
    EXPECT_TRUE(batched.batches[0].doubleSided);
    EXPECT_EQ(batched.shadowCasterIndexCount, 0u);
}

TEST_F(GltfLoaderTest, BlendIsDrawnAsMask)
{
    auto path = write("blend.gltf", quadFile("{\"alphaMode\":\"BLEND\"}"));
    scene::Scene s = scene::loadSceneFile(path);
    EXPECT_EQ(s.materials.at(std::size_t(s.meshes.at(0).material)).alphaMode, scene::AlphaMode::Mask);
}

TEST_F(GltfLoaderTest, LightsAndCamera)
{
    float s = std::sqrt(0.5f);
    std::string nodes =
        "{\"mesh\":0},"
        "{\"rotation\":[" +
        std::to_string(-s) + ",0,0," + std::to_string(s) +
        "],\"extensions\":{\"KHR_lights_punctual\":{\"light\":0}}},"
        "{\"translation\":[1,2,3],\"extensions\":{\"KHR_lights_punctual\":{\"light\":1}}},"
        "{\"translation\":[0,1,0],\"extensions\":{\"KHR_lights_punctual\":{\"light\":2}}},"
        "{\"translation\":[0,2,10],\"camera\":0}";
    std::string extra =
        ",\"extensionsUsed\":[\"KHR_lights_punctual\"],\"extensions\":{\"KHR_lights_punctual\":{\"lights\":["
        "{\"type\":\"directional\",\"intensity\":50000},"
        "{\"type\":\"point\",\"intensity\":100,\"color\":[1,0,0],\"range\":20},"
        "{\"type\":\"spot\",\"intensity\":10,\"spot\":{}}]}},"
        "\"cameras\":[{\"type\":\"perspective\",\"perspective\":{\"yfov\":0.8,\"znear\":0.1,\"zfar\":500}}]";
    Builder b;
    std::string primitive = addQuad(b);
    auto path =
        write("lights.gltf", b.gltf(",\"scenes\":[{\"nodes\":[0,1,2,3,4]}],\"nodes\":[" + nodes +
                                    "],\"meshes\":[{\"primitives\":[" + primitive + "]}],\"materials\":[{}]" + extra));
    scene::Scene sc = scene::loadSceneFile(path);
    // Directional light shining down (-Y): the sun straight overhead.
    EXPECT_NEAR(sc.sun.elevationDegrees, 90.0f, 1e-3f);
    EXPECT_FLOAT_EQ(sc.sun.illuminance, 50000.0f);
    ASSERT_EQ(sc.lights.size(), 2u);  // the point light and the spot light (as a point light)
    expectNear(sc.lights[0].position, {1.0f, 2.0f, 3.0f});
    EXPECT_NEAR(sc.lights[0].intensity, 100.0f * 0.2126f, 1e-3f);
    EXPECT_NEAR(sc.lights[0].color.x, 1.0f / 0.2126f, 1e-3f);
    EXPECT_FLOAT_EQ(sc.lights[0].range, 20.0f);
    EXPECT_GT(sc.lights[1].range, 1.0f);  // infinite range becomes a finite cut-off
    expectNear(sc.camera.position, {0.0f, 2.0f, 10.0f});
    EXPECT_NEAR(sc.camera.verticalFovDegrees, 0.8f * 180.0f / 3.14159265f, 1e-3f);
    EXPECT_NEAR(sc.camera.yawDegrees, 0.0f, 1e-3f);
    EXPECT_NEAR(sc.camera.pitchDegrees, 0.0f, 1e-3f);
    EXPECT_FLOAT_EQ(sc.camera.farPlane, 500.0f);
}

TEST_F(GltfLoaderTest, ASceneWithoutACameraFramesItsBounds)
{
    // The quad, scaled 3x and moved off the default camera's view (which looked into empty sky).
    auto path = write("nocamera.gltf", quadFile("{}", "{\"mesh\":0,\"translation\":[10,2,-5],\"scale\":[3,3,3]}"));
    scene::Scene sc = scene::loadSceneFile(path);
    EXPECT_TRUE(sc.cameraPath.empty());
    const scene::Camera& camera = sc.camera;
    const glm::mat4 viewProjection = camera.projection(16.0f / 9.0f) * camera.view();
    // Every corner of the bounds lies inside the view (clip space within -1..1 on every axis), and
    // the bounds' centre is straight ahead.
    for (float x : {7.0f, 13.0f})
        for (float y : {-1.0f, 5.0f}) {
            glm::vec4 clip = viewProjection * glm::vec4(x, y, -5.0f, 1.0f);
            ASSERT_GT(clip.w, 0.0f);
            glm::vec3 ndc = glm::vec3(clip) / clip.w;
            EXPECT_LT(std::fabs(ndc.x), 1.0f) << x << "," << y;
            EXPECT_LT(std::fabs(ndc.y), 1.0f) << x << "," << y;
            EXPECT_LT(std::fabs(ndc.z), 1.0f) << x << "," << y;
        }
    glm::vec3 toCentre = glm::normalize(glm::vec3(10.0f, 2.0f, -5.0f) - camera.position);
    EXPECT_GT(glm::dot(toCentre, camera.forward()), 0.9999f);
    // It fills the view: the quad's height spans more than half of it.
    glm::vec4 top = viewProjection * glm::vec4(10.0f, 5.0f, -5.0f, 1.0f);
    glm::vec4 bottom = viewProjection * glm::vec4(10.0f, -1.0f, -5.0f, 1.0f);
    EXPECT_GT(top.y / top.w - bottom.y / bottom.w, 1.0f);
}

TEST_F(GltfLoaderTest, ExtremeBoundsAndClipPlanesKeepAUsableCamera)
{
    // Found by the gltf fuzzer: finite vertices 3e38 apart overflowed the float framing (NaN near
    // plane); a znear of 1e-50 is 0 as a float; a zfar of 1e300 is infinite as one.
    auto expectUsable = [](const scene::Camera& camera, const std::string& what) {
        EXPECT_TRUE(std::isfinite(camera.position.x) && std::isfinite(camera.position.y) &&
                    std::isfinite(camera.position.z))
            << what;
        EXPECT_GT(camera.nearPlane, 0.0f) << what;
        EXPECT_TRUE(std::isfinite(camera.farPlane)) << what;
        EXPECT_GT(camera.farPlane, camera.nearPlane) << what;
    };
    for (float extent : {3e38f, 1e-30f}) {
        Builder b;
        std::string primitive = addQuad(b, kUnsignedShort, extent);
        auto path = write("extent.gltf", b.gltf(",\"scenes\":[{\"nodes\":[0]}],\"nodes\":[{\"mesh\":0}],"
                                                "\"meshes\":[{\"primitives\":[" +
                                                primitive + "]}],\"materials\":[{}]"));
        expectUsable(scene::loadSceneFile(path).camera, "quad extent " + std::to_string(extent));
    }
    for (const char* planes : {"\"znear\":1e-50,\"zfar\":1e300", "\"znear\":1e300", "\"znear\":3e38,\"zfar\":3.1e38"}) {
        auto path =
            write("planes.gltf",
                  quadFile("{}", "{\"mesh\":0,\"camera\":0}",
                           std::string(",\"cameras\":[{\"type\":\"perspective\",\"perspective\":{\"yfov\":0.8,") +
                               planes + "}}]"));
        expectUsable(scene::loadSceneFile(path).camera, planes);
    }
}

TEST_F(GltfLoaderTest, BinaryGlbLoadsLikeText)
{
    Builder b;
    std::string primitive = addQuad(b);
    std::vector<std::uint8_t> glb =
        b.glb(",\"nodes\":[{\"mesh\":0,\"translation\":[0,0,-2]}],\"meshes\":[{\"primitives\":[" + primitive +
              "]}],\"materials\":[{}]");
    auto path = mFolder / "binary.bin";  // no extension: found by its magic
    std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(glb.data()), std::streamsize(glb.size()));
    EXPECT_TRUE(scene::looksLikeGltf(path));
    scene::Scene s = scene::loadSceneFile(path);
    ASSERT_EQ(s.meshes.size(), 1u);
    expectNear(s.meshes[0].vertices[2].position, {1.0f, 1.0f, -2.0f});
}

TEST_F(GltfLoaderTest, GlbImageInABufferView)
{
    Builder b;
    std::string primitive = addQuad(b);
    std::vector<std::uint8_t> png = pngBytes(redGreen(), mFolder);
    int view = b.accessor(png, kUnsignedByte, int(png.size()), "SCALAR");  // one bufferView per accessor
    std::string members = ",\"nodes\":[{\"mesh\":0}],\"meshes\":[{\"primitives\":[" + primitive +
                          "]}],\"materials\":[{\"pbrMetallicRoughness\":{\"baseColorTexture\":{\"index\":0}}}],"
                          "\"textures\":[{\"source\":0}],\"images\":[{\"bufferView\":" +
                          std::to_string(view) + ",\"mimeType\":\"image/png\"}]";
    auto write = [&](const std::string& name, const std::vector<std::uint8_t>& bytes) {
        std::ofstream(mFolder / name, std::ios::binary)
            .write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
        return mFolder / name;
    };
    scene::Scene s = scene::loadSceneFile(write("image.glb", b.glb(members)));
    ASSERT_EQ(s.textures.size(), 1u);
    EXPECT_EQ(s.textures[0].image->width, 2);
    EXPECT_EQ(s.textures[0].image->pixels[0], 255);

    // A truncated PNG in the view: one clean line. (A view reaching past its buffer is the fuzz
    // regression tests/fuzz/corpus/gltf/regress-gltf-image-view-past-buffer.glb.)
    Builder bad;
    addQuad(bad);
    std::vector<std::uint8_t> shortPng(png.begin(), png.begin() + 16);
    int badView = bad.accessor(shortPng, kUnsignedByte, int(shortPng.size()), "SCALAR");
    ASSERT_EQ(badView, view);  // same layout, so the same JSON members fit
    std::vector<std::uint8_t> badGlb = bad.glb(members);
    EXPECT_CONTAINS(errorOf(write("truncated-image.glb", badGlb)), "image 0: ");
}

TEST_F(GltfLoaderTest, SceneJsonPlacesModels)
{
    write("models/quad.gltf", quadFile("{\"emissiveFactor\":[1,1,1]}"));
    auto path = write("scene.json", R"({
  "materials": { "grey": {} },
  "objects": [
    { "type": "box", "material": "grey", "size": [1, 1, 1] },
    { "gltf": "models/quad.gltf", "position": [0, 0, -3], "rotation": [0, 90, 0], "scale": 2,
      "castsShadow": false, "emissiveLuminance": 50 }
  ]
})");
    scene::Scene s = scene::loadSceneFile(path);
    EXPECT_EQ(s.objects.size(), 1u);
    EXPECT_TRUE(s.models.empty());
    ASSERT_EQ(s.meshes.size(), 1u);
    EXPECT_FALSE(s.meshes[0].castsShadow);
    // (-1,-1,0) scaled by 2, rotated 90 degrees about Y (+X to -Z), moved to z = -3.
    expectNear(s.meshes[0].vertices[0].position, {0.0f, -2.0f, -1.0f});
    EXPECT_FLOAT_EQ(s.materials.at(std::size_t(s.meshes[0].material)).emissionLuminance, 50.0f);

    // parseScene alone only records the reference.
    scene::Scene parsed = scene::parseScene(
        R"({ "materials": { "grey": {} }, "objects": [ { "gltf": "x.glb", "scale": [1, 2, 3] } ] })", "inline.json");
    ASSERT_EQ(parsed.models.size(), 1u);
    EXPECT_EQ(parsed.models[0].file, "x.glb");
    EXPECT_FLOAT_EQ(parsed.models[0].scale.y, 2.0f);

    // A broken reference names the scene file and line, then the model.
    auto broken = write("broken.json",
                        "{\n \"materials\": {\"g\": {}},\n \"objects\": [\n  {\"gltf\": \"nothere.glb\"}\n ]\n}\n");
    std::string message = errorOf(broken);
    EXPECT_CONTAINS(message, "broken.json:4: cannot load glTF");
    EXPECT_CONTAINS(message, "nothere.glb");
}

TEST_F(GltfLoaderTest, MalformedFilesGiveOneClearLine)
{
    Builder good;
    std::string primitive = addQuad(good);
    std::string meshes = ",\"nodes\":[{\"mesh\":0}],\"meshes\":[{\"primitives\":[" + primitive + "]}]";

    EXPECT_CONTAINS(errorOf(mFolder / "absent.gltf"), "cannot load glTF '");
    EXPECT_CONTAINS(errorOf(mFolder / "absent.gltf"), "absent.gltf': No such file");

    EXPECT_CONTAINS(errorOf(write("badjson.gltf", "{\"asset\": {\"version\": \"2.0\"},,}")), "badjson.gltf");

    auto missingBuffer =
        write("missing-buffer.gltf",
              "{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"byteLength\":48,\"uri\":\"gone.bin\"}]}");
    EXPECT_CONTAINS(errorOf(missingBuffer), "missing-buffer.gltf");
    EXPECT_CONTAINS(errorOf(missingBuffer), "gone.bin");

    std::string textured = "{\"pbrMetallicRoughness\":{\"baseColorTexture\":{\"index\":0}}}";
    auto missingTexture =
        write("missing-texture.gltf", good.gltf(meshes + ",\"materials\":[" + textured +
                                                "],\"textures\":[{\"source\":0}],\"images\":[{\"uri\":\"gone.png\"}]"));
    EXPECT_CONTAINS(errorOf(missingTexture), "image 0 file 'gone.png' does not exist");

    auto badImage = write("bad-image.gltf",
                          good.gltf(meshes + ",\"materials\":[" + textured +
                                    "],\"textures\":[{\"source\":0}],\"images\":[{\"uri\":\"data:image/png;base64," +
                                    base64({'n', 'o', 't', ' ', 'p', 'n', 'g', '!'}) + "\"}]"));
    EXPECT_CONTAINS(errorOf(badImage), "image 0: not a PNG or JPEG image");

    image::writePng(mFolder / "outside.png", redGreen());
    std::filesystem::create_directories(mFolder / "inner");
    auto outside = write("inner/outside.gltf",
                         good.gltf(meshes + ",\"materials\":[" + textured +
                                   "],\"textures\":[{\"source\":0}],\"images\":[{\"uri\":\"../outside.png\"}]"));
    EXPECT_CONTAINS(errorOf(outside), "lies outside the glTF file's folder");

    Builder lines;
    std::string linePrimitive = addQuad(lines);
    linePrimitive.insert(linePrimitive.size() - 1, ",\"mode\":1");
    auto linesFile = write("lines.gltf", lines.gltf(",\"nodes\":[{\"mesh\":0}],\"meshes\":[{\"primitives\":[" +
                                                    linePrimitive + "]}],\"materials\":[{}]"));
    EXPECT_CONTAINS(errorOf(linesFile), "mesh 0 primitive 0 has mode 1");

    Builder overrun;
    int position = overrun.accessor(std::vector<float>{0, 0, 0, 1, 0, 0, 0, 1, 0}, kFloat, 100, "VEC3");
    auto overrunFile =
        write("overrun.gltf", overrun.gltf(",\"nodes\":[{\"mesh\":0}],\"meshes\":[{\"primitives\":[{\"attributes\":{"
                                           "\"POSITION\":" +
                                           std::to_string(position) + "}}]}]"));
    EXPECT_CONTAINS(errorOf(overrunFile), "POSITION (accessor 0) reaches past the end of its bufferView");

    Builder badIndex;
    int p3 = badIndex.accessor(std::vector<float>{0, 0, 0, 1, 0, 0, 0, 1, 0}, kFloat, 3, "VEC3");
    int idx = badIndex.accessor(std::vector<std::uint16_t>{0, 1, 7}, kUnsignedShort, 3, "SCALAR");
    auto badIndexFile =
        write("bad-index.gltf", badIndex.gltf(",\"nodes\":[{\"mesh\":0}],\"meshes\":[{\"primitives\":[{"
                                              "\"attributes\":{\"POSITION\":" +
                                              std::to_string(p3) + "},\"indices\":" + std::to_string(idx) + "}]}]"));
    EXPECT_CONTAINS(errorOf(badIndexFile), "holds index 7 at element 2, but there are only 3 vertices");

    Builder absurd;
    int huge = absurd.rawAccessor("{\"bufferView\":0,\"componentType\":5126,\"count\":4000000000,\"type\":\"VEC3\"}");
    absurd.accessor(std::vector<float>{0, 0, 0}, kFloat, 1, "VEC3");
    auto absurdFile = write("absurd.gltf", absurd.gltf(",\"nodes\":[{\"mesh\":0}],\"meshes\":[{\"primitives\":[{"
                                                       "\"attributes\":{\"POSITION\":" +
                                                       std::to_string(huge) + "}}]}]"));
    EXPECT_CONTAINS(errorOf(absurdFile), "absurd count");

    auto missingAccessor = write("missing-accessor.gltf",
                                 good.gltf(",\"nodes\":[{\"mesh\":0}],\"meshes\":[{\"primitives\":[{\"attributes\":{"
                                           "\"POSITION\":42}}]}]"));
    EXPECT_CONTAINS(errorOf(missingAccessor), "accessor 42, which does not exist");

    auto cycle = write("cycle.gltf", good.gltf(",\"scenes\":[{\"nodes\":[0]}],\"nodes\":[{\"children\":[1]},{"
                                               "\"children\":[0],\"mesh\":0}],\"meshes\":[{\"primitives\":[" +
                                               primitive + "]}],\"materials\":[{}]"));
    EXPECT_CONTAINS(errorOf(cycle), "node 0 is reached twice");
}

TEST_F(GltfLoaderTest, InMemoryImportRefusesExternalFiles)
{
    Builder b;
    std::string primitive = addQuad(b);
    std::string text = b.gltf(",\"nodes\":[{\"mesh\":0}],\"meshes\":[{\"primitives\":[" + primitive +
                              "]}],\"materials\":[{\"pbrMetallicRoughness\":{\"baseColorTexture\":{\"index\":0}}}],"
                              "\"textures\":[{\"source\":0}],\"images\":[{\"uri\":\"secret.png\"}]");
    scene::Scene s;
    try {
        scene::importGltfFromMemory({reinterpret_cast<const std::uint8_t*>(text.data()), text.size()}, "memory.gltf",
                                    {}, s, {});
        ADD_FAILURE() << "external image was read";
    } catch (const scene::SceneError& error) {
        EXPECT_CONTAINS(error.what(), "cannot load glTF 'memory.gltf': image 0 references external file 'secret.png'");
    }
}

}  // namespace
