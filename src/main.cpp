#include "platform/GlContext.h"
#include "util/Log.h"

#include <cstdio>

int main()
{
    platform::ContextOptions options;
    auto context = platform::createHeadlessContext(options);
    std::printf("%s | %s | %s | %s\n", context->info().platform.c_str(), context->info().vendor.c_str(),
                context->info().renderer.c_str(), context->info().version.c_str());
    return 0;
}
