// OutputFile.h: how hdrlab writes every output file (screenshots, captures, CSVs, tone-mapped images).
//
//  - A regular file, or a path that does not exist yet, is written atomically: a temporary file in the
//    same folder is written, fsync'ed and closed, every step checked, then renamed over the target. A
//    reader never sees half a file, and a failed write (full disk, file size limit, I/O error) leaves
//    the previous file untouched, or no file, and never a temporary one.
//  - A symbolic link is followed to its final target, which is written the same way in the target's own
//    folder; the link itself stays. A dangling link creates its target when the target's folder exists.
//  - Anything that is not a regular file (a folder, a device such as /dev/full, a FIFO, a socket) is
//    refused: renaming over it would replace it with a regular file, even for root.
//  - "-" means standard output, for text outputs only (writeTextOutput); hdrlab then moves its own
//    messages from standard output to standard error (reserveStandardOutputForData), so the stream
//    carries the data alone. Binary outputs (PNG, EXR) refuse "-".
// Limits: the checks and the rename are separate steps, so a path replaced by another process in
// between is replaced again; hard links to a replaced file keep the old content (rename makes a new
// inode); the new file takes the old file's permission bits, but not its owner.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>

namespace util {

/// Why an output could not be written; what() is one line naming the path.
class OutputError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

/// True for "-", the name of standard output on the command line.
bool isStandardOutput(const std::filesystem::path& path);

/// The file that writing `path` would replace or create: `path` itself, or the final target of a chain
/// of symbolic links. Throws OutputError for a folder, device, FIFO or socket, a missing folder, a
/// symbolic-link loop, and "-".
std::filesystem::path resolveOutputTarget(const std::filesystem::path& path);

/// Writes `bytes` to resolveOutputTarget(path) through a temporary file and a rename (see above).
/// Throws OutputError, leaving no temporary file behind.
void writeFileAtomically(const std::filesystem::path& path, std::string_view bytes);

/// Like writeFileAtomically, but "-" writes `text` to standard output (the stream reserved by
/// reserveStandardOutputForData when it was called). Throws OutputError when that write fails.
void writeTextOutput(const std::filesystem::path& path, std::string_view text);

/// Keeps standard output for data written with writeTextOutput("-"): hdrlab's own messages (std::cout,
/// printf) go to standard error from now on. Call once, before anything is printed.
void reserveStandardOutputForData();

}  // namespace util
