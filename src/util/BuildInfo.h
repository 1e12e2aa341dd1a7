// BuildInfo.h: what was built: the git revision read at build time (with "-dirty" for uncommitted
// changes), for captures and --version.
#pragma once

namespace util {

const char* gitRevision();

}  // namespace util
