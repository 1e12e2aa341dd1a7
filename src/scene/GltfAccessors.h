// GltfAccessors.h: a glTF import's vertex attributes and indices read out of its buffers. Every
// accessor is checked against its bufferView and buffer before it is read (stride, alignment,
// count, the bytes it reaches); normalised integer components become floats as the spec says;
// sparse accessors are refused; an accessor without a bufferView reads as zeros (the spec).
// Internal to the glTF import (GltfMeshes.cpp).
#pragma once

#include "scene/GltfImport.h"

#include <glm/vec4.hpp>

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

namespace scene::gltf {

/// An attribute as float vectors of `components` (its accessor must have exactly that many),
/// restricted to the component types the spec allows for it.
std::vector<glm::vec4> readVectors(const GltfImport& import,
                                   int index,
                                   int components,
                                   std::initializer_list<int> componentTypes,
                                   std::size_t expectedCount,
                                   const std::string& what);

/// An index accessor (SCALAR, unsigned), every index checked against `vertexCount`.
std::vector<std::uint32_t> readIndices(const GltfImport& import,
                                       int index,
                                       std::size_t vertexCount,
                                       const std::string& what);

}  // namespace scene::gltf
