# tone/: the plain structs the GPU operators (post/) and their CPU references (reference/) share.
target_sources(hdrlab_core PRIVATE tone/PcondView.cpp)
# pcond's arithmetic, operation by operation: no fused multiply-adds (as reference/WardPcondRef.cpp).
set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/PcondView.cpp PROPERTIES COMPILE_OPTIONS -ffp-contract=off)
