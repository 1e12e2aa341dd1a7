// ShaderLog.h: names the file and line of a GLSL compile error. The library builds one source string
// from a shader and the files it includes; it marks each file's start (and each return from an
// include) with a `#line LINE FILE-INDEX` directive, so the driver's log counts lines per file and
// names the file by its index. translateShaderLog turns those "INDEX:LINE(COL)" (Mesa) and
// "INDEX(LINE)" (NVIDIA) prefixes back into "path:LINE:COL" / "path:LINE". Pure string work.
#pragma once

#include <string>
#include <vector>

namespace gl {

/// The `#line` directive that starts `line` of `files[fileIndex]`.
std::string lineDirective(int line, int fileIndex);

/// The driver's log with each line's source-index prefix replaced by the file's path (`files`, in
/// index order); lines without one are kept as they are.
std::string translateShaderLog(const std::string& log, const std::vector<std::string>& files);

}  // namespace gl
