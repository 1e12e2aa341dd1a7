// FolderWatcher.h: notices files added, changed or removed under a folder (shader reload), by
// polling: each poll() at most every `interval` lists the folder and compares every file's
// modification time and size with the last listing. No thread and no inotify: a shaders/ folder of
// ~150 files lists in well under a millisecond, and an editor's save-by-rename is seen like a write.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace util {

class FolderWatcher
{
public:
    explicit FolderWatcher(std::filesystem::path root,
                           std::chrono::milliseconds interval = std::chrono::milliseconds(250));

    /// The files ('/'-separated paths relative to the root) added, changed or removed since the last
    /// listing; empty when nothing changed or the interval has not passed.
    std::vector<std::string> poll();

    const std::filesystem::path& root() const { return mRoot; }

private:
    struct Stamp
    {
        std::filesystem::file_time_type modified;
        std::uintmax_t size = 0;
        bool operator==(const Stamp&) const = default;
    };
    std::map<std::string, Stamp> list() const;

    std::filesystem::path mRoot;
    std::chrono::milliseconds mInterval;
    std::chrono::steady_clock::time_point mLastPoll;
    std::map<std::string, Stamp> mFiles;
};

}  // namespace util
