# Scene area: scene format (JSON with positions), camera and path, primitive meshes, renderer.
target_sources(hdrlab_core PRIVATE
  scene/JsonReader.cpp
  scene/SceneParser.cpp
  scene/Camera.cpp
  scene/FreeFlyController.cpp
  scene/PrimitiveMesh.cpp
  scene/SceneRenderer.cpp
  scene/EnvironmentLighting.cpp)
hdrlab_embed_text(hdrlab_core kDefaultSceneJson ${CMAKE_SOURCE_DIR}/scenes/default.json)
