target_sources(hdrlab_core PRIVATE
  util/JsonReader.cpp
  util/Log.cpp
  util/OutputFile.cpp
  util/Paths.cpp
  util/FolderWatcher.cpp
  util/Stats.cpp)
target_sources(hdrlab_core PRIVATE util/LogLogChart.cpp util/SvgChart.cpp)
