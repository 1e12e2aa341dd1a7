// PrimitiveMesh.cpp: tessellation of boxes, planes, spheres and cylinders (see PrimitiveMesh.h).
#include "scene/PrimitiveMesh.h"

#include <glm/common.hpp>
#include <glm/ext/matrix_transform.hpp>
#include <glm/geometric.hpp>
#include <glm/mat3x3.hpp>
#include <glm/trigonometric.hpp>

#include <cmath>
#include <map>
#include <numbers>
#include <utility>

namespace scene {

glm::mat3 rotationOf(glm::vec3 degrees)
{
    glm::mat4 r(1.0f);
    // X first, then Y, then Z about the world axes: R = Rz * Ry * Rx.
    r = glm::rotate(r, glm::radians(degrees.z), glm::vec3(0, 0, 1));
    r = glm::rotate(r, glm::radians(degrees.y), glm::vec3(0, 1, 0));
    r = glm::rotate(r, glm::radians(degrees.x), glm::vec3(1, 0, 0));
    return glm::mat3(r);
}

namespace {

class Builder
{
public:
    Builder(const Object& object, TriangleMesh& mesh)
        : mMesh(mesh),
          mRotation(rotationOf(object.rotationDegrees)),
          mOffset(object.position),
          mMaterial(float(object.material))
    {
    }

    std::uint32_t vertex(glm::vec3 localPosition, glm::vec3 localNormal)
    {
        MeshVertex v{mRotation * localPosition + mOffset, glm::normalize(mRotation * localNormal)};
        v.material = mMaterial;
        mMesh.vertices.push_back(v);
        return std::uint32_t(mMesh.vertices.size() - 1);
    }

    void triangle(std::uint32_t a, std::uint32_t b, std::uint32_t c)
    {
        mMesh.indices.insert(mMesh.indices.end(), {a, b, c});
    }

