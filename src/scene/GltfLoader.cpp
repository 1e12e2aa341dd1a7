// GltfLoader.cpp: glTF 2.0 import through tinygltf (see GltfLoader.h): the file parsed with
// GltfFileAccess's callbacks, then its materials (GltfMaterials), then the default scene's node tree
// walked with each node's transform, its meshes (GltfMeshes) and, for whole scenes, its lights and
// camera (GltfLightsCamera).
#include "scene/GltfLoader.h"

#include "scene/GltfFileAccess.h"
#include "scene/GltfImport.h"
#include "scene/GltfLightsCamera.h"
#include "scene/GltfMaterials.h"
#include "scene/GltfMeshes.h"
#include "scene/TinyGltf.h"

#include <glm/ext/matrix_transform.hpp>
#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>

namespace scene {
namespace gltf {
namespace {

/// The first line of one of tinygltf's (often multi-line) messages.
std::string firstLine(const std::string& text)
{
    std::size_t start = text.find_first_not_of(" \n\r\t");
    if (start == std::string::npos)
        return "unknown error";
    std::size_t end = text.find('\n', start);
    return printable(text.substr(start, end == std::string::npos ? std::string::npos : end - start));
}

void checkExtensions(const GltfImport& import)
{
    for (const std::string& required : import.model.extensionsRequired) {
        if (required != "KHR_lights_punctual" && required != "KHR_materials_emissive_strength")
            import.fail("requires extension " + printable(required) + ", which is not supported");
    }
}

glm::mat4 localTransform(const GltfImport& import, const tinygltf::Node& node, const std::string& what)
{
    auto numbers = [&](const std::vector<double>& values, std::size_t n, const char* field) {
        if (values.size() != n)
            import.fail(what + " \"" + field + "\" must have " + std::to_string(n) + " numbers, got " +
                        std::to_string(values.size()));
        for (double value : values)
            if (!std::isfinite(value) || std::abs(value) > 1e15)
                import.fail(what + " \"" + field + "\" holds a non-finite or absurd number");
    };
    if (!node.matrix.empty()) {
        numbers(node.matrix, 16, "matrix");
        glm::mat4 m;
        for (int i = 0; i < 16; ++i)
            m[i / 4][i % 4] = float(node.matrix[std::size_t(i)]);  // column-major, like glm
        return m;
    }
    glm::mat4 m(1.0f);
    if (!node.translation.empty()) {
        numbers(node.translation, 3, "translation");
        m = glm::translate(m, glm::vec3(node.translation[0], node.translation[1], node.translation[2]));
    }
    if (!node.rotation.empty()) {
        numbers(node.rotation, 4, "rotation");
        glm::quat q(float(node.rotation[3]), float(node.rotation[0]), float(node.rotation[1]), float(node.rotation[2]));
        float length = glm::length(q);
        if (!(length > 1e-6f))
            import.fail(what + " \"rotation\" is not a unit quaternion");
        m *= glm::mat4_cast(q / length);
    }
    if (!node.scale.empty()) {
        numbers(node.scale, 3, "scale");
        m = glm::scale(m, glm::vec3(node.scale[0], node.scale[1], node.scale[2]));
    }
    return m;
}

class Importer
{
public:
    Importer(std::string name, Scene& scene, const GltfImportOptions& options)
        : mImport(std::move(name), scene, options), mLightsCamera(mImport)
    {
    }

