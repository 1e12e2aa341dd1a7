# Image I/O tests (tests/image): CPU only.
target_sources(hdrlab_tests_cpu PRIVATE image/ImageIoTest.cpp image/ExrReaderTest.cpp image/DeepFlattenTest.cpp)
target_sources(hdrlab_tests_cpu PRIVATE image/ImageIoTest.cpp image/ExrReaderTest.cpp image/RadianceReaderTest.cpp
  image/RadianceColourTest.cpp)
target_sources(hdrlab_tests_cpu PRIVATE image/HdrPngTest.cpp)
