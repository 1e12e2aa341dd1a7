#include "frames/FrameSequence.h"

#include "util/Log.h"

#include <fnmatch.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>
#include <set>
#include <stdexcept>

namespace app {
namespace fs = std::filesystem;

namespace {

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

bool hasGlobCharacters(std::string_view name)
{
    return name.find_first_of("*?[") != std::string_view::npos;
}

/// "%d" or "%0Nd" somewhere in the name (the cheap test of isSequenceInput; parseNumberPattern checks).
bool hasNumberConversion(std::string_view name)
{
    for (std::size_t at = name.find('%'); at != std::string_view::npos; at = name.find('%', at + 1)) {
        std::size_t next = at + 1;
        if (next < name.size() && name[next] == '%') {
            at = next;
            continue;
        }
        while (next < name.size() && isDigit(name[next]))
            ++next;
        if (next < name.size() && name[next] == 'd')
            return true;
    }
    return false;
}

/// Image formats a folder listing takes, by extension (lower case) -> the format's name.
const std::map<std::string, std::string>& imageExtensions()
{
    static const std::map<std::string, std::string> kExtensions = {
        {".exr", "OpenEXR"}, {".hdr", "Radiance"}, {".pic", "Radiance"}, {".png", "PNG"}, {".jpg", "JPEG"},
        {".jpeg", "JPEG"},   {".bmp", "BMP"},      {".tga", "TGA"},      {".gif", "GIF"},
    };
    return kExtensions;
}

std::string lowerExtension(const fs::path& path)
{
    std::string extension = path.extension().string();
    std::transform(extension.begin(), extension.end(), extension.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    return extension;
}

/// The last run of digits of `text`: where it starts, its length and its value; nullopt for none
/// (or one too long for a long long).
struct DigitRun
{
    std::size_t at = 0;
    std::size_t length = 0;
    long long value = 0;
};
std::optional<DigitRun> lastDigitRun(std::string_view text)
{
    std::size_t end = text.size();
    while (end > 0 && !isDigit(text[end - 1]))
        --end;
    if (end == 0)
        return std::nullopt;
    std::size_t begin = end;
    while (begin > 0 && isDigit(text[begin - 1]))
        --begin;
    DigitRun run{begin, end - begin, 0};
    auto [ptr, ec] = std::from_chars(text.data() + begin, text.data() + end, run.value);
    if (ec != std::errc() || ptr != text.data() + end)
        return std::nullopt;
    return run;
}

/// Regular files (links followed) of `folder` that `keep` accepts, named as `folder` / name ("" for
/// the working folder: the bare names); hidden files are left out.
template <typename Keep>
std::vector<fs::path> listFiles(const fs::path& folder, const std::string& input, Keep keep)
{
    const fs::path listed = folder.empty() ? fs::path(".") : folder;
    std::error_code error;
    if (!fs::is_directory(listed, error))
        throw std::runtime_error(util::format("sequence '{}': no folder '{}'", input, listed.string()));
    std::vector<fs::path> files;
    for (fs::directory_iterator it(listed, error), end; !error && it != end; it.increment(error)) {
        const std::string name = it->path().filename().string();
        std::error_code statusError;
        if (name.empty() || name.front() == '.' || !it->is_regular_file(statusError))
            continue;
        if (keep(name))
            files.push_back(folder / name);
    }
    if (error)
        throw std::runtime_error(
            util::format("sequence '{}': cannot list the folder '{}': {}", input, listed.string(), error.message()));
    return files;
}

/// A folder's or glob's frames: numbered by the last digits of their names where every name has
/// distinct ones, else in natural order.
std::vector<SequenceFrame> framesOfNames(std::vector<fs::path> files)
{
    std::vector<SequenceFrame> frames;
    std::set<long long> seen;
    bool numbered = true;
    for (const fs::path& file : files) {
        const auto run = lastDigitRun(file.stem().string());
        numbered = numbered && run && seen.insert(run->value).second;
        frames.push_back({file, run ? std::optional<long long>(run->value) : std::nullopt, 0});
    }
    if (numbered) {
        std::sort(frames.begin(), frames.end(),
                  [](const SequenceFrame& a, const SequenceFrame& b) { return *a.number < *b.number; });
        return frames;
    }
    for (SequenceFrame& frame : frames)
        frame.number.reset();
    std::sort(frames.begin(), frames.end(), [](const SequenceFrame& a, const SequenceFrame& b) {
        return naturalLess(a.path.filename().string(), b.path.filename().string());
    });
    return frames;
}

/// The name a missing frame `number` would have, next to the frame `before` it (a folder or glob:
/// its last digits replaced, zero-padded to their width).
fs::path nameLike(const fs::path& before, long long number)
{
    const std::string stem = before.stem().string();
    const auto run = lastDigitRun(stem);
    if (!run)
        return before;
    std::string digits = std::to_string(number);
    if (digits.size() < run->length)
        digits.insert(0, run->length - digits.size(), '0');
    return before.parent_path() /
           (stem.substr(0, run->at) + digits + stem.substr(run->at + run->length) + before.extension().string());
}

/// Inserts one gap entry per run of missing numbers between numbered frames (sorted by number).
std::vector<SequenceFrame> withGaps(std::vector<SequenceFrame> frames, const std::optional<NumberPattern>& pattern)
{
    if (frames.size() < 2 || !frames.front().number)
        return frames;
    long long step = 0;
    for (std::size_t i = 1; i < frames.size(); ++i) {
        const long long difference = *frames[i].number - *frames[i - 1].number;
        step = step == 0 ? difference : std::min(step, difference);
    }
    std::vector<SequenceFrame> out;
    out.reserve(frames.size());
    for (std::size_t i = 0; i < frames.size(); ++i) {
        if (i > 0) {
            const long long previous = *frames[i - 1].number;
            const long long missing = (*frames[i].number - previous - 1) / step;
            if (missing > 0) {
                const long long first = previous + step;
                const fs::path path = pattern ? frames[i].path.parent_path() / formatFrameName(*pattern, first)
                                              : nameLike(out.back().path, first);
                out.push_back({path, first, missing});
            }
        }
        out.push_back(std::move(frames[i]));
    }
    return out;
}

std::string namesOf(const std::set<std::string>& formats)
{
    std::string text;
    for (const std::string& format : formats)
        text += (text.empty() ? "" : ", ") + format;
    return text;
}

}  // namespace

std::optional<BadFramePolicy> parseBadFramePolicy(std::string_view text)
{
    if (text == "stop")
        return BadFramePolicy::Stop;
    if (text == "skip")
        return BadFramePolicy::Skip;
    return std::nullopt;
}

const char* badFramePolicyName(BadFramePolicy policy)
{
    return policy == BadFramePolicy::Skip ? "skip" : "stop";
}

std::size_t FrameSequence::fileCount() const
{
    return std::size_t(
        std::count_if(frames.begin(), frames.end(), [](const SequenceFrame& f) { return !f.missing(); }));
}

long long FrameSequence::missingCount() const
{
    long long count = 0;
    for (const SequenceFrame& frame : frames)
        count += frame.missingFrames;
    return count;
}

bool isSequenceInput(const fs::path& input)
{
    std::error_code error;
    if (fs::is_regular_file(input, error))
        return false;
    if (fs::is_directory(input, error))
        return true;
    const std::string name = input.filename().string();
    return hasGlobCharacters(name) || hasNumberConversion(name);
}

bool naturalLess(std::string_view a, std::string_view b)
{
    std::size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        if (isDigit(a[i]) && isDigit(b[j])) {
            std::size_t endA = i, endB = j;
            while (endA < a.size() && isDigit(a[endA]))
                ++endA;
            while (endB < b.size() && isDigit(b[endB]))
                ++endB;
            // Compare by value without parsing: skip leading zeros, then the longer run is larger.
            std::size_t startA = i, startB = j;
            while (startA + 1 < endA && a[startA] == '0')
                ++startA;
            while (startB + 1 < endB && b[startB] == '0')
                ++startB;
            const std::string_view digitsA = a.substr(startA, endA - startA);
            const std::string_view digitsB = b.substr(startB, endB - startB);
            if (digitsA.size() != digitsB.size())
                return digitsA.size() < digitsB.size();
            if (digitsA != digitsB)
                return digitsA < digitsB;
            if (endA - i != endB - j)  // equal values: fewer leading zeros first, so the order is total
                return endA - i < endB - j;
            i = endA;
            j = endB;
            continue;
        }
        if (a[i] != b[j])
            return (unsigned char)a[i] < (unsigned char)b[j];
        ++i;
        ++j;
    }
    return a.size() - i < b.size() - j;
}

std::optional<NumberPattern> parseNumberPattern(std::string_view fileName)
{
    std::optional<NumberPattern> pattern;
    std::string literal;
    for (std::size_t i = 0; i < fileName.size(); ++i) {
        if (fileName[i] != '%') {
            literal += fileName[i];
            continue;
        }
        if (i + 1 < fileName.size() && fileName[i + 1] == '%') {
            literal += '%';
            ++i;
            continue;
        }
        std::size_t end = i + 1;
        while (end < fileName.size() && isDigit(fileName[end]))
            ++end;
        const std::string_view width = fileName.substr(i + 1, end - i - 1);
        const bool zeroPadded = width.size() == 2 && width[0] == '0' && width[1] >= '1' && width[1] <= '9';
        const bool valid = end < fileName.size() && fileName[end] == 'd' && (width.empty() || zeroPadded);
        if (!valid)
            throw std::runtime_error(util::format(
                "'{}': a frame number is %d or %0Nd (N 1..9, e.g. %04d); write %% for a literal %", fileName));
        if (pattern)
            throw std::runtime_error(util::format("'{}' holds two frame numbers; give one (e.g. %04d)", fileName));
        pattern = NumberPattern{literal, {}, width.empty() ? 0 : width[1] - '0'};
        literal.clear();
        i = end;
    }
    if (pattern)
        pattern->suffix = literal;
    return pattern;
}

std::string formatFrameName(const NumberPattern& pattern, long long number)
{
    std::string digits = std::to_string(number);
    if (digits.size() < std::size_t(pattern.width))
        digits.insert(0, std::size_t(pattern.width) - digits.size(), '0');
    return pattern.prefix + digits + pattern.suffix;
}

std::optional<long long> matchFrameName(const NumberPattern& pattern, std::string_view fileName)
{
    if (fileName.size() <= pattern.prefix.size() + pattern.suffix.size() || !fileName.starts_with(pattern.prefix) ||
        !fileName.ends_with(pattern.suffix))
        return std::nullopt;
    const std::string_view digits =
        fileName.substr(pattern.prefix.size(), fileName.size() - pattern.prefix.size() - pattern.suffix.size());
    long long number = 0;
    auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), number);
    if (ec != std::errc() || ptr != digits.data() + digits.size() || number < 0 || !isDigit(digits.front()))
        return std::nullopt;
    // Exactly what the pattern prints: "%04d" takes 0007 and 12345, not 7 or 00012.
    if (formatFrameName(pattern, number) != fileName)
        return std::nullopt;
    return number;
}

