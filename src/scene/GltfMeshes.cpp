// GltfMeshes.cpp: glTF mesh primitives into world-space scene meshes (see GltfMeshes.h).
#include "scene/GltfMeshes.h"

#include "scene/GltfAccessors.h"

#include <glm/geometric.hpp>
#include <glm/mat3x3.hpp>
#include <glm/matrix.hpp>

#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

namespace scene::gltf {
namespace {

std::vector<std::uint32_t> toTriangleList(const std::vector<std::uint32_t>& indices, int mode)
{
    std::vector<std::uint32_t> out;
    if (mode == TINYGLTF_MODE_TRIANGLES) {
        out.assign(indices.begin(), indices.begin() + std::ptrdiff_t(indices.size() / 3 * 3));
        return out;
    }
    for (std::size_t i = 2; i < indices.size(); ++i) {
        if (mode == TINYGLTF_MODE_TRIANGLE_STRIP) {
            bool odd = (i % 2) == 1;
            out.insert(out.end(),
                       {indices[i - 2], odd ? indices[i] : indices[i - 1], odd ? indices[i - 1] : indices[i]});
        } else {
            out.insert(out.end(), {indices[0], indices[i - 1], indices[i]});
        }
    }
    return out;
}

/// Per-triangle tangents from the texture coordinates, accumulated per vertex (Lengyel's method).
void generateTangents(ImportedMesh& mesh)
{
    std::vector<glm::vec3> tan(mesh.vertices.size(), glm::vec3(0.0f));
    std::vector<glm::vec3> bitan(mesh.vertices.size(), glm::vec3(0.0f));
    for (std::size_t t = 0; t + 2 < mesh.indices.size(); t += 3) {
        std::uint32_t i0 = mesh.indices[t], i1 = mesh.indices[t + 1], i2 = mesh.indices[t + 2];
        const MeshVertex &a = mesh.vertices[i0], &b = mesh.vertices[i1], &c = mesh.vertices[i2];
        glm::vec3 e1 = b.position - a.position, e2 = c.position - a.position;
        glm::vec2 d1 = b.texcoord - a.texcoord, d2 = c.texcoord - a.texcoord;
        float det = d1.x * d2.y - d2.x * d1.y;
        if (std::abs(det) < 1e-20f)
            continue;
        float r = 1.0f / det;
        glm::vec3 sdir = (e1 * d2.y - e2 * d1.y) * r;
        glm::vec3 tdir = (e2 * d1.x - e1 * d2.x) * r;
        if (!std::isfinite(glm::dot(sdir, sdir)) || !std::isfinite(glm::dot(tdir, tdir)))
            continue;
        for (std::uint32_t i : {i0, i1, i2}) {
            tan[i] += sdir;
            bitan[i] += tdir;
        }
    }
    for (std::size_t i = 0; i < mesh.vertices.size(); ++i) {
        glm::vec3 n = mesh.vertices[i].normal;
        glm::vec3 t = tan[i] - n * glm::dot(n, tan[i]);
        if (!(glm::dot(t, t) > 1e-20f) || !std::isfinite(glm::dot(t, t)))
            continue;  // no usable frame: the shader then ignores the normal map here
        t = glm::normalize(t);
        float w = glm::dot(glm::cross(n, t), bitan[i]) < 0.0f ? -1.0f : 1.0f;
        mesh.vertices[i].tangent = glm::vec4(t, w);
    }
}

void bakeToWorld(const GltfImport& import,
                 ImportedMesh& mesh,
                 const glm::mat4& world,
                 const glm::mat3& normalMatrix,
                 bool mirrored)
{
    glm::mat3 linear(world);
    for (MeshVertex& v : mesh.vertices) {
        v.position = glm::vec3(world * glm::vec4(v.position, 1.0f));
        glm::vec3 n = normalMatrix * v.normal;
        v.normal = glm::dot(n, n) > 1e-30f ? glm::normalize(n) : glm::vec3(0, 1, 0);
        glm::vec3 t = linear * glm::vec3(v.tangent);
        if (v.tangent.w != 0.0f && glm::dot(t, t) > 1e-30f)
            v.tangent = glm::vec4(glm::normalize(t), (v.tangent.w < 0.0f ? -1.0f : 1.0f) * (mirrored ? -1.0f : 1.0f));
        else
            v.tangent = glm::vec4(0.0f);
        v.material = float(mesh.material);
        if (!finite(v.position.x) || !finite(v.position.y) || !finite(v.position.z) || !finite(v.normal.x) ||
            !finite(v.normal.y) || !finite(v.normal.z))
            import.fail("mesh '" + printable(mesh.name) + "' has non-finite vertices after its node transforms");
    }
    if (mirrored)  // a mirroring transform turns counter-clockwise triangles clockwise
        for (std::size_t t = 0; t + 2 < mesh.indices.size(); t += 3)
            std::swap(mesh.indices[t + 1], mesh.indices[t + 2]);
}

}  // namespace

void importMesh(GltfImport& import,
                GltfMaterials& materials,
                int meshIndex,
                const glm::mat4& world,
                const std::string& nodeWhat,
                GltfMeshTotals& totals)
{
    if (std::size_t(meshIndex) >= import.model.meshes.size())
        import.fail(nodeWhat + " refers to mesh " + std::to_string(meshIndex) + ", which does not exist");
    const tinygltf::Mesh& mesh = import.model.meshes[std::size_t(meshIndex)];
    glm::mat3 linear(world);
    glm::mat3 normalMatrix = glm::transpose(glm::inverse(linear));
    bool mirrored = glm::determinant(linear) < 0.0f;
    for (std::size_t p = 0; p < mesh.primitives.size(); ++p) {
        const tinygltf::Primitive& primitive = mesh.primitives[p];
        std::string what = "mesh " + std::to_string(meshIndex) + " primitive " + std::to_string(p);
        int mode = primitive.mode < 0 ? TINYGLTF_MODE_TRIANGLES : primitive.mode;
        if (mode != TINYGLTF_MODE_TRIANGLES && mode != TINYGLTF_MODE_TRIANGLE_STRIP &&
            mode != TINYGLTF_MODE_TRIANGLE_FAN)
            import.fail(what + " has mode " + std::to_string(mode) +
                        " (points or lines); only triangles, strips and fans are supported");
        if (!primitive.targets.empty())
            import.warn(what + " has morph targets, which are ignored");
        auto attribute = [&](const char* name) {
            auto found = primitive.attributes.find(name);
            return found == primitive.attributes.end() ? -1 : found->second;
        };
        int positionIndex = attribute("POSITION");
        if (positionIndex < 0)
            import.fail(what + " has no POSITION attribute");
        std::vector<glm::vec4> positions =
            readVectors(import, positionIndex, 3, {TINYGLTF_COMPONENT_TYPE_FLOAT}, 0, what + " POSITION");
        std::size_t count = positions.size();
        std::vector<glm::vec4> normals, tangents, texcoords;
        if (int n = attribute("NORMAL"); n >= 0)
            normals = readVectors(import, n, 3, {TINYGLTF_COMPONENT_TYPE_FLOAT}, count, what + " NORMAL");
        if (int t = attribute("TANGENT"); t >= 0)
            tangents = readVectors(import, t, 4, {TINYGLTF_COMPONENT_TYPE_FLOAT}, count, what + " TANGENT");
        if (int uv = attribute("TEXCOORD_0"); uv >= 0)
            texcoords = readVectors(import, uv, 2,
                                    {TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE,
                                     TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT},
                                    count, what + " TEXCOORD_0");

        std::vector<std::uint32_t> indices;
        if (primitive.indices >= 0) {
            indices = readIndices(import, primitive.indices, count, what + " indices");
        } else {
            indices.resize(count);
            for (std::size_t i = 0; i < count; ++i)
                indices[i] = std::uint32_t(i);
        }
        std::vector<std::uint32_t> triangles = toTriangleList(indices, mode);

        int sceneMaterial = materials.sceneMaterial(primitive.material, what);

        ImportedMesh out;
        out.name = mesh.name.empty() ? import.name + "#" + what : mesh.name;
        out.material = sceneMaterial;
        out.castsShadow = import.options.castsShadow;
        bool flat = normals.empty();
        if (flat) {
            // No normals: flat shading, so every triangle gets its own three vertices.
            for (std::size_t t = 0; t + 2 < triangles.size(); t += 3) {
                glm::vec3 a(positions[triangles[t]]), b(positions[triangles[t + 1]]), c(positions[triangles[t + 2]]);
                glm::vec3 n = glm::cross(b - a, c - a);
                n = glm::dot(n, n) > 0.0f ? glm::normalize(n) : glm::vec3(0, 1, 0);
                for (int k = 0; k < 3; ++k) {
                    std::uint32_t source = triangles[t + std::size_t(k)];
                    MeshVertex v{glm::vec3(positions[source]), n};
                    if (!texcoords.empty())
                        v.texcoord = glm::vec2(texcoords[source]);
                    if (!tangents.empty())
                        v.tangent = tangents[source];
                    out.vertices.push_back(v);
                    out.indices.push_back(std::uint32_t(out.vertices.size() - 1));
                }
            }
        } else {
            out.vertices.resize(count);
            for (std::size_t i = 0; i < count; ++i) {
                MeshVertex& v = out.vertices[i];
                v.position = glm::vec3(positions[i]);
                v.normal = glm::vec3(normals[i]);
                if (!texcoords.empty())
                    v.texcoord = glm::vec2(texcoords[i]);
                if (!tangents.empty())
                    v.tangent = tangents[i];
            }
            out.indices = std::move(triangles);
        }
        const Material& m = import.scene.materials[std::size_t(sceneMaterial)];
        if (tangents.empty() && m.textures.normal >= 0 && !texcoords.empty())
            generateTangents(out);
        bakeToWorld(import, out, world, normalMatrix, mirrored);
        totals.vertices += out.vertices.size();
        totals.indices += out.indices.size();
        if (totals.vertices > kMaxGltfVertices || totals.indices > kMaxGltfIndices)
            import.fail("the scene has more than " + std::to_string(kMaxGltfVertices) + " vertices or " +
                        std::to_string(kMaxGltfIndices) + " indices after instancing");
        if (!out.indices.empty())
            import.scene.meshes.push_back(std::move(out));
    }
}

}  // namespace scene::gltf