    /// A quad with corners in counter-clockwise order seen from the side `normal` points to.
    void quad(glm::vec3 a, glm::vec3 b, glm::vec3 c, glm::vec3 d, glm::vec3 normal)
    {
        std::uint32_t i0 = vertex(a, normal), i1 = vertex(b, normal), i2 = vertex(c, normal), i3 = vertex(d, normal);
        triangle(i0, i1, i2);
        triangle(i0, i2, i3);
    }

private:
    TriangleMesh& mMesh;
    glm::mat3 mRotation;
    glm::vec3 mOffset;
    float mMaterial;
};

void appendBox(Builder& b, glm::vec3 size)
{
    glm::vec3 h = size * 0.5f;
    // For each axis, the +face and the -face; corners ordered so (b-a)x(c-a) points outwards.
    b.quad({h.x, -h.y, h.z}, {h.x, -h.y, -h.z}, {h.x, h.y, -h.z}, {h.x, h.y, h.z}, {1, 0, 0});
    b.quad({-h.x, -h.y, -h.z}, {-h.x, -h.y, h.z}, {-h.x, h.y, h.z}, {-h.x, h.y, -h.z}, {-1, 0, 0});
    b.quad({-h.x, h.y, h.z}, {h.x, h.y, h.z}, {h.x, h.y, -h.z}, {-h.x, h.y, -h.z}, {0, 1, 0});
    b.quad({-h.x, -h.y, -h.z}, {h.x, -h.y, -h.z}, {h.x, -h.y, h.z}, {-h.x, -h.y, h.z}, {0, -1, 0});
    b.quad({-h.x, -h.y, h.z}, {h.x, -h.y, h.z}, {h.x, h.y, h.z}, {-h.x, h.y, h.z}, {0, 0, 1});
    b.quad({h.x, -h.y, -h.z}, {-h.x, -h.y, -h.z}, {-h.x, h.y, -h.z}, {h.x, h.y, -h.z}, {0, 0, -1});
}

void appendPlane(Builder& b, glm::vec3 size)
{
    glm::vec3 h = size * 0.5f;
    b.quad({-h.x, 0, h.z}, {h.x, 0, h.z}, {h.x, 0, -h.z}, {-h.x, 0, -h.z}, {0, 1, 0});
}

void appendSphere(Builder& b, float radius)
{
    const int rings = kRoundSegments / 2;
    const int segments = kRoundSegments;
    std::vector<std::uint32_t> ids;
    for (int ring = 0; ring <= rings; ++ring) {
        float theta = float(std::numbers::pi) * float(ring) / float(rings);
        for (int s = 0; s <= segments; ++s) {
            float phi = 2.0f * float(std::numbers::pi) * float(s) / float(segments);
            glm::vec3 n(std::sin(theta) * std::sin(phi), std::cos(theta), std::sin(theta) * std::cos(phi));
            ids.push_back(b.vertex(n * radius, n));
        }
    }
    for (int ring = 0; ring < rings; ++ring)
        for (int s = 0; s < segments; ++s) {
            std::uint32_t a = ids[std::size_t(ring * (segments + 1) + s)];
            std::uint32_t c = ids[std::size_t((ring + 1) * (segments + 1) + s)];
            if (ring != 0)
                b.triangle(a, c, a + 1);
            if (ring != rings - 1)
                b.triangle(a + 1, c, c + 1);
        }
}

void appendCylinder(Builder& b, float radius, float height)
{
    const int segments = kRoundSegments;
    float h = height * 0.5f;
    std::uint32_t topCentre = b.vertex({0, h, 0}, {0, 1, 0});
    std::uint32_t bottomCentre = b.vertex({0, -h, 0}, {0, -1, 0});
    for (int s = 0; s < segments; ++s) {
        float phi0 = 2.0f * float(std::numbers::pi) * float(s) / float(segments);
        float phi1 = 2.0f * float(std::numbers::pi) * float(s + 1) / float(segments);
        glm::vec3 d0(std::sin(phi0), 0, std::cos(phi0));
        glm::vec3 d1(std::sin(phi1), 0, std::cos(phi1));
        std::uint32_t a = b.vertex(d0 * radius + glm::vec3(0, -h, 0), d0);
        std::uint32_t c = b.vertex(d1 * radius + glm::vec3(0, -h, 0), d1);
        std::uint32_t d = b.vertex(d1 * radius + glm::vec3(0, h, 0), d1);
        std::uint32_t e = b.vertex(d0 * radius + glm::vec3(0, h, 0), d0);
        b.triangle(a, c, d);
        b.triangle(a, d, e);
        b.triangle(topCentre, b.vertex(d0 * radius + glm::vec3(0, h, 0), {0, 1, 0}),
                   b.vertex(d1 * radius + glm::vec3(0, h, 0), {0, 1, 0}));
        b.triangle(bottomCentre, b.vertex(d1 * radius + glm::vec3(0, -h, 0), {0, -1, 0}),
                   b.vertex(d0 * radius + glm::vec3(0, -h, 0), {0, -1, 0}));
    }
}

}  // namespace

void appendPrimitive(const Object& object, TriangleMesh& mesh)
{
    Builder builder(object, mesh);
    switch (object.type) {
        case PrimitiveType::Box:
            appendBox(builder, object.size);
            break;
        case PrimitiveType::Plane:
            appendPlane(builder, object.size);
            break;
        case PrimitiveType::Sphere:
            appendSphere(builder, object.radius);
            break;
        case PrimitiveType::Cylinder:
            appendCylinder(builder, object.radius, object.height);
            break;
    }
}

TriangleMesh buildSceneMesh(const Scene& scene)
{
    // Batch key: rank (0 opaque casters, 1 masked casters, 2 the rest), then the material whose
    // textures the batch binds (-1: the shared untextured batch).
    auto materialOf = [&](int index) -> const Material* {
        return index >= 0 && std::size_t(index) < scene.materials.size() ? &scene.materials[std::size_t(index)]
                                                                         : nullptr;
    };
    auto keyOf = [&](int materialIndex, bool castsShadow) {
        const Material* m = materialOf(materialIndex);
        bool masked = m && m->alphaMode == AlphaMode::Mask;
        int rank = !castsShadow ? 2 : masked ? 1 : 0;
        return std::pair<int, int>(rank, m && !m->plain() ? materialIndex : -1);
    };
    std::map<std::pair<int, int>, TriangleMesh> groups;
    for (const Object& object : scene.objects)
        appendPrimitive(object, groups[keyOf(object.material, object.castsShadow)]);
    for (const ImportedMesh& imported : scene.meshes) {
        TriangleMesh& group = groups[keyOf(imported.material, imported.castsShadow)];
        auto base = std::uint32_t(group.vertices.size());
        group.vertices.insert(group.vertices.end(), imported.vertices.begin(), imported.vertices.end());
        for (std::uint32_t index : imported.indices)
            group.indices.push_back(base + index);
    }

    TriangleMesh mesh;
    bool haveCasterBounds = false;
    for (auto& [key, group] : groups) {
        if (group.indices.empty())
            continue;
        auto base = std::uint32_t(mesh.vertices.size());
        DrawBatch batch;
        batch.firstIndex = mesh.indices.size();
        batch.indexCount = group.indices.size();
        batch.material = key.second;
        batch.castsShadow = key.first < 2;
        batch.alphaMask = key.first == 1;
        const Material* m = materialOf(key.second);
        batch.doubleSided = m && m->doubleSided;
        mesh.batches.push_back(batch);
        for (std::uint32_t index : group.indices)
            mesh.indices.push_back(base + index);
        mesh.vertices.insert(mesh.vertices.end(), group.vertices.begin(), group.vertices.end());
        if (key.first == 0)
            mesh.shadowCasterIndexCount = mesh.indices.size();
        if (batch.castsShadow) {
            for (const MeshVertex& v : group.vertices) {
                mesh.casterBoundsMin = haveCasterBounds ? glm::min(mesh.casterBoundsMin, v.position) : v.position;
                mesh.casterBoundsMax = haveCasterBounds ? glm::max(mesh.casterBoundsMax, v.position) : v.position;
                haveCasterBounds = true;
            }
        }
    }
    if (!mesh.vertices.empty()) {
        mesh.boundsMin = mesh.boundsMax = mesh.vertices.front().position;
        for (const MeshVertex& v : mesh.vertices) {
            mesh.boundsMin = glm::min(mesh.boundsMin, v.position);
            mesh.boundsMax = glm::max(mesh.boundsMax, v.position);
        }
    }
    return mesh;
}

}  // namespace scene
