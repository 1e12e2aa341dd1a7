# HdrlabCheckLayering.cmake: checks that the source tree's dependencies point down (run by ctest
# `layering`; by hand: cmake -DROOT=. -P cmake/HdrlabCheckLayering.cmake). Reads only the
# `#include "..."` lines, so it needs no build and no compiler. The rules (docs/ARCHITECTURE.md):
#  1. src/cuda/ (kernels, launchers, CUDA runtime owners, GL interop) includes only cuda/, shared/,
#     gl/, profiling/ and util/ headers: never post/, app/, ui/ (their adapters sit above it).
#  2. Every folder of src/ has a rank (the table below); a file includes headers of its own folder
#     and of folders of a lower rank only. Two folders never share a rank, so no two folders can
#     include each other, directly or around a loop. A folder missing from the table is an error.
#     Some pairs stay apart although the ranks would allow them (unrelated_folders: post/ never
#     includes reference/).
#  3. Nothing a kernel file (.cu, .cuh) includes, directly or through other project headers, is a GL
#     or UI header (gl/, platform/, ui/, post/, app/, <glad/...>, <imgui...>, <GLFW/...>): nvcc never
#     compiles glad or ImGui.
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

# Rule 2: folder ranks, lowest first (shared/ is shaders/shared/, the C++/GLSL/CUDA contract).
set(folder_ranks
  shared util gl platform profiling cuda image net tone reference scene post verify compare frames ui app commands cli)
# Pairs "from|to" that the ranks would allow but that stay apart: the pipeline runs without its CPU
# references (verification, verify/, sits above both; the structs both need, tone/, below both);
# the pipeline knows nothing of scenes (what renders the frame) nor of windows (what shows it: the
# context's description it needs is gl/GlInfo.h).
set(unrelated_folders "post|reference" "post|scene" "post|platform")
file(GLOB_RECURSE ranked_files RELATIVE "${ROOT}" "${ROOT}/src/*")
foreach(relative IN LISTS ranked_files)
  if(NOT relative MATCHES "^src/([a-z0-9_]+)/")
    continue()  # main.cpp: the top
  endif()
  set(folder "${CMAKE_MATCH_1}")
  math(EXPR checked "${checked} + 1")
  list(FIND folder_ranks "${folder}" from_rank)
  if(from_rank EQUAL -1)
    report("${relative}: folder ${folder}/ has no rank (add it to folder_ranks in cmake/HdrlabCheckLayering.cmake)")
    continue()
  endif()
  read_includes("${ROOT}/${relative}" quoted angle)
  foreach(target IN LISTS quoted)
    if(NOT target MATCHES "^([a-z0-9_]+)/")
      continue()
    endif()
    set(to "${CMAKE_MATCH_1}")
    list(FIND folder_ranks "${to}" to_rank)
    if(to STREQUAL folder OR to_rank EQUAL -1)
      continue()  # its own folder, or not a project folder (<glm/...> style paths in quotes)
    endif()
    if(NOT to_rank LESS from_rank)
      if("${relative}|${target}" IN_LIST known_exceptions)
        message("layering: known exception: ${relative} includes \"${target}\"")
      else()
        report("${relative} includes \"${target}\" (${folder}/ ranks below ${to}/)")
      endif()
    elseif("${folder}|${to}" IN_LIST unrelated_folders)
      if("${relative}|${target}" IN_LIST known_exceptions)
        message("layering: known exception: ${relative} includes \"${target}\"")
      else()
        report("${relative} includes \"${target}\" (${folder}/ must not depend on ${to}/)")
      endif()
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
