#include "gl/GlInfo.h"

#include <algorithm>
#include <cctype>

namespace gl {
namespace {
std::string lowercase(std::string text)
{
    std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return text;
}
}  // namespace

bool GlInfo::isSoftwareRenderer() const
{
    const std::string r = lowercase(renderer);
    return r.find("llvmpipe") != std::string::npos || r.find("softpipe") != std::string::npos ||
           r.find("swrast") != std::string::npos || r.find("lavapipe") != std::string::npos;
}

bool GlInfo::isNvidia() const
{
    return lowercase(vendor).find("nvidia") != std::string::npos;
}

}  // namespace gl
