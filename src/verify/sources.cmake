# verify/: the pipeline's last frame against the CPU references (--verify); above post/ and reference/.
target_sources(hdrlab_core PRIVATE verify/PipelineVerify.cpp)
target_sources(hdrlab_core PRIVATE verify/LocalExposureVerify.cpp)
target_sources(hdrlab_core PRIVATE verify/FusionVerify.cpp)
target_sources(hdrlab_core PRIVATE verify/LocalExposureMean.cpp)
