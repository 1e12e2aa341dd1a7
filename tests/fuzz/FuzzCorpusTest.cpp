// FuzzCorpusTest.cpp: replays every file of tests/fuzz/corpus/<target>/ (seeds and the regress-*
// inputs of crashes the fuzzers found) through the fuzz entry points, so every build checks them,
// with any compiler and without libFuzzer.
#include "FuzzEntryPoints.h"
#include "support/TestPaths.h"
#include "util/Log.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <vector>

namespace {
namespace fs = std::filesystem;

class FuzzCorpus : public testing::TestWithParam<fuzz::Target>
{
};

std::vector<std::uint8_t> readBytes(const fs::path& path)
{
    std::ifstream in(path, std::ios::binary);
    return std::vector<std::uint8_t>(std::istreambuf_iterator<char>(in), {});
}

TEST_P(FuzzCorpus, EveryFileParsesOrFailsCleanly)
{
    const fuzz::Target& target = GetParam();
    const fs::path folder = testing_support::sourceDir() / "tests" / "fuzz" / "corpus" / std::string(target.name);
    ASSERT_TRUE(fs::is_directory(folder)) << folder;
    std::vector<fs::path> files;
    for (const fs::directory_entry& entry : fs::directory_iterator(folder)) {
        if (entry.is_regular_file())
            files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    EXPECT_GE(files.size(), 3u) << "the seed corpus of " << target.name << " is missing";

    const util::LogLevel level = util::logLevel();
    util::setLogLevel(util::LogLevel::Quiet);
    int regressions = 0;
    for (const fs::path& path : files) {
        const std::vector<std::uint8_t> bytes = readBytes(path);
        try {
            target.run(bytes);
        } catch (const fuzz::FuzzInvariantError& error) {
            ADD_FAILURE() << path.filename() << ": " << error.what();
        } catch (const std::exception& error) {
            ADD_FAILURE() << path.filename() << ": unexpected exception: " << error.what();
        }
        regressions += path.filename().string().starts_with("regress-") ? 1 : 0;
    }
    util::setLogLevel(level);
    RecordProperty("files", int(files.size()));
    RecordProperty("regressions", regressions);
}

INSTANTIATE_TEST_SUITE_P(Targets,
                         FuzzCorpus,
                         testing::ValuesIn(fuzz::kTargets),
                         [](const testing::TestParamInfo<fuzz::Target>& info) { return std::string(info.param.name); });

}  // namespace
