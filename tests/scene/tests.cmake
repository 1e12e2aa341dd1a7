# Scene tests: parsing, camera paths, environment maps and glTF loading (CPU), rendering and
# prefiltering headless (GL).
target_sources(hdrlab_tests_cpu PRIVATE scene/SceneParserTest.cpp scene/CameraPathTest.cpp scene/EnvironmentMapTest.cpp
  scene/EnvironmentSunTest.cpp scene/InteriorLightTest.cpp
  scene/GltfLoaderTest.cpp scene/PreExposureTest.cpp)
target_sources(hdrlab_tests_gl PRIVATE scene/SceneRendererTest.cpp scene/SceneQualityTest.cpp scene/EnvironmentLightingTest.cpp
  scene/GltfRenderTest.cpp scene/DeferredLightingTest.cpp scene/InteriorLightGlTest.cpp)
