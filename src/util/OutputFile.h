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
//  - All or nothing (OutputBatch): while a command's batch is open, every file it writes goes to its
//    temporary name and stays there; the batch renames them all into place when the command succeeded
//    (commit) and removes them otherwise, so a failed run leaves no output behind, old files untouched.
//    Two outputs of one run that name the same file are refused.
// Limits: the checks and the rename are separate steps, so a path replaced by another process in
// between is replaced again; hard links to a replaced file keep the old content (rename makes a new
// inode); the new file takes the old file's permission bits, but not its owner.
#pragma once

#include <filesystem>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

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

/// The files one command writes, all or nothing (see above). At most one batch is open at a time; while
/// it is, writeFileAtomically stages into it (thread-safe). Destroying it without commit() removes
/// every staged temporary file.
class OutputBatch
{
public:
    OutputBatch();
    ~OutputBatch();
    OutputBatch(const OutputBatch&) = delete;
    OutputBatch& operator=(const OutputBatch&) = delete;

    /// Renames every staged file into place, in the order written; throws OutputError on the first
    /// rename that fails (removing the temporaries not yet renamed).
    void commit();
    /// Removes every staged temporary file (also done by the destructor).
    void discard();
    /// Files staged so far.
    std::size_t staged() const;

    struct Impl;

private:
    Impl* mImpl;
};

/// Checks, before a run starts, that `path` can be written (resolveOutputTarget: its folder exists, it
/// is not a folder or a device) and, for each non-empty `extensions` entry (".png"), that its name ends
/// with one of them (case-insensitive); `option` names the flag in the message. "-" passes when
/// `standardOutputAllowed`. Throws OutputError.
void checkOutputPath(const std::filesystem::path& path,
                     std::string_view option,
                     std::initializer_list<std::string_view> extensions,
                     bool standardOutputAllowed = false);
/// Throws OutputError when two of `paths` (option, path; empty paths skipped) name the same file.
void checkDistinctOutputs(std::initializer_list<std::pair<std::string_view, std::filesystem::path>> paths);

}  // namespace util
