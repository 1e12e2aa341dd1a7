// FormatError.h: internal to src/image. Decoders throw FormatError with only the reason ("damaged
// OpenEXR file: ..."); the public load functions add "cannot read '<file>': " and rethrow it as
// ImageError, so every message names the file exactly once.
#pragma once

#include <stdexcept>

namespace image::detail {

class FormatError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

}  // namespace image::detail
