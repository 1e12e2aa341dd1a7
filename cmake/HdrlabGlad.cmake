# Generates glad 2's GL 4.5 core + EGL 1.5 + Vulkan 1.1 loaders (with the extensions hdrlab uses) into
# the build tree with the `glad` tool from python3-glad. --reproducible keeps it offline (packaged
# specs). All three load their library at run time (dlopen): no libvulkan is needed to build or run;
# Vulkan only allocates the memory CUDA and GL share (src/cuda/VulkanExporter.h).
find_program(GLAD_EXECUTABLE glad REQUIRED)

set(HDRLAB_GL_EXTENSIONS
  GL_KHR_debug
  GL_ARB_query_buffer_object
  GL_KHR_shader_subgroup
  GL_ARB_shader_ballot
  GL_NV_shader_thread_shuffle
  GL_ARB_gl_spirv
  GL_ARB_pipeline_statistics_query
  GL_NVX_gpu_memory_info
  GL_EXT_memory_object
  GL_EXT_memory_object_fd
  GL_EXT_semaphore
  GL_EXT_semaphore_fd
)
set(HDRLAB_VK_EXTENSIONS
  VK_KHR_external_memory_fd
  VK_KHR_external_semaphore_fd
)
set(HDRLAB_EGL_EXTENSIONS
  EGL_EXT_platform_base
  EGL_EXT_platform_device
  EGL_EXT_device_base
  EGL_EXT_device_enumeration
  EGL_EXT_device_query
  EGL_MESA_platform_surfaceless
  EGL_KHR_surfaceless_context
  EGL_KHR_create_context
  EGL_NV_device_cuda
  EGL_EXT_device_drm
)
list(JOIN HDRLAB_GL_EXTENSIONS "," _gl_ext)
list(JOIN HDRLAB_EGL_EXTENSIONS "," _egl_ext)
list(JOIN HDRLAB_VK_EXTENSIONS "," _vk_ext)
set(GLAD_OUT ${CMAKE_BINARY_DIR}/glad)
add_custom_command(
  OUTPUT ${GLAD_OUT}/src/gl.c ${GLAD_OUT}/include/glad/gl.h
  COMMAND ${GLAD_EXECUTABLE} --quiet --reproducible --api gl:core=4.5 --extensions ${_gl_ext}
          --out-path ${GLAD_OUT} c --loader
  COMMENT "glad: generating the GL 4.5 core loader"
  VERBATIM)
add_custom_command(
  OUTPUT ${GLAD_OUT}/src/egl.c ${GLAD_OUT}/include/glad/egl.h
  COMMAND ${GLAD_EXECUTABLE} --quiet --reproducible --api egl=1.5 --extensions ${_egl_ext}
          --out-path ${GLAD_OUT} c --loader
  DEPENDS ${GLAD_OUT}/src/gl.c
  COMMENT "glad: generating the EGL 1.5 loader"
  VERBATIM)
add_custom_command(
  OUTPUT ${GLAD_OUT}/src/vulkan.c ${GLAD_OUT}/include/glad/vulkan.h
  COMMAND ${GLAD_EXECUTABLE} --quiet --reproducible --api vulkan=1.1 --extensions ${_vk_ext}
          --out-path ${GLAD_OUT} c --loader
  DEPENDS ${GLAD_OUT}/src/egl.c
  COMMENT "glad: generating the Vulkan 1.1 loader"
  VERBATIM)
add_library(hdrlab_glad STATIC ${GLAD_OUT}/src/gl.c ${GLAD_OUT}/src/egl.c ${GLAD_OUT}/src/vulkan.c)
target_include_directories(hdrlab_glad SYSTEM PUBLIC ${GLAD_OUT}/include)
target_link_libraries(hdrlab_glad PUBLIC ${CMAKE_DL_LIBS})
set_target_properties(hdrlab_glad PROPERTIES POSITION_INDEPENDENT_CODE ON)
