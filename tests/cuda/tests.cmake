# hdrlab_tests_cuda: the CUDA kernels and methods against the CPU references (included only when
# the CUDA backend is built). Every test skips (and ctest reports it as skipped) without a device.
add_executable(hdrlab_tests_cuda
  cuda/CudaMain.cpp
  cuda/CudaTestSupport.cpp
  cuda/ScanCudaTest.cpp
  cuda/HistogramCudaTest.cpp
  cuda/IntegralImageCudaTest.cpp
  cuda/Equalize8CudaTest.cpp
  cuda/ClaheCudaTest.cpp
  cuda/InteropCudaTest.cpp
  cuda/SharedInteropCudaTest.cpp
  cuda/StreamBandwidthCudaTest.cpp
  cuda/ReferenceChainCudaTest.cpp)
target_link_libraries(hdrlab_tests_cuda PRIVATE hdrlab_test_support)
gtest_discover_tests(hdrlab_tests_cuda DISCOVERY_TIMEOUT 60 PROPERTIES LABELS cuda TIMEOUT 600)
