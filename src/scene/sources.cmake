# Scene area: scene format (JSON with positions), camera and path, primitive meshes, renderer.
target_sources(hdrlab_core PRIVATE
  scene/SceneParser.cpp
  scene/SceneFieldReader.cpp
  scene/GltfLoader.cpp
  scene/GltfFileAccess.cpp
  scene/GltfMaterials.cpp
  scene/GltfAccessors.cpp
  scene/GltfMeshes.cpp
  scene/GltfLightsCamera.cpp
  scene/TinyGltfImplementation.cpp
  scene/Camera.cpp
  scene/FreeFlyController.cpp
  scene/PrimitiveMesh.cpp
  scene/SceneRenderer.cpp
  scene/DeferredLighting.cpp
  scene/EnvironmentLighting.cpp
  scene/EnvironmentSun.cpp
  scene/InteriorLight.cpp
  scene/PixelInjection.cpp
  scene/PreExposure.cpp
  scene/ScenePresets.cpp)
hdrlab_embed_text(hdrlab_core kDefaultSceneJson ${CMAKE_SOURCE_DIR}/scenes/default.json)
# tinygltf's implementation is third-party code: its warnings are not ours to fix.
set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/TinyGltfImplementation.cpp PROPERTIES COMPILE_OPTIONS "-w")
