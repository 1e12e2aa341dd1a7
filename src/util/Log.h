// Log.h: minimal leveled logging to stderr with "{}" placeholders (GCC 12 has no <format>).
#pragma once

#include <sstream>
#include <string>
#include <string_view>

namespace util {

enum class LogLevel { Debug, Info, Warning, Error, Quiet };

void setLogLevel(LogLevel level);
LogLevel logLevel();
void writeLog(LogLevel level, const std::string& text);

namespace detail {
inline void formatInto(std::ostringstream& out, std::string_view pattern)
{
    out << pattern;
}

template <typename T, typename... Rest>
void formatInto(std::ostringstream& out, std::string_view pattern, const T& value, const Rest&... rest)
{
    std::size_t at = pattern.find("{}");
    if (at == std::string_view::npos) {
        out << pattern;
        return;
    }
    out << pattern.substr(0, at) << value;
    formatInto(out, pattern.substr(at + 2), rest...);
}
}  // namespace detail

/// format("a {} b {}", 1, 2) == "a 1 b 2"
template <typename... Args>
std::string format(std::string_view pattern, const Args&... args)
{
    std::ostringstream out;
    detail::formatInto(out, pattern, args...);
    return out.str();
}

template <typename... Args>
void logDebug(std::string_view pattern, const Args&... args)
{
    if (logLevel() <= LogLevel::Debug)
        writeLog(LogLevel::Debug, format(pattern, args...));
}
template <typename... Args>
void logInfo(std::string_view pattern, const Args&... args)
{
    if (logLevel() <= LogLevel::Info)
        writeLog(LogLevel::Info, format(pattern, args...));
}
template <typename... Args>
void logWarning(std::string_view pattern, const Args&... args)
{
    if (logLevel() <= LogLevel::Warning)
        writeLog(LogLevel::Warning, format(pattern, args...));
}
template <typename... Args>
void logError(std::string_view pattern, const Args&... args)
{
    if (logLevel() <= LogLevel::Error)
        writeLog(LogLevel::Error, format(pattern, args...));
}

}  // namespace util
