// FusionBenchCliTest.cpp: `hdrlab bench fusion` through the binary on small frames: exit 0 (every size
// equal to the CPU reference), the table, and a CSV with the columns scripts/perf_table.py reads.
#include "cli/CliTestSupport.h"

#include <gtest/gtest.h>

#include <fstream>
#include <string>

namespace {

namespace fs = std::filesystem;
using cli_test::hdrlab;

TEST(FusionBenchCliTest, SmallSizesRunEqualToTheReferenceAndWriteTheCsv)
{
    const fs::path dir = testing_support::scratchDir("bench-fusion");
    auto result = cli_test::runIn(dir, hdrlab("bench fusion --size 33x17,64x36 --repeat 3 --csv f.csv"));
    ASSERT_EQ(result.exitCode, 0) << result.output;
    for (const char* text : {"| frame | base (levels) | reduce us |", "| 33x17 rgba16f | 9x5 (3) |",
                             "| 64x36 rgba16f | 16x9 (4) |", "wrote f.csv"})
        EXPECT_NE(result.output.find(text), std::string::npos) << text << " in\n" << result.output;
    std::ifstream file(dir / "f.csv");
    std::string header, row;
    ASSERT_TRUE(std::getline(file, header));
    EXPECT_EQ(header,
              "size,format,reduction,levels,map,device,reduce_us,pyramid_us,collapse_us,total_us,min_total_us,runs,"
              "exact,target_us,error");
    ASSERT_TRUE(std::getline(file, row));
    EXPECT_EQ(row.rfind("33x17,rgba16f,4,3,9x5,", 0), 0u) << row;
    EXPECT_NE(row.find(",3,1,,"), std::string::npos) << row;  // 3 runs, exact, no target, no error
}

TEST(FusionBenchCliTest, PipelineFlagsAreRefused)
{
    auto result =
        cli_test::runIn(testing_support::scratchDir("bench-fusion-refused"), hdrlab("bench fusion --bins 64"));
    EXPECT_NE(result.exitCode, 0);
    EXPECT_NE(result.output.find("--bins is an option of 'bench pipeline', not of 'bench fusion'"), std::string::npos)
        << result.output;
}

}  // namespace
