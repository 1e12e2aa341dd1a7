// FrameSequence.h: a sequence of HDR frames on disk, as `view`, `tonemap` and `bench flicker
// --sequence` take it, and the numbered file names of per-frame outputs. Pure: file listing and
// string maths, no GL and no decoding (SequenceDecoder.h decodes, SequenceSource.h plays).
//
// Three ways to name one: a folder (its image files, one format), a glob in the file name
// (`shots/*.exr`, with `*`, `?` and `[...]`, as fnmatch(3)), or a printf pattern in the file name
// (`shot.%04d.exr`, `%d`, `%0Nd`; `%%` is a literal %): the files whose whole name the pattern
// prints for some number. Order: by frame number where every frame has a distinct one (the
// pattern's; in a folder or glob the last run of digits of each file name), else natural order of
// the names ("f2" before "f10"). Numbers that are missing between the first and the last (at the
// sequence's smallest step) are gaps: one entry per run of missing numbers, so that playback
// reports them like a damaged frame. Limits: patterns and globs only in the file name, not in
// folder names; numbers are non-negative decimal.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace app {

enum class SequenceKind { Folder, Glob, Pattern };

// Playback (SequenceSource.h): the rate and what a bad frame does.
inline constexpr double kDefaultSequenceFps = 24.0;
inline constexpr double kMinSequenceFps = 0.001;
inline constexpr double kMaxSequenceFps = 1000.0;
enum class BadFramePolicy { Stop, Skip };
/// "stop" or "skip"; nullopt for anything else.
std::optional<BadFramePolicy> parseBadFramePolicy(std::string_view text);
const char* badFramePolicyName(BadFramePolicy policy);

struct SequenceFrame
{
    std::filesystem::path path;       ///< the file; for a gap, the name the first missing frame would have
    std::optional<long long> number;  ///< the frame number, where the sequence is numbered
    long long missingFrames = 0;      ///< > 0: no file but a gap of this many numbers from `number` on

    bool missing() const { return missingFrames > 0; }
};

struct FrameSequence
{
    SequenceKind kind = SequenceKind::Folder;
    std::string source;                 ///< the input as given (the Frame panel's name)
    std::vector<SequenceFrame> frames;  ///< in playback order, gaps included

    /// Frames that are files (gaps left out).
    std::size_t fileCount() const;
    /// Numbers missing in all gaps.
    long long missingCount() const;
};

/// Whether `input` names a sequence rather than one image file: an existing folder, or a file name
/// with a printf pattern or glob characters that is not itself an existing file.
bool isSequenceInput(const std::filesystem::path& input);

/// Lists the frames of a folder, glob or pattern. Throws std::runtime_error with one line naming
/// the input: no such folder, no frame found, a folder holding several image formats, a bad pattern.
FrameSequence listFrameSequence(const std::filesystem::path& input);

/// Natural order of names: runs of digits compare by value ("f2" < "f10"), the rest by character.
bool naturalLess(std::string_view a, std::string_view b);

/// A printf-style frame number in a file name: prefix, `%d` or `%0Nd`, suffix (`%%` read as %).
struct NumberPattern
{
    std::string prefix;
    std::string suffix;
    int width = 0;  ///< the N of %0Nd: at least N digits, zero-padded; 0 for %d
};
/// The pattern in `fileName`, nullopt when it holds none. Throws std::runtime_error for two
/// conversions, a conversion other than %d / %0Nd (N 1..9), or a lone % at the end.
std::optional<NumberPattern> parseNumberPattern(std::string_view fileName);
/// The file name for `number` (>= 0).
std::string formatFrameName(const NumberPattern& pattern, long long number);
/// The number whose name is exactly `fileName`, if any.
std::optional<long long> matchFrameName(const NumberPattern& pattern, std::string_view fileName);

/// `path` with its file name printed for `number`; `path`'s file name must hold a pattern.
std::filesystem::path numberedPath(const std::filesystem::path& pattern, long long number);
/// Checks an output pattern (`-o out.%04d.png`, `--hdr-sequence-out f.%04d.exr`): a file name with
/// exactly one frame number. Throws std::runtime_error naming `flag` otherwise.
void checkOutputPattern(const std::filesystem::path& pattern, std::string_view flag);

}  // namespace app
