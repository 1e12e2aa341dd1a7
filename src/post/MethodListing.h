// MethodListing.h: the text of `hdrlab --list`: every histogram method, scan method and tone
// operator with its id, label, availability (or why not) and limits.
#pragma once

#include "post/PostTypes.h"

#include <string>

namespace post {

std::string describeAvailableMethods(const GpuCaps& caps);

}  // namespace post