fs::path numberedPath(const fs::path& pattern, long long number)
{
    const auto parsed = parseNumberPattern(pattern.filename().string());
    if (!parsed)
        throw std::logic_error("numberedPath: '" + pattern.string() + "' holds no frame number");
    return pattern.parent_path() / formatFrameName(*parsed, number);
}

void checkOutputPattern(const fs::path& pattern, std::string_view flag)
{
    std::optional<NumberPattern> parsed;
    try {
        parsed = parseNumberPattern(pattern.filename().string());
    } catch (const std::runtime_error& error) {
        throw std::runtime_error(std::string(flag) + " " + error.what());
    }
    if (!parsed)
        throw std::runtime_error(
            util::format("{} '{}' has no frame number: a sequence is written one file per frame, e.g. out.%04d{}", flag,
                         pattern.string(), pattern.extension().string()));
}

FrameSequence listFrameSequence(const fs::path& input)
{
    FrameSequence sequence;
    sequence.source = input.string();
    std::error_code error;
    if (fs::is_directory(input, error)) {
        sequence.kind = SequenceKind::Folder;
        std::set<std::string> formats;
        std::vector<fs::path> files = listFiles(input, sequence.source, [&](const std::string& name) {
            const auto format = imageExtensions().find(lowerExtension(name));
            if (format == imageExtensions().end())
                return false;
            formats.insert(format->second);
            return true;
        });
        if (files.empty())
            throw std::runtime_error(util::format(
                "sequence '{}': the folder holds no image files (.exr, .hdr, .png, .jpg...)", sequence.source));
        if (formats.size() > 1)
            throw std::runtime_error(util::format(
                "sequence '{}': the folder holds images of several formats ({}); name the frames with a glob, "
                "e.g. '{}'",
                sequence.source, namesOf(formats), (input / "*.exr").string()));
        sequence.frames = withGaps(framesOfNames(std::move(files)), std::nullopt);
        return sequence;
    }

    const std::string name = input.filename().string();
    const fs::path folder = input.parent_path();
    std::optional<NumberPattern> pattern;
    try {
        pattern = parseNumberPattern(name);
    } catch (const std::runtime_error& patternError) {
        throw std::runtime_error("sequence '" + sequence.source + "': " + patternError.what());
    }
    std::vector<fs::path> files;
    if (pattern) {
        sequence.kind = SequenceKind::Pattern;
        files = listFiles(folder, sequence.source,
                          [&](const std::string& entry) { return matchFrameName(*pattern, entry).has_value(); });
    } else if (hasGlobCharacters(name)) {
        sequence.kind = SequenceKind::Glob;
        files = listFiles(folder, sequence.source, [&](const std::string& entry) {
            return fnmatch(name.c_str(), entry.c_str(), FNM_PERIOD) == 0;
        });
    } else {
        throw std::runtime_error(util::format(
            "'{}' is not a sequence: give a folder, a glob (shots/*.exr) or a numbered pattern (shot.%04d.exr)",
            sequence.source));
    }
    if (files.empty())
        throw std::runtime_error(util::format("sequence '{}': no file in '{}' matches", sequence.source,
                                              folder.empty() ? std::string(".") : folder.string()));
    if (pattern) {
        for (const fs::path& file : files)
            sequence.frames.push_back({file, matchFrameName(*pattern, file.filename().string()), 0});
        std::sort(sequence.frames.begin(), sequence.frames.end(),
                  [](const SequenceFrame& a, const SequenceFrame& b) { return *a.number < *b.number; });
    } else {
        sequence.frames = framesOfNames(std::move(files));
    }
    sequence.frames = withGaps(std::move(sequence.frames), pattern);
    return sequence;
}

}  // namespace app
