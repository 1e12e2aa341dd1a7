target_sources(hdrlab_core PRIVATE reference/Histogram.cpp)
target_sources(hdrlab_core PRIVATE reference/Scan.cpp)
target_sources(hdrlab_core PRIVATE reference/Image.cpp)
target_sources(hdrlab_core PRIVATE reference/Equalize8.cpp)
target_sources(hdrlab_core PRIVATE reference/ToneEqualizeRef.cpp)
target_sources(hdrlab_core PRIVATE reference/TonePercentileRef.cpp)
target_sources(hdrlab_core PRIVATE reference/ToneWardRef.cpp)
target_sources(hdrlab_core PRIVATE reference/ToneExposureRef.cpp)
target_sources(hdrlab_core PRIVATE reference/ToneReference.cpp)
target_sources(hdrlab_core PRIVATE reference/ToneLocalRef.cpp)
target_sources(hdrlab_core PRIVATE reference/IntegralImage.cpp)
target_sources(hdrlab_core PRIVATE reference/FalseColourRef.cpp)
target_sources(hdrlab_core PRIVATE reference/SplitComposeRef.cpp)
target_sources(hdrlab_core PRIVATE reference/FxaaRef.cpp)
target_sources(hdrlab_core PRIVATE reference/Metering.cpp)
target_sources(hdrlab_core PRIVATE reference/WardPcondRef.cpp)
target_sources(hdrlab_core PRIVATE reference/ToneWardExact.cpp)
# pcond's arithmetic (and WardCurve.comp's), operation by operation: no fused multiply-adds.
set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/WardPcondRef.cpp
                            ${CMAKE_CURRENT_LIST_DIR}/ToneWardExact.cpp
                            ${CMAKE_CURRENT_LIST_DIR}/../post/tonemap/WardPcondPlan.cpp
                            PROPERTIES COMPILE_OPTIONS -ffp-contract=off)
target_sources(hdrlab_core PRIVATE reference/Clahe.cpp)
# The fusion local exposure as its shaders compute it: separate float multiplies and adds, never fused.
target_sources(hdrlab_core PRIVATE reference/ExposureFusion.cpp)
set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/ExposureFusion.cpp PROPERTIES COMPILE_OPTIONS -ffp-contract=off)
# OpenCV's CLAHE blend as its x86-64 builds compute it: separate float multiplies and adds, never fused.
set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/Clahe.cpp PROPERTIES COMPILE_OPTIONS -ffp-contract=off)
target_sources(hdrlab_core PRIVATE reference/DisplayTransformRef.cpp)
target_sources(hdrlab_core PRIVATE reference/HdrEncode.cpp)
target_sources(hdrlab_core PRIVATE reference/LocalExposureRef.cpp)
target_sources(hdrlab_core PRIVATE reference/PeerMeteringRef.cpp)
