#include "util/Log.h"

#include <atomic>
#include <cstdio>
#include <mutex>

namespace util {
namespace {
std::atomic<LogLevel> gLevel{LogLevel::Info};
std::mutex gWriteMutex;
}  // namespace

void setLogLevel(LogLevel level)
{
    gLevel = level;
}

LogLevel logLevel()
{
    return gLevel;
}

void writeLog(LogLevel level, const std::string& text)
{
    static constexpr const char* kPrefix[] = {"debug: ", "", "warning: ", "error: ", ""};
    std::lock_guard lock(gWriteMutex);
    std::fprintf(stderr, "hdrlab: %s%s\n", kPrefix[int(level)], text.c_str());
}

}  // namespace util
