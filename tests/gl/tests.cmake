target_sources(hdrlab_tests_gl PRIVATE gl/GlWrappersTest.cpp)
target_sources(hdrlab_tests_gl PRIVATE gl/ShaderReloadGlTest.cpp)
