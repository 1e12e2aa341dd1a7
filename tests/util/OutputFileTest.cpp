// OutputFileTest.cpp: util::writeFileAtomically / writeTextOutput on every kind of path: a regular
// file, a new path, a symbolic link (followed, the link kept), a dangling link, a folder, a FIFO,
// /dev/full, /dev/null, "-", an unwritable folder, and a write that fails half way (file size limit).
// Each case checks what is left on disk: the right content, or the old content and no temporary file.
#include "support/TestPaths.h"
#include "util/OutputFile.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <fcntl.h>
#include <pwd.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;
using util::OutputError;

#define EXPECT_CONTAINS(text, part) EXPECT_NE(std::string(text).find(part), std::string::npos) << "message: " << (text)

std::string readFile(const fs::path& path)
{
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void writePlain(const fs::path& path, const std::string& text)
{
    std::ofstream(path, std::ios::binary) << text;
}

/// The names in `dir`, so a test can say exactly what was left behind.
std::vector<std::string> namesIn(const fs::path& dir)
{
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(dir))
        names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

/// The message of the OutputError that `write` throws, or "(no error)".
template <typename Write>
std::string errorOf(Write&& write)
{
    try {
        write();
    } catch (const OutputError& error) {
        return error.what();
    }
    return "(no error)";
}

bool isCharacterDevice(const fs::path& path)
{
    struct stat info
    {
    };
    return ::lstat(path.c_str(), &info) == 0 && S_ISCHR(info.st_mode);
}

TEST(OutputFile, NewPathIsCreatedWithNoTemporaryLeft)
{
    fs::path dir = testing_support::scratchDir("output-new");
    util::writeFileAtomically(dir / "out.csv", "a,b\n");
    EXPECT_EQ(readFile(dir / "out.csv"), "a,b\n");
    EXPECT_EQ(namesIn(dir), std::vector<std::string>{"out.csv"});
}

TEST(OutputFile, RegularFileIsReplacedAndKeepsItsPermissions)
{
    fs::path dir = testing_support::scratchDir("output-regular");
    writePlain(dir / "out.csv", "old content, longer than the new one\n");
    ASSERT_EQ(::chmod((dir / "out.csv").c_str(), 0640), 0);
    util::writeFileAtomically(dir / "out.csv", "new\n");
    EXPECT_EQ(readFile(dir / "out.csv"), "new\n");
    struct stat info
    {
    };
    ASSERT_EQ(::stat((dir / "out.csv").c_str(), &info), 0);
    EXPECT_EQ(info.st_mode & 07777, 0640u);
    EXPECT_EQ(namesIn(dir), std::vector<std::string>{"out.csv"});
}

TEST(OutputFile, SymbolicLinkIsFollowedAndKept)
{
    fs::path dir = testing_support::scratchDir("output-symlink");
    fs::create_directory(dir / "real");
    writePlain(dir / "real" / "target.png", "old");
    fs::create_symlink("real/target.png", dir / "link.png");  // relative: resolved from the link's folder
    fs::create_symlink(dir / "link.png", dir / "link-to-link.png");

    util::writeFileAtomically(dir / "link-to-link.png", "new");
    EXPECT_TRUE(fs::is_symlink(dir / "link.png"));
    EXPECT_TRUE(fs::is_symlink(dir / "link-to-link.png"));
    EXPECT_EQ(fs::read_symlink(dir / "link.png"), "real/target.png");
    EXPECT_EQ(readFile(dir / "real" / "target.png"), "new");
    // The temporary file was made in the target's folder, and removed by the rename.
    EXPECT_EQ(namesIn(dir / "real"), std::vector<std::string>{"target.png"});
    EXPECT_EQ(namesIn(dir), (std::vector<std::string>{"link-to-link.png", "link.png", "real"}));
    EXPECT_EQ(util::resolveOutputTarget(dir / "link-to-link.png"), dir / "real/target.png");
}

TEST(OutputFile, DanglingLinkCreatesItsTargetOrSaysWhyNot)
{
    fs::path dir = testing_support::scratchDir("output-dangling");
    fs::create_symlink("made-by-write.json", dir / "dangling.json");
    util::writeFileAtomically(dir / "dangling.json", "{}");
    EXPECT_TRUE(fs::is_symlink(dir / "dangling.json"));
    EXPECT_EQ(readFile(dir / "made-by-write.json"), "{}");

    fs::create_symlink("no-such-folder/x.json", dir / "nowhere.json");
    std::string message = errorOf([&] { util::writeFileAtomically(dir / "nowhere.json", "{}"); });
    EXPECT_CONTAINS(message, "nowhere.json");
    EXPECT_CONTAINS(message, "symbolic link");
    EXPECT_CONTAINS(message, "does not exist");
    EXPECT_TRUE(fs::is_symlink(dir / "nowhere.json"));

    fs::create_symlink("loop-b", dir / "loop-a");
    fs::create_symlink("loop-a", dir / "loop-b");
    EXPECT_CONTAINS(errorOf([&] { util::writeFileAtomically(dir / "loop-a", "x"); }), "too many levels");
}

TEST(OutputFile, FolderIsRefusedAndKept)
{
    fs::path dir = testing_support::scratchDir("output-folder");
    fs::create_directory(dir / "sub.png");
    std::string message = errorOf([&] { util::writeFileAtomically(dir / "sub.png", "x"); });
    EXPECT_CONTAINS(message, "sub.png");
    EXPECT_CONTAINS(message, "it is a folder");
    EXPECT_TRUE(fs::is_directory(dir / "sub.png"));
    EXPECT_TRUE(fs::is_empty(dir / "sub.png"));
    EXPECT_CONTAINS(errorOf([&] { util::writeFileAtomically(dir / "sub.png/", "x"); }), "ends with '/'");
    // A link to a folder is refused the same way, naming where it leads.
    fs::create_directory_symlink("sub.png", dir / "link");
    EXPECT_CONTAINS(errorOf([&] { util::writeFileAtomically(dir / "link", "x"); }), "which is a folder");
    EXPECT_EQ(namesIn(dir), (std::vector<std::string>{"link", "sub.png"}));
}

TEST(OutputFile, FifoIsRefusedAndKept)
{
    fs::path dir = testing_support::scratchDir("output-fifo");
    ASSERT_EQ(::mkfifo((dir / "pipe.csv").c_str(), 0600), 0);
    // Refused before any open: a FIFO without a reader would otherwise block the writer.
    std::string message = errorOf([&] { util::writeTextOutput(dir / "pipe.csv", "x"); });
    EXPECT_CONTAINS(message, "FIFO");
    EXPECT_CONTAINS(message, "hdrlab replaces only regular files");
    EXPECT_TRUE(fs::is_fifo(dir / "pipe.csv"));
    EXPECT_EQ(namesIn(dir), std::vector<std::string>{"pipe.csv"});
}

TEST(OutputFile, DevicesAreRefusedAndKept)
{
    for (const char* device : {"/dev/full", "/dev/null"}) {
        ASSERT_TRUE(isCharacterDevice(device)) << device;
        std::string message = errorOf([&] { util::writeFileAtomically(device, "x"); });
        EXPECT_CONTAINS(message, std::string("cannot write '") + device + "'");
        EXPECT_CONTAINS(message, "a character device");
        // Run as root, the old writer renamed a regular file over the node; it must still be a device.
        EXPECT_TRUE(isCharacterDevice(device)) << device << " was replaced";
    }
    // Through a symbolic link too.
    fs::path dir = testing_support::scratchDir("output-device-link");
    fs::create_symlink("/dev/full", dir / "full.png");
    EXPECT_CONTAINS(errorOf([&] { util::writeFileAtomically(dir / "full.png", "x"); }), "leads to '/dev/full'");
    EXPECT_TRUE(isCharacterDevice("/dev/full"));
    EXPECT_TRUE(fs::is_symlink(dir / "full.png"));
}

TEST(OutputFile, StandardOutputTakesTextOnly)
{
    EXPECT_CONTAINS(errorOf([] { util::writeFileAtomically("-", "x"); }), "standard output ('-') is accepted only");
    EXPECT_CONTAINS(errorOf([] { util::writeFileAtomically("", "x"); }), "empty");

    // Capture what writeTextOutput("-") sends to standard output through a temporary redirection.
    fs::path dir = testing_support::scratchDir("output-stdout");
    fs::path captured = dir / "stdout.txt";
    std::fflush(stdout);
    int saved = ::dup(STDOUT_FILENO);
    int file = ::open(captured.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    ASSERT_GE(saved, 0);
    ASSERT_GE(file, 0);
    ::dup2(file, STDOUT_FILENO);
    ::close(file);
    std::string message = errorOf([] { util::writeTextOutput("-", "frame,pass\n0,scene\n"); });
    std::fflush(stdout);
    ::dup2(saved, STDOUT_FILENO);
    ::close(saved);
    EXPECT_EQ(message, "(no error)");
    EXPECT_EQ(readFile(captured), "frame,pass\n0,scene\n");
    EXPECT_FALSE(fs::exists("-")) << "a file named '-' was created";
}

TEST(OutputFile, MissingFolderIsAnErrorAndCreatesNothing)
{
    fs::path dir = testing_support::scratchDir("output-missing");
    std::string message = errorOf([&] { util::writeFileAtomically(dir / "missing" / "out.png", "x"); });
    EXPECT_CONTAINS(message, "does not exist");
    EXPECT_TRUE(fs::is_empty(dir));
}

TEST(OutputFile, UnwritableFolderIsAnErrorAndLeavesTheFileAlone)
{
    fs::path dir = testing_support::scratchDir("output-unwritable");
    fs::create_directory(dir / "locked");
    writePlain(dir / "locked" / "out.csv", "old");
    ASSERT_EQ(::chmod((dir / "locked").c_str(), 0555), 0);
    // Root may write into any folder: run the write as an unprivileged user in a child process then.
    pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        if (::geteuid() == 0) {
            const passwd* nobody = ::getpwnam("nobody");
            if (!nobody || ::setgid(nobody->pw_gid) != 0 || ::setuid(nobody->pw_uid) != 0)
                ::_exit(3);
        }
        std::string message = errorOf([&] { util::writeFileAtomically(dir / "locked" / "out.csv", "new"); });
        ::_exit(message.find("cannot create a file in") != std::string::npos ? 0 : 4);
    }
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ::chmod((dir / "locked").c_str(), 0755);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0) << "3: could not become 'nobody'; 4: the write did not fail as expected";
    EXPECT_EQ(readFile(dir / "locked" / "out.csv"), "old");
    EXPECT_EQ(namesIn(dir / "locked"), std::vector<std::string>{"out.csv"});
}

TEST(OutputFile, FailedWriteKeepsTheOldFileAndLeavesNoTemporary)
{
    fs::path dir = testing_support::scratchDir("output-failed-write");
    writePlain(dir / "out.exr", "old");
    // A file size limit makes write() fail half way (EFBIG), as a full disk does (ENOSPC).
    auto previousHandler = std::signal(SIGXFSZ, SIG_IGN);
    rlimit saved{};
    ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &saved), 0);
    rlimit small = saved;
    small.rlim_cur = 4096;
    ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
    std::string message = errorOf([&] { util::writeFileAtomically(dir / "out.exr", std::string(100'000, 'x')); });
    ::setrlimit(RLIMIT_FSIZE, &saved);
    std::signal(SIGXFSZ, previousHandler);
    EXPECT_CONTAINS(message, "cannot write '" + (dir / "out.exr").string() + "'");
    EXPECT_CONTAINS(message, "too large");
    EXPECT_EQ(readFile(dir / "out.exr"), "old");
    EXPECT_EQ(namesIn(dir), std::vector<std::string>{"out.exr"});
}

}  // namespace
