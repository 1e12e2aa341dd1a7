// OutputFile.cpp: atomic writes of regular files, symbolic links followed, everything else refused
// (see OutputFile.h). POSIX calls rather than std::ofstream, so every error (write, fsync, close) is seen.
#include "util/OutputFile.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace util {
namespace fs = std::filesystem;

namespace {

constexpr int kMaxSymlinkHops = 40;  // as the kernel's own limit (ELOOP)
constexpr int kMaxTempNameAttempts = 100;

int gDataFd = STDOUT_FILENO;  ///< where writeTextOutput("-") writes

[[noreturn]] void fail(const fs::path& path, const std::string& reason)
{
    throw OutputError("cannot write '" + path.string() + "': " + reason);
}

std::string errnoText(int error)
{
    return std::strerror(error);
}

/// "a folder", "a character device", ... for the refusal message.
const char* describeFileType(mode_t mode)
{
    if (S_ISDIR(mode))
        return "a folder";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISFIFO(mode))
        return "a FIFO (named pipe)";
    if (S_ISSOCK(mode))
        return "a socket";
    return "not a regular file";
}

fs::path folderOf(const fs::path& path)
{
    return path.has_parent_path() ? path.parent_path() : fs::path(".");
}

/// Writes all of `bytes` to `fd`, retrying short writes and interruptions; returns 0 or an errno value.
int writeAll(int fd, std::string_view bytes)
{
    const char* at = bytes.data();
    std::size_t left = bytes.size();
    while (left > 0) {
        ssize_t written = ::write(fd, at, left);
        if (written < 0) {
            if (errno == EINTR)
                continue;
            return errno;
        }
        if (written == 0)
            return EIO;
        at += written;
        left -= std::size_t(written);
    }
    return 0;
}

/// Creates a fresh temporary file beside `target` (O_EXCL: never reuses or follows an existing name).
int createTempFile(const fs::path& requested, const fs::path& target, fs::path& temp)
{
    static unsigned counter = 0;
    const fs::path folder = folderOf(target);
    for (int attempt = 0; attempt < kMaxTempNameAttempts; ++attempt) {
        temp = folder / ("." + target.filename().string() + ".tmp-" + std::to_string(::getpid()) + "-" +
                         std::to_string(counter++));
        int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0)
            return fd;
        if (errno != EEXIST)
            fail(requested, "cannot create a file in '" + folder.string() + "': " + errnoText(errno));
    }
    fail(requested, "cannot create a temporary file in '" + folder.string() + "'");
}

/// Makes the rename itself durable; a folder that cannot be synced (some file systems) is no error.
void syncFolder(const fs::path& folder)
{
    int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return;
    ::fsync(fd);
    ::close(fd);
}

}  // namespace

bool isStandardOutput(const fs::path& path)
{
    return path.native() == "-";
}

fs::path resolveOutputTarget(const fs::path& path)
{
    if (path.empty())
        fail(path, "the file name is empty");
    if (isStandardOutput(path))
        fail(path, "standard output ('-') is accepted only by text outputs (captures and CSV files)");
    fs::path current = path;
    for (int hops = 0;; ++hops) {
        if (!current.has_filename())
            fail(path, "the name ends with '/'; it names a folder, not a file");
        struct stat info
        {
        };
        if (::lstat(current.c_str(), &info) != 0) {
            int error = errno;
            if (error != ENOENT)
                fail(path, errnoText(error));
            // A new file (or a dangling link's target): its folder must exist.
            const fs::path folder = folderOf(current);
            struct stat folderInfo
            {
            };
            std::string where =
                current == path ? std::string() : "it is a symbolic link to '" + current.string() + "', whose ";
            if (::stat(folder.c_str(), &folderInfo) != 0)
                fail(path, where + "folder '" + folder.string() + "' does not exist");
            if (!S_ISDIR(folderInfo.st_mode))
                fail(path, where + "folder '" + folder.string() + "' is not a folder");
            return current;
        }
        if (S_ISREG(info.st_mode))
            return current;
        if (S_ISLNK(info.st_mode)) {
            if (hops >= kMaxSymlinkHops)
                fail(path, "too many levels of symbolic links");
            std::error_code ec;
            fs::path link = fs::read_symlink(current, ec);
            if (ec)
                fail(path, "cannot read symbolic link '" + current.string() + "': " + ec.message());
            current = link.is_absolute() ? link : folderOf(current) / link;
            continue;
        }
        std::string what = current == path ? "it is " : "it leads to '" + current.string() + "', which is ";
        fail(path, what + describeFileType(info.st_mode) + "; hdrlab replaces only regular files" +
                       (S_ISDIR(info.st_mode) ? "" : " (write to a file, or use '-' and a shell redirection)"));
    }
}

void writeFileAtomically(const fs::path& path, std::string_view bytes)
{
    const fs::path target = resolveOutputTarget(path);
    struct stat existing
    {
    };
    const bool replacing = ::stat(target.c_str(), &existing) == 0;

    fs::path temp;
    int fd = createTempFile(path, target, temp);
    auto abandon = [&](const std::string& reason) {
        if (fd >= 0)
            ::close(fd);
        ::unlink(temp.c_str());
        fail(path, reason);
    };
    if (replacing && ::fchmod(fd, existing.st_mode & 07777) != 0)
        abandon("cannot copy the permissions of the existing file: " + errnoText(errno));
    if (int error = writeAll(fd, bytes); error != 0)
        abandon(errnoText(error) + (error == ENOSPC || error == EFBIG || error == EDQUOT ? "" : " (write failed)"));
    // Data on disk before the rename makes it visible: a crash then leaves the old file or the new one.
    if (::fsync(fd) != 0)
        abandon("fsync failed: " + errnoText(errno));
    int closed = ::close(fd);
    fd = -1;
    if (closed != 0)
        abandon("close failed: " + errnoText(errno));
    if (::rename(temp.c_str(), target.c_str()) != 0)
        abandon("cannot rename the temporary file into place: " + errnoText(errno));
    syncFolder(folderOf(target));
}

void writeTextOutput(const fs::path& path, std::string_view text)
{
    if (!isStandardOutput(path)) {
        writeFileAtomically(path, text);
        return;
    }
    std::cout.flush();
    std::fflush(stdout);
    if (int error = writeAll(gDataFd, text); error != 0)
        throw OutputError("cannot write to standard output: " + errnoText(error));
}

void reserveStandardOutputForData()
{
    if (gDataFd != STDOUT_FILENO)
        return;
    std::cout.flush();
    std::fflush(stdout);
    int data = ::fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
    if (data < 0 || ::dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
        throw OutputError("cannot keep standard output for data: " + errnoText(errno));
    gDataFd = data;
}

}  // namespace util
