# The GPU machine's scripts (scripts/gpu-*.sh) and their one preamble (scripts/lib/gpu-preamble.sh),
# run with stand-in binaries (no GPU needed): folders, environment, tables and failing exits.
find_program(HDRLAB_PYTHON3 python3)
if(HDRLAB_PYTHON3)
  add_test(NAME gpu_preamble COMMAND ${HDRLAB_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/scripts/gpu_preamble_test.py)
  set_tests_properties(gpu_preamble PROPERTIES LABELS cpu TIMEOUT 120)
endif()
