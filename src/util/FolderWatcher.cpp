// FolderWatcher.cpp: the polling of FolderWatcher.h.
#include "util/FolderWatcher.h"

namespace util {

FolderWatcher::FolderWatcher(std::filesystem::path root, std::chrono::milliseconds interval)
    : mRoot(std::move(root)), mInterval(interval), mLastPoll(std::chrono::steady_clock::now()), mFiles(list())
{
}

std::map<std::string, FolderWatcher::Stamp> FolderWatcher::list() const
{
    std::map<std::string, Stamp> files;
    std::error_code ec;
    for (auto it = std::filesystem::recursive_directory_iterator(mRoot, ec);
         !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
        std::error_code statError;
        if (!it->is_regular_file(statError))
            continue;
        const Stamp stamp{it->last_write_time(statError), it->file_size(statError)};
        if (!statError)
            files[it->path().lexically_relative(mRoot).generic_string()] = stamp;
    }
    return files;
}

std::vector<std::string> FolderWatcher::poll()
{
    const auto now = std::chrono::steady_clock::now();
    if (now - mLastPoll < mInterval)
        return {};
    mLastPoll = now;
    std::map<std::string, Stamp> files = list();
    std::vector<std::string> changed;
    for (const auto& [path, stamp] : files) {
        auto old = mFiles.find(path);
        if (old == mFiles.end() || !(old->second == stamp))
            changed.push_back(path);
    }
    for (const auto& [path, stamp] : mFiles)
        if (!files.count(path))
            changed.push_back(path);
    mFiles = std::move(files);
    return changed;
}

}  // namespace util