    void run(std::span<const std::uint8_t> bytes, const std::filesystem::path& folder)
    {
        FileAccess access;
        if (!folder.empty()) {
            std::error_code error;
            access.folder = std::filesystem::weakly_canonical(std::filesystem::absolute(folder, error), error);
            if (error)
                mImport.fail("cannot resolve its folder: " + error.message());
        }
        mBudget.fileName = mImport.name;
        tinygltf::TinyGLTF loader;
        loader.SetFsCallbacks({&fileExists, &expandFilePath, &readWholeFile, &writeWholeFile, &access});
        loader.SetImageLoader(&loadImageData, &mBudget);
        std::string err;
        std::string warn;
        bool binary = bytes.size() >= 4 && std::memcmp(bytes.data(), "glTF", 4) == 0;
        if (bytes.size() > std::size_t(std::numeric_limits<unsigned int>::max() / 2))
            mImport.fail("the file is too large");
        std::string baseDir = access.folder.empty() ? std::string() : access.folder.string();
        bool ok = binary ? loader.LoadBinaryFromMemory(&mImport.model, &err, &warn, bytes.data(),
                                                       static_cast<unsigned int>(bytes.size()), baseDir)
                         : loader.LoadASCIIFromString(&mImport.model, &err, &warn,
                                                      reinterpret_cast<const char*>(bytes.data()),
                                                      static_cast<unsigned int>(bytes.size()), baseDir);
        if (!ok) {
            if (!mBudget.failure.empty())
                mImport.fail(mBudget.failure);
            if (!access.refusal.empty())
                mImport.fail("cannot read " + access.refusal);
            mImport.fail(firstLine(err.empty() ? warn : err));
        }
        checkExtensions(mImport);
        GltfMaterials materials(mImport, mBudget, access.folder);
        materials.importAll();
        importNodes(materials);
        if (mImport.options.takeLightsAndCamera && !mLightsCamera.cameraTaken())
            mLightsCamera.frameMeshes();
    }

private:
    void importNodes(GltfMaterials& materials)
    {
        std::vector<int> roots;
        if (!mImport.model.scenes.empty()) {
            int sceneIndex = mImport.model.defaultScene >= 0 ? mImport.model.defaultScene : 0;
            if (std::size_t(sceneIndex) >= mImport.model.scenes.size())
                mImport.fail("default scene " + std::to_string(sceneIndex) + " does not exist");
            roots = mImport.model.scenes[std::size_t(sceneIndex)].nodes;
        } else {
            // No scene: every node that is nobody's child is a root.
            std::vector<bool> isChild(mImport.model.nodes.size(), false);
            for (const tinygltf::Node& node : mImport.model.nodes)
                for (int child : node.children)
                    if (child >= 0 && std::size_t(child) < isChild.size())
                        isChild[std::size_t(child)] = true;
            for (std::size_t i = 0; i < mImport.model.nodes.size(); ++i)
                if (!isChild[i])
                    roots.push_back(int(i));
        }
        // Iterative walk: node trees may be deep, and a damaged file may hold cycles or share a node
        // between parents, which the spec forbids.
        std::vector<bool> visited(mImport.model.nodes.size(), false);
        std::vector<std::pair<int, glm::mat4>> stack;
        for (auto it = roots.rbegin(); it != roots.rend(); ++it)
            stack.emplace_back(*it, mImport.options.transform);
        while (!stack.empty()) {
            auto [index, parent] = stack.back();
            stack.pop_back();
            if (index < 0 || std::size_t(index) >= mImport.model.nodes.size())
                mImport.fail("a scene or node refers to node " + std::to_string(index) + ", which does not exist");
            std::string what = "node " + std::to_string(index);
            if (visited[std::size_t(index)])
                mImport.fail(what + " is reached twice (a cycle or a node with two parents)");
            visited[std::size_t(index)] = true;
            const tinygltf::Node& node = mImport.model.nodes[std::size_t(index)];
            glm::mat4 world = parent * localTransform(mImport, node, what);
            if (node.mesh >= 0)
                importMesh(mImport, materials, node.mesh, world, what, mTotals);
            if (mImport.options.takeLightsAndCamera) {
                if (node.camera >= 0)
                    mLightsCamera.importCamera(node.camera, world, what);
                auto lights = node.extensions.find("KHR_lights_punctual");
                if (lights != node.extensions.end() && lights->second.IsObject() && lights->second.Has("light")) {
                    const tinygltf::Value& light = lights->second.Get("light");
                    if (!light.IsInt())
                        mImport.fail(what + " KHR_lights_punctual \"light\" must be an integer");
                    mLightsCamera.importLight(light.Get<int>(), world, what);
                }
            }
            for (auto child = node.children.rbegin(); child != node.children.rend(); ++child)
                stack.emplace_back(*child, world);
        }
    }

    GltfImport mImport;
    ImageBudget mBudget;
    GltfLightsCamera mLightsCamera;
    GltfMeshTotals mTotals;
};

}  // namespace
}  // namespace gltf

void importGltfFromMemory(std::span<const std::uint8_t> bytes,
                          const std::string& name,
                          const std::filesystem::path& folder,
                          Scene& scene,
                          const GltfImportOptions& options)
{
    gltf::Importer(name, scene, options).run(bytes, folder);
}

void importGltf(const std::filesystem::path& file, Scene& scene, const GltfImportOptions& options)
{
    std::vector<std::uint8_t> bytes = gltf::readFileBytes(file);
    std::filesystem::path folder = file.parent_path();
    importGltfFromMemory(bytes, file.string(), folder.empty() ? std::filesystem::path(".") : folder, scene, options);
}

Scene loadGltfScene(const std::filesystem::path& file)
{
    Scene scene;
    scene.sourceName = file.string();
    scene.description = "glTF scene " + file.filename().string();
    GltfImportOptions options;
    options.takeLightsAndCamera = true;
    importGltf(file, scene, options);
    if (scene.meshes.empty())
        throw SceneError("cannot load glTF '" + gltf::printable(file.string()) + "': it has no triangles to draw");
    return scene;
}

bool looksLikeGltf(const std::filesystem::path& file)
{
    std::string extension = file.extension().string();
    std::transform(extension.begin(), extension.end(), extension.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    if (extension == ".gltf" || extension == ".glb")
        return true;
    std::ifstream in(file, std::ios::binary);
    char magic[4] = {};
    return in.read(magic, 4) && std::memcmp(magic, "glTF", 4) == 0;
}

}  // namespace scene
