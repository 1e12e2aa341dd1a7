# Scene tests: parsing, camera paths and environment maps (CPU), rendering and prefiltering headless (GL).
target_sources(hdrlab_tests_cpu PRIVATE scene/SceneParserTest.cpp scene/CameraPathTest.cpp scene/EnvironmentMapTest.cpp)
target_sources(hdrlab_tests_gl PRIVATE scene/SceneRendererTest.cpp scene/EnvironmentLightingTest.cpp)
