# The CUDA backend (included by src/CMakeLists.txt only when nvcc was found): kernels in .cu files
# behind plain C++ launchers, the CUDA runtime owners (context, stream, event timer) and the GL
# interop primitives. Host code that touches GL is .cpp, so glad and ImGui never go through nvcc.
# Nothing here includes post/ or app/: the post:: adapters (post/histogram/HistogramCudaMethods.cpp,
# post/scan/ScanCudaMethods.cpp, ...) and the commands (commands/bench/BenchCudaSuites.cpp, ...) sit above it and
# are listed by their own areas (ctest `layering` checks it). CUB is used in CubBaseline.cu only
# (slow to compile).
target_sources(hdrlab_core PRIVATE
  cuda/CudaContext.cpp
  cuda/CudaEventTimer.cpp
  cuda/GlInterop.cpp
  cuda/VulkanExporter.cpp
  cuda/SharedMemory.cpp
  cuda/Scan.cu
  cuda/BugettiHistogram.cu
  cuda/FastHistogram.cu
  cuda/CubBaseline.cu
  cuda/IntegralImage.cu
  cuda/LocalAdaptationKernels.cu
  cuda/LocalAdaptation.cpp
  cuda/Equalize8.cu
  cuda/Clahe.cu
  cuda/BenchData.cu
  cuda/StreamBandwidth.cu
  cuda/ReferenceChain.cu)
target_link_libraries(hdrlab_core PUBLIC CUDA::cudart_static)
# CMake 3.25 has no CUDA20 dialect for nvcc (CMAKE_CUDA_STANDARD 20 fails at generate time); the
# .cu files need only C++17.
set_target_properties(hdrlab_core PROPERTIES CUDA_SEPARABLE_COMPILATION OFF CUDA_STANDARD 17 CUDA_STANDARD_REQUIRED ON)
target_compile_options(hdrlab_core PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-lineinfo --expt-relaxed-constexpr -Xcompiler=-Wall>)
