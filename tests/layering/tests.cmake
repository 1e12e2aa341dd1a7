# Layering: dependencies point down (cmake/HdrlabCheckLayering.cmake reads the #include lines of
# every folder of src/, ranked lowest first, and every kernel's include tree). The second test runs
# the same check on a fixture tree with one violation of each rule (kernel -> launcher -> gl/ and
# <imgui.h>, an adapter in src/cuda including post/, post/ including cli/, reference/, scene/ and platform/, util/
# including post/, a folder without a rank), so the check is known to fail when it must.
add_test(NAME layering
  COMMAND ${CMAKE_COMMAND} -DROOT=${CMAKE_SOURCE_DIR} -P ${CMAKE_SOURCE_DIR}/cmake/HdrlabCheckLayering.cmake)
add_test(NAME layering-detects-violations
  COMMAND ${CMAKE_COMMAND} -DROOT=${CMAKE_CURRENT_SOURCE_DIR}/layering/violations
          -P ${CMAKE_SOURCE_DIR}/cmake/HdrlabCheckLayering.cmake)
set_tests_properties(layering layering-detects-violations PROPERTIES LABELS cpu)
# The exit code is ignored when a pass expression is set: the expected count and each rule's message.
set_tests_properties(layering-detects-violations PROPERTIES PASS_REGULAR_EXPRESSION
  "src/cuda/Adapter.cpp includes \"post/PostTypes.h\" \\(src/cuda/ may.*src/cuda/Adapter.cpp includes \"post/PostTypes.h\" \\(cuda/ ranks below post/\\).*src/extras/Unranked.h: folder extras/ has no rank.*src/post/Command.cpp includes \"cli/Commands.h\" \\(post/ ranks below cli/\\).*src/post/UsesReference.cpp includes \"reference/Histogram.h\" \\(post/ must not depend on reference/\\).*src/post/UsesSceneAndWindow.cpp includes \"platform/GlContext.h\" \\(post/ must not depend on platform/\\).*src/post/UsesSceneAndWindow.cpp includes \"scene/JsonReader.h\" \\(post/ must not depend on scene/\\).*src/util/Upward.h includes \"post/PostPipeline.h\".*src/cuda/Kernel.cu reaches <imgui.h>.*src/cuda/Kernel.cu reaches \"gl/Buffer.h\".*found 10 layering violations")

# Size: files <= 700 lines and functions <= 150 lines in src/ and shaders/, with an exception list
# that may only shrink (scripts/check_code_size.py, tests/layering/size-exceptions.txt); the second
# test runs the check on a fixture tree with one case of each rule, so it is known to fail.
find_program(HDRLAB_PYTHON3 python3)
if(HDRLAB_PYTHON3)
  add_test(NAME code_size COMMAND ${HDRLAB_PYTHON3} ${CMAKE_SOURCE_DIR}/scripts/check_code_size.py ${CMAKE_SOURCE_DIR})
  add_test(NAME code_size-detects-violations
    COMMAND ${HDRLAB_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/scripts/check_code_size_test.py)
  set_tests_properties(code_size code_size-detects-violations PROPERTIES LABELS cpu TIMEOUT 60)
endif()
