// ShaderLog.cpp: the `#line` markers and the log translation of ShaderLog.h.
#include "gl/ShaderLog.h"

#include <regex>
#include <sstream>

namespace gl {

std::string lineDirective(int line, int fileIndex)
{
    return "#line " + std::to_string(line) + " " + std::to_string(fileIndex) + "\n";
}

std::string translateShaderLog(const std::string& log, const std::vector<std::string>& files)
{
    static const std::regex mesa(R"(^(\d+):(\d+)\((\d+)\))");  // 0:12(5): error: ...
    static const std::regex nvidia(R"(^(\d+)\((\d+)\))");      // 0(12) : error C0000: ...
    std::istringstream lines(log);
    std::ostringstream out;
    std::string line;
    auto fileOf = [&](const std::string& index) -> std::string {
        const unsigned long i = std::stoul(index);
        return i < files.size() ? files[i] : "source " + index;
    };
    while (std::getline(lines, line)) {
        std::smatch match;
        if (std::regex_search(line, match, mesa))
            line = fileOf(match[1]) + ":" + match[2].str() + ":" + match[3].str() + match.suffix().str();
        else if (std::regex_search(line, match, nvidia))
            line = fileOf(match[1]) + ":" + match[2].str() + match.suffix().str();
        out << line << "\n";
    }
    return out.str();
}

}  // namespace gl
