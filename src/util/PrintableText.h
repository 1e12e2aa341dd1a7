// PrintableText.h: makes text that came from a file safe to put in a one-line error message.
// Control characters (and, on request, every non-ASCII byte, for text that is binary rather than
// UTF-8) become \xNN, so a damaged file cannot break or forge lines of the log; text longer than
// maxBytes is cut (at a UTF-8 character boundary) and ends with "...", so a megabyte-long name
// from a file does not become a megabyte-long message.
#pragma once

#include <string>
#include <string_view>

namespace util {

inline std::string escapeControlCharacters(std::string_view text,
                                           bool escapeNonAscii = false,
                                           std::size_t maxBytes = std::string::npos)
{
    static constexpr char kHex[] = "0123456789abcdef";
    std::string result;
    result.reserve(text.size());
    for (char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte < 0x20 || byte == 0x7f || (escapeNonAscii && byte >= 0x80)) {
            result += "\\x";
            result += kHex[byte >> 4];
            result += kHex[byte & 15];
        } else {
            result += c;
        }
    }
    if (result.size() > maxBytes) {
        std::size_t cut = maxBytes;
        while (cut > 0 && (static_cast<unsigned char>(result[cut]) & 0xc0) == 0x80)
            --cut;
        result.resize(cut);
        result += "...";
    }
    return result;
}

/// A library's error text as one line: newlines become spaces, bytes are escaped as above (non-ASCII
/// too), the text is cut at maxBytes, and trailing spaces and full stops are dropped (the caller
/// appends to it).
inline std::string oneLineMessage(std::string_view text, std::size_t maxBytes)
{
    std::string flat(text);
    for (char& c : flat)
        if (c == '\n')
            c = ' ';
    flat = escapeControlCharacters(flat, true, maxBytes);
    while (!flat.empty() && (flat.back() == ' ' || flat.back() == '.'))
        flat.pop_back();
    return flat;
}

}  // namespace util
