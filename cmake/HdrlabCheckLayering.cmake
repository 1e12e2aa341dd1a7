# HdrlabCheckLayering.cmake: checks that the source tree's dependencies point down (run by ctest
# `layering`; by hand: cmake -DROOT=. -P cmake/HdrlabCheckLayering.cmake). Reads only the
# `#include "..."` lines, so it needs no build and no compiler. The rules (docs/ARCHITECTURE.md):
#  1. src/cuda/ (kernels, launchers, CUDA runtime owners, GL interop) includes only cuda/, shared/,
#     gl/, profiling/ and util/ headers: never post/, app/, ui/ (their adapters sit above it).
#  2. src/post/, src/scene/, src/image/ and src/reference/ never include app/ or ui/ headers.
#  3. Nothing a kernel file (.cu, .cuh) includes, directly or through other project headers, is a GL
#     or UI header (gl/, platform/, ui/, post/, app/, <glad/...>, <imgui...>, <GLFW/...>): nvcc never
#     compiles glad or ImGui.
#  4. The base layer (src/gl/, src/platform/, src/profiling/, src/util/) includes only gl/, platform/,
#     profiling/, util/ and shared/ headers.
# Prints every violation and "found N layering violations", then fails; else "layering: OK".
cmake_minimum_required(VERSION 3.25)
if(NOT DEFINED ROOT)
  message(FATAL_ERROR "usage: cmake -DROOT=<repository root> -P HdrlabCheckLayering.cmake")
endif()
get_filename_component(ROOT "${ROOT}" ABSOLUTE)
set(search_dirs "${ROOT}/src" "${ROOT}/shaders")
set(violations 0)
set(checked 0)

# includes(<file> <out-quoted> <out-angle>): the "..." and <...> include targets of a file.
function(read_includes file out_quoted out_angle)
  file(STRINGS "${file}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*[\"<]")
  set(quoted "")
  set(angle "")
  foreach(line IN LISTS lines)
    if(line MATCHES "#[ \t]*include[ \t]*\"([^\"]+)\"")
      list(APPEND quoted "${CMAKE_MATCH_1}")
    elseif(line MATCHES "#[ \t]*include[ \t]*<([^>]+)>")
      list(APPEND angle "${CMAKE_MATCH_1}")
    endif()
  endforeach()
  set(${out_quoted} "${quoted}" PARENT_SCOPE)
  set(${out_angle} "${angle}" PARENT_SCOPE)
endfunction()

# Known upward includes, each "file|target" with the move that removes it. They are printed, not
# counted; keep this list short and empty it.
set(known_exceptions)

macro(report text)
  message("layering: ${text}")
  math(EXPR violations "${violations} + 1")
endmacro()

# Rule 1.
file(GLOB_RECURSE cuda_files RELATIVE "${ROOT}" "${ROOT}/src/cuda/*")
foreach(relative IN LISTS cuda_files)
  math(EXPR checked "${checked} + 1")
  read_includes("${ROOT}/${relative}" quoted angle)
  foreach(target IN LISTS quoted)
    if("${relative}|${target}" IN_LIST known_exceptions)
      message("layering: known exception: ${relative} includes \"${target}\"")
    elseif(NOT target MATCHES "^(cuda|shared|gl|profiling|util)/")
      report("${relative} includes \"${target}\" (src/cuda/ may include only cuda/, shared/, gl/, profiling/, util/)")
    endif()
  endforeach()
endforeach()

# Rule 2.
file(GLOB_RECURSE middle_files RELATIVE "${ROOT}" "${ROOT}/src/post/*" "${ROOT}/src/scene/*" "${ROOT}/src/image/*"
     "${ROOT}/src/reference/*")
foreach(relative IN LISTS middle_files)
  math(EXPR checked "${checked} + 1")
  read_includes("${ROOT}/${relative}" quoted angle)
  foreach(target IN LISTS quoted)
    if(target MATCHES "^(app|ui)/")
      string(REGEX MATCH "^src/[a-z]+/" folder "${relative}")
      report("${relative} includes \"${target}\" (${folder} must not depend on app/ or ui/)")
    endif()
  endforeach()
endforeach()

# Rule 4.
file(GLOB_RECURSE base_files RELATIVE "${ROOT}" "${ROOT}/src/gl/*" "${ROOT}/src/platform/*" "${ROOT}/src/profiling/*"
     "${ROOT}/src/util/*")
foreach(relative IN LISTS base_files)
  math(EXPR checked "${checked} + 1")
  read_includes("${ROOT}/${relative}" quoted angle)
  foreach(target IN LISTS quoted)
    if(NOT target MATCHES "^(gl|platform|profiling|util|shared)/")
      report("${relative} includes \"${target}\" (the base layer may include only gl/, platform/, profiling/, util/, shared/)")
    endif()
  endforeach()
endforeach()

# Rule 3: walk each kernel file's project includes breadth-first.
file(GLOB_RECURSE kernel_files RELATIVE "${ROOT}" "${ROOT}/src/*.cu" "${ROOT}/src/*.cuh")
foreach(relative IN LISTS kernel_files)
  set(queue "${ROOT}/${relative}")
  set(seen "")
  while(queue)
    list(POP_FRONT queue file)
    if(file IN_LIST seen)
      continue()
    endif()
    list(APPEND seen "${file}")
    read_includes("${file}" quoted angle)
    file(RELATIVE_PATH from "${ROOT}" "${file}")
    foreach(target IN LISTS angle)
      if(target MATCHES "^(glad/|imgui|GLFW/|GL/|EGL/|epoxy/)")
        report("${relative} reaches <${target}> (through ${from}); kernels must not see GL or ImGui headers")
      endif()
    endforeach()
    foreach(target IN LISTS quoted)
      if(target MATCHES "^(gl|platform|ui|post|app)/")
        report("${relative} reaches \"${target}\" (through ${from}); kernels must not see GL or UI headers")
        continue()
      endif()
      get_filename_component(dir "${file}" DIRECTORY)
      foreach(base IN ITEMS "${dir}" ${search_dirs})
        if(EXISTS "${base}/${target}" AND NOT IS_DIRECTORY "${base}/${target}")
          get_filename_component(resolved "${base}/${target}" ABSOLUTE)
          list(APPEND queue "${resolved}")
          break()
        endif()
      endforeach()
    endforeach()
  endwhile()
endforeach()

if(violations GREATER 0)
  message(FATAL_ERROR "found ${violations} layering violations")
endif()
message("layering: OK (${checked} files checked, kernel include trees walked)")
