# util tests (CPU): the output writer on every kind of path.
target_sources(hdrlab_tests_cpu PRIVATE util/OutputFileTest.cpp)
target_sources(hdrlab_tests_cpu PRIVATE util/SvgChartTest.cpp)
