// OutputFile.cpp: atomic writes of regular files, symbolic links followed, everything else refused
// (see OutputFile.h). POSIX calls rather than std::ofstream, so every error (write, fsync, close) is seen.
#include "util/OutputFile.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <mutex>
#include <vector>

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

struct OutputBatch::Impl
{
    struct Staged
    {
        fs::path requested;
        fs::path target;
        fs::path key;  ///< the target, made absolute and normal: two outputs naming one file compare equal
        fs::path temp;
    };
    mutable std::mutex mutex;
    std::vector<Staged> files;
};

namespace {
std::mutex gBatchMutex;
OutputBatch::Impl* gBatch = nullptr;  ///< the open batch, if any

fs::path sameFileKey(const fs::path& target)
{
    std::error_code ec;
    fs::path key = fs::weakly_canonical(fs::absolute(target, ec), ec);
    return ec ? target.lexically_normal() : key;
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
        fail(path,
             what + describeFileType(info.st_mode) + "; hdrlab replaces only regular files" +
                 (S_ISDIR(info.st_mode)
                      ? ""
                      : " (write to a file; text outputs, captures and CSV files, also take '-' for standard output)"));
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
    {
        std::lock_guard lock(gBatchMutex);
        if (gBatch != nullptr) {  // all or nothing: renamed when the command succeeded
            std::lock_guard filesLock(gBatch->mutex);
            const fs::path key = sameFileKey(target);
            for (const OutputBatch::Impl::Staged& staged : gBatch->files)
                if (staged.key == key)
                    abandon("two outputs of this run name the same file (also written as '" +
                            staged.requested.string() + "')");
            gBatch->files.push_back({path, target, key, temp});
            return;
        }
    }
    if (::rename(temp.c_str(), target.c_str()) != 0)
        abandon("cannot rename the temporary file into place: " + errnoText(errno));
    syncFolder(folderOf(target));
}

OutputBatch::OutputBatch() : mImpl(new Impl)
{
    std::lock_guard lock(gBatchMutex);
    if (gBatch == nullptr)
        gBatch = mImpl;
}

OutputBatch::~OutputBatch()
{
    discard();
    {
        std::lock_guard lock(gBatchMutex);
        if (gBatch == mImpl)
            gBatch = nullptr;
    }
    delete mImpl;
}

std::size_t OutputBatch::staged() const
{
    std::lock_guard lock(mImpl->mutex);
    return mImpl->files.size();
}

void OutputBatch::discard()
{
    std::lock_guard lock(mImpl->mutex);
    for (const Impl::Staged& staged : mImpl->files)
        ::unlink(staged.temp.c_str());
    mImpl->files.clear();
}

void OutputBatch::commit()
{
    {
        std::lock_guard lock(gBatchMutex);
        if (gBatch == mImpl)
            gBatch = nullptr;  // later writes (none expected) go straight to their files
    }
    std::lock_guard lock(mImpl->mutex);
    std::vector<fs::path> folders;
    for (std::size_t i = 0; i < mImpl->files.size(); ++i) {
        const Impl::Staged& staged = mImpl->files[i];
        if (::rename(staged.temp.c_str(), staged.target.c_str()) != 0) {
            const int error = errno;
            for (std::size_t j = i; j < mImpl->files.size(); ++j)
                ::unlink(mImpl->files[j].temp.c_str());
            mImpl->files.clear();
            fail(staged.requested, "cannot rename the temporary file into place: " + errnoText(error));
        }
        const fs::path folder = folderOf(staged.target);
        if (std::find(folders.begin(), folders.end(), folder) == folders.end())
            folders.push_back(folder);
    }
    mImpl->files.clear();
    for (const fs::path& folder : folders)
        syncFolder(folder);
}

void checkOutputPath(const fs::path& path,
                     std::string_view option,
                     std::initializer_list<std::string_view> extensions,
                     bool standardOutputAllowed)
{
    if (standardOutputAllowed && isStandardOutput(path))
        return;
    try {
        resolveOutputTarget(path);
    } catch (const OutputError& error) {
        throw OutputError(std::string(option) + ": " + error.what());
    }
    if (extensions.size() == 0)
        return;
    std::string name = path.filename().string();
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    std::string wanted;
    for (std::string_view extension : extensions) {
        if (name.size() > extension.size() &&
            name.compare(name.size() - extension.size(), extension.size(), extension) == 0)
            return;
        wanted += (wanted.empty() ? "" : " or ") + std::string(extension);
    }
    throw OutputError(std::string(option) + ": '" + path.string() + "' must end with " + wanted +
                      " (the file's contents follow the option, so its name must say what it holds)");
}

void checkDistinctOutputs(std::initializer_list<std::pair<std::string_view, fs::path>> paths)
{
    std::vector<std::pair<std::string_view, fs::path>> seen;
    for (const auto& [option, path] : paths) {
        if (path.empty() || isStandardOutput(path))
            continue;
        fs::path key;
        try {
            key = sameFileKey(resolveOutputTarget(path));
        } catch (const OutputError&) {
            key = sameFileKey(path);
        }
        for (const auto& [otherOption, otherKey] : seen)
            if (otherKey == key)
                throw OutputError(std::string(option) + " and " + std::string(otherOption) + " name the same file '" +
                                  path.string() + "'; give each output its own file");
        seen.emplace_back(option, key);
    }
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
