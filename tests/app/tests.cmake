target_sources(hdrlab_tests_cpu PRIVATE app/CaptureTest.cpp)
target_sources(hdrlab_tests_cpu PRIVATE app/CliTest.cpp)
target_sources(hdrlab_tests_cpu PRIVATE app/AppSetupTest.cpp)
target_sources(hdrlab_tests_cpu PRIVATE app/ResizeStormTest.cpp)
