// GltfAccessors.cpp: glTF accessors read with bounds checks (see GltfAccessors.h).
#include "scene/GltfAccessors.h"

#include <algorithm>
#include <cstring>

namespace scene::gltf {
namespace {

struct AccessorView
{
    const std::uint8_t* data = nullptr;  ///< null: all zeros (no bufferView)
    std::size_t stride = 0;
    std::size_t count = 0;
    int componentType = 0;
    int components = 0;
    bool normalized = false;
};

AccessorView view(const GltfImport& import, int index, const std::string& what)
{
    if (index < 0 || std::size_t(index) >= import.model.accessors.size())
        import.fail(what + " refers to accessor " + std::to_string(index) + ", which does not exist");
    const tinygltf::Accessor& a = import.model.accessors[std::size_t(index)];
    std::string where = what + " (accessor " + std::to_string(index) + ")";
    if (a.sparse.isSparse)
        import.fail(where + " is sparse; sparse accessors are not supported");
    AccessorView v;
    v.count = a.count;
    v.componentType = a.componentType;
    v.components = tinygltf::GetNumComponentsInType(std::uint32_t(a.type));
    v.normalized = a.normalized;
    int componentSize = tinygltf::GetComponentSizeInBytes(std::uint32_t(a.componentType));
    if (v.components <= 0 || componentSize <= 0)
        import.fail(where + " has an invalid type or component type");
    if (v.count == 0)
        import.fail(where + " has count 0");
    if (v.count > kMaxGltfIndices)
        import.fail(where + " has an absurd count of " + std::to_string(v.count));
    std::size_t elementSize = std::size_t(componentSize) * std::size_t(v.components);
    if (a.bufferView < 0)
        return v;  // zeros, per the spec
    if (std::size_t(a.bufferView) >= import.model.bufferViews.size())
        import.fail(where + " refers to bufferView " + std::to_string(a.bufferView) + ", which does not exist");
    const tinygltf::BufferView& bv = import.model.bufferViews[std::size_t(a.bufferView)];
    if (bv.buffer < 0 || std::size_t(bv.buffer) >= import.model.buffers.size())
        import.fail(where + ": its bufferView refers to buffer " + std::to_string(bv.buffer) +
                    ", which does not exist");
    const std::vector<unsigned char>& buffer = import.model.buffers[std::size_t(bv.buffer)].data;
    if (bv.byteOffset > buffer.size() || bv.byteLength > buffer.size() - bv.byteOffset)
        import.fail(where + ": bufferView " + std::to_string(a.bufferView) + " reaches past the end of buffer " +
                    std::to_string(bv.buffer) + " (" + std::to_string(buffer.size()) + " bytes)");
    v.stride = bv.byteStride != 0 ? bv.byteStride : elementSize;
    if (v.stride < elementSize || v.stride > 252)
        import.fail(where + " has byteStride " + std::to_string(v.stride) + " for elements of " +
                    std::to_string(elementSize) + " bytes");
    if (a.byteOffset % std::size_t(componentSize) != 0)
        import.fail(where + " has a byteOffset that is not a multiple of its component size");
    std::size_t needed = a.byteOffset + v.stride * (v.count - 1) + elementSize;
    if (a.byteOffset > bv.byteLength || needed > bv.byteLength)
        import.fail(where + " reaches past the end of its bufferView (" + std::to_string(needed) + " bytes needed, " +
                    std::to_string(bv.byteLength) + " there)");
    v.data = buffer.data() + bv.byteOffset + a.byteOffset;
    return v;
}

float component(const AccessorView& v, std::size_t element, int c)
{
    if (!v.data)
        return 0.0f;
    const std::uint8_t* p = v.data + element * v.stride;
    auto read = [&](auto type) {
        using T = decltype(type);
        T value;
        std::memcpy(&value, p + sizeof(T) * std::size_t(c), sizeof(T));
        return value;
    };
    switch (v.componentType) {
        case TINYGLTF_COMPONENT_TYPE_FLOAT:
            return read(float());
        case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE:
            return v.normalized ? float(read(std::uint8_t())) / 255.0f : float(read(std::uint8_t()));
        case TINYGLTF_COMPONENT_TYPE_BYTE:
            return v.normalized ? std::max(float(read(std::int8_t())) / 127.0f, -1.0f) : float(read(std::int8_t()));
        case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT:
            return v.normalized ? float(read(std::uint16_t())) / 65535.0f : float(read(std::uint16_t()));
        case TINYGLTF_COMPONENT_TYPE_SHORT:
            return v.normalized ? std::max(float(read(std::int16_t())) / 32767.0f, -1.0f) : float(read(std::int16_t()));
        case TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT:
            return float(read(std::uint32_t()));
        default:
            return 0.0f;
    }
}

}  // namespace

std::vector<glm::vec4> readVectors(const GltfImport& import,
                                   int index,
                                   int components,
                                   std::initializer_list<int> componentTypes,
                                   std::size_t expectedCount,
                                   const std::string& what)
{
    AccessorView v = view(import, index, what);
    if (v.components != components)
        import.fail(what + " must have " + std::to_string(components) + " components, got " +
                    std::to_string(v.components));
    if (std::find(componentTypes.begin(), componentTypes.end(), v.componentType) == componentTypes.end())
        import.fail(what + " has component type " + std::to_string(v.componentType) + ", not allowed for it");
    if (v.componentType != TINYGLTF_COMPONENT_TYPE_FLOAT && !v.normalized)
        import.fail(what + " has integer components that are not normalized");
    if (expectedCount != 0 && v.count != expectedCount)
        import.fail(what + " has " + std::to_string(v.count) + " elements, POSITION has " +
                    std::to_string(expectedCount));
    std::vector<glm::vec4> out(v.count, glm::vec4(0.0f));
    for (std::size_t i = 0; i < v.count; ++i)
        for (int c = 0; c < components; ++c) {
            float value = component(v, i, c);
            if (!finite(value))
                import.fail(what + " holds a non-finite number at element " + std::to_string(i));
            out[i][c] = value;
        }
    return out;
}

std::vector<std::uint32_t> readIndices(const GltfImport& import,
                                       int index,
                                       std::size_t vertexCount,
                                       const std::string& what)
{
    AccessorView v = view(import, index, what);
    if (v.components != 1)
        import.fail(what + " must be SCALAR");
    if (v.componentType != TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE &&
        v.componentType != TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT &&
        v.componentType != TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT)
        import.fail(what + " must have an unsigned integer component type, got " + std::to_string(v.componentType));
    std::vector<std::uint32_t> out(v.count);
    for (std::size_t i = 0; i < v.count; ++i) {
        std::uint32_t value = 0;
        if (v.data) {
            const std::uint8_t* p = v.data + i * v.stride;
            if (v.componentType == TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE) {
                value = *p;
            } else if (v.componentType == TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT) {
                std::uint16_t shortValue;
                std::memcpy(&shortValue, p, 2);
                value = shortValue;
            } else {
                std::memcpy(&value, p, 4);
            }
        }
        if (std::size_t(value) >= vertexCount)
            import.fail(what + " holds index " + std::to_string(value) + " at element " + std::to_string(i) +
                        ", but there are only " + std::to_string(vertexCount) + " vertices");
        out[i] = value;
    }
    return out;
}

}  // namespace scene::gltf
