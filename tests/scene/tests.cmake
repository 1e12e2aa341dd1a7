# Scene tests: parsing and camera paths (CPU), rendering the scenes headless (GL).
target_sources(hdrlab_tests_cpu PRIVATE scene/SceneParserTest.cpp scene/CameraPathTest.cpp scene/GltfLoaderTest.cpp)
target_sources(hdrlab_tests_gl PRIVATE scene/SceneRendererTest.cpp scene/GltfRenderTest.cpp)
