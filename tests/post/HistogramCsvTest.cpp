// post/HistogramCsv: the histogram files of tonemap --histogram-in / --histogram-out: both table
// forms, the counters and Ward sections, scaling of counts that are not 32-bit whole numbers, and one
// clear error line for each kind of bad file.
#include "post/HistogramCsv.h"

#include <gtest/gtest.h>

#include <cmath>

namespace {

post::HistogramFile parse(const std::string& text)
{
    return post::parseHistogramCsv(text, "h.csv");
}

std::string errorOf(const std::string& text)
{
    try {
        parse(text);
    } catch (const std::invalid_argument& error) {
        return error.what();
    }
    return "(no error)";
}

TEST(HistogramCsv, ReadsWhatHistogramOutWrites)
{
    const auto file = parse(
        "bin,log2_lower,log2_upper,count\n"
        "0,-10,-2.5,3\n"
        "1,-2.5,5,0\n"
        "2,5,12.5,7\n"
        "3,12.5,20,1\n"
        "\n"
        "counter,count\n"
        "nan,2\ninf,\nnon_positive,1\nbelow,0\nabove,0\n");
    EXPECT_EQ(file.histogram.logMin, -10.0f);
    EXPECT_EQ(file.histogram.logMax, 20.0f);
    EXPECT_EQ(file.histogram.counts, (std::vector<std::uint32_t>{3, 0, 7, 1}));
    EXPECT_EQ(file.histogram.scaleLog2, 0);
    ASSERT_EQ(file.lowerEdges.size(), 4u);
    EXPECT_EQ(file.lowerEdges[2], std::make_pair(5.0, 7.0));
    EXPECT_FALSE(file.ward.has_value());
}

TEST(HistogramCsv, ReadsAPlainTableWithOrWithoutItsHeader)
{
    for (const std::string header : {"log2_lower,log2_upper,count\n", "", "# from another tool\n"}) {
        const auto file = parse(header + "0,1,5\r\n1,2,2.5\n2, 3 ,0\n");
        EXPECT_EQ(file.histogram.logMin, 0.0f);
        EXPECT_EQ(file.histogram.logMax, 3.0f);
        // 2.5 is not a whole count: all are scaled by one power of two so the total lies in [2^30, 2^31).
        EXPECT_EQ(file.histogram.scaleLog2, 28);
        EXPECT_EQ(file.histogram.counts, (std::vector<std::uint32_t>{5u << 28, 5u << 27, 0u}));
    }
}

TEST(HistogramCsv, ScalesTotalsBeyond32Bits)
{
    const auto file = parse("0,1,4000000000\n1,2,4000000000\n");
    EXPECT_LT(file.histogram.scaleLog2, 0);
    EXPECT_EQ(file.histogram.counts[0], file.histogram.counts[1]);
    EXPECT_LE(std::uint64_t(file.histogram.counts[0]) * 2, 0xffffffffull);
}

TEST(HistogramCsv, WardSectionRoundTrips)
{
    post::WardFedHistogram ward;
    ward.fit = post::WardSampling::Pcond;
    ward.bins = {0.1, 2.0 / 3.0, 1e-17, 5.0};
    ward.bwmin = std::log(0.037);
    ward.bwmax = std::log(13000.0);
    ward.bwavg = 1.0 / 7.0;
    ward.histot = 5.0 + 2.0 / 3.0;
    ward.lwmin = 0.037;
    ward.lwmax = 13000.0;
    ward.duplicated = true;
    ward.valid = true;
    const std::string text = "log2_lower,log2_upper,count\n0,1,1\n" + post::wardHistogramCsvSection(ward, 179.0);
    const auto file = parse(text);
    ASSERT_TRUE(file.ward.has_value());
    EXPECT_EQ(file.ward->fit, ward.fit);
    EXPECT_EQ(file.ward->bins, ward.bins);  // 17 digits: every double comes back exactly
    EXPECT_EQ(file.ward->bwmin, ward.bwmin);
    EXPECT_EQ(file.ward->bwmax, ward.bwmax);
    EXPECT_EQ(file.ward->bwavg, ward.bwavg);
    EXPECT_EQ(file.ward->histot, ward.histot);
    EXPECT_EQ(file.ward->lwmin, ward.lwmin);
    EXPECT_TRUE(file.ward->duplicated);
    EXPECT_TRUE(file.ward->valid);
}

TEST(HistogramCsv, EachBadFileGetsOneClearLine)
{
    const struct
    {
        std::string text;
        std::string says;
    } cases[] = {
        {"", "no histogram rows"},
        {"log2_lower,log2_upper,count\n", "no histogram rows"},
        {"0,1\n", "unexpected line"},
        {"log2_lower,log2_upper,count\n0,1\n", "line 2: 2 columns, expected 3"},
        {"0,1,2,3\n", "unexpected line"},
        {"1,0,5\n", "edges not increasing"},
        {"0,1,5\n0.5,1.5,5\n", "not contiguous"},
        {"0,1,5\n1,3,5\n", "differs from the first bin"},
        {"0,1,5\n1,2,-1\n", "negative count"},
        {"0,1,nan\n", "not finite"},
        {"0,1,inf\n", "not finite"},
        {"0,1,x\n", "'x' is not a number"},
        {"0,1,0\n1,2,0\n", "add up to zero"},
        {"level,count\n0,5\n", "unexpected line 'level,count'"},
        {"0,1,5\n\nward,value\nfit,magic\n", "fit 'magic'"},
        {"0,1,5\n\nward_bin,log2_lower,log2_upper,count\n0,0,1,2\n1,1,2,3\n\nward,value\nfit,frame\n", "no 'bwmin_ln'"},
    };
    for (const auto& c : cases) {
        const std::string message = errorOf(c.text);
        EXPECT_NE(message.find("histogram file 'h.csv'"), std::string::npos) << message;
        EXPECT_NE(message.find(c.says), std::string::npos) << "file:\n" << c.text << "message: " << message;
        EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    }
    std::string tooMany;
    for (int i = 0; i < 4097; ++i)
        tooMany += std::to_string(i) + "," + std::to_string(i + 1) + ",1\n";
    EXPECT_NE(errorOf(tooMany).find("at most 4096"), std::string::npos);
}

}  // namespace
