# util tests (CPU): the output writer on every kind of path, the SVG chart, the medians.
target_sources(hdrlab_tests_cpu PRIVATE util/OutputFileTest.cpp)
target_sources(hdrlab_tests_cpu PRIVATE util/SvgChartTest.cpp)
target_sources(hdrlab_tests_cpu PRIVATE util/StatsTest.cpp)
