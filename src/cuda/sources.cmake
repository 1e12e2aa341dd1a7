# The CUDA backend (included by src/CMakeLists.txt only when nvcc was found). Kernels live in .cu
# files behind plain C++ launchers; GL interop and the post:: method classes are host C++ (.cpp)
# so that glad and ImGui never go through nvcc. CUB is used in CubBaseline.cu only (slow to compile).
target_sources(hdrlab_core PRIVATE
  cuda/CudaContext.cpp
  cuda/CudaEventTimer.cpp
  cuda/CudaProbe.cpp
  cuda/GlInterop.cpp
  cuda/VulkanExporter.cpp
  cuda/SharedMemory.cpp
  cuda/Scan.cu
  cuda/BugettiHistogram.cu
  cuda/FastHistogram.cu
  cuda/CubBaseline.cu
  cuda/CudaHistogramMethods.cpp
  cuda/CudaScanMethods.cpp
  cuda/IntegralImage.cu
  cuda/LocalAdaptationKernels.cu
  cuda/LocalAdaptation.cpp
  cuda/LocalAdaptationSource.cpp
  cuda/Equalize8.cu
  cuda/Equalize8Command.cpp
  cuda/BenchData.cu
  cuda/BenchCommand.cpp)
target_link_libraries(hdrlab_core PUBLIC CUDA::cudart_static)
# CMake 3.25 has no CUDA20 dialect for nvcc (CMAKE_CUDA_STANDARD 20 fails at generate time); the
# .cu files need only C++17.
set_target_properties(hdrlab_core PROPERTIES CUDA_SEPARABLE_COMPILATION OFF CUDA_STANDARD 17 CUDA_STANDARD_REQUIRED ON)
target_compile_options(hdrlab_core PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-lineinfo --expt-relaxed-constexpr -Xcompiler=-Wall>)
