// ParameterTest.cpp: settings as data without GL: values parsed and written back, the catalogue of
// keys (unique, owned, complete in docs/USAGE.md), assignments and settings files refused with
// messages that name the key and the file.
#include "post/Parameter.h"
#include "post/PipelineParameters.h"
#include "post/SettingsFile.h"
#include "post/histogram/HistogramMethod.h"
#include "post/scan/ScanMethod.h"
#include "post/tonemap/ToneOperator.h"
#include "support/TestPaths.h"

#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>

namespace {

/// The message of the std::runtime_error `f` throws ("" when it throws none).
template <typename F>
std::string errorOf(F&& f)
{
    try {
        f();
    } catch (const std::runtime_error& error) {
        return error.what();
    }
    return {};
}

bool contains(const std::string& text, const std::string& part)
{
    return text.find(part) != std::string::npos;
}

TEST(Parameter, PointsParseToACanonicalListOrSayWhichPointIsWrong)
{
    post::ParameterInfo info;
    info.type = post::ParameterType::Points;
    info.min = -64.0;
    info.max = 64.0;
    info.yMin = -32.0;
    info.yMax = 32.0;
    info.maxPoints = 4;
    std::string error;
    const auto parse = [&](std::string_view text) { return post::parseParameterValue(info, text, error); };
    EXPECT_EQ(std::get<std::string>(*parse("-8:1.5, 0:0 ,6:-1")), "-8:1.5,0:0,6:-1");
    EXPECT_EQ(std::get<std::string>(*parse("2:-0.5")), "2:-0.5");
    EXPECT_EQ(std::get<std::string>(*parse("none")), "none");
    // An empty value is a mistake, not 'none' (issue 39): refused, saying so.
    EXPECT_FALSE(parse("").has_value());
    EXPECT_NE(error.find("is empty"), std::string::npos) << error;
    struct Bad
    {
        const char* text;
        const char* message;
    };
    for (const Bad& bad : {
             Bad{"0:0,-1:2", "point 2 '-1:2': x -1 must be above the previous point's 0"},
             Bad{"0:0,0:1", "point 2 '0:1': x 0 must be above"},
             Bad{"1:nan", "point 1 '1:nan': expects X:Y with two finite numbers"},
             Bad{"1:2:3", "point 1 '1:2:3': expects X:Y"},
             Bad{"1", "point 1 '1': expects X:Y"},
             Bad{"1:2,", "point 2 '': expects X:Y"},
             Bad{"inf:0", "expects X:Y with two finite numbers"},
             Bad{"100:0", "point 1 '100:0': x 100 is outside -64..64"},
             Bad{"0:40", "point 1 '0:40': y 40 is outside -32..32"},
             Bad{"0:0,1:0,2:0,3:0,4:0", "has more than 4 points"},
         }) {
        error.clear();
        EXPECT_FALSE(parse(bad.text)) << bad.text;
        EXPECT_TRUE(contains(error, bad.message)) << bad.text << ": " << error;
    }
}

TEST(Parameter, TheCompensationCurveKeyWorksInSetAndInSettingsFiles)
{
    const post::ParameterInfo* info = post::findParameter("percentile.compensation_curve");
    ASSERT_TRUE(info);
    EXPECT_EQ(info->type, post::ParameterType::Points);
    EXPECT_EQ(post::formatParameterValue(*info, info->defaultValue), "none");
    EXPECT_EQ(post::parseAssignment("percentile.compensation_curve=-6:-1, 4:0.5", "--set").value, "-6:-1, 4:0.5");
    const std::string refused =
        errorOf([] { post::parseAssignment("percentile.compensation_curve=4:0,-6:1", "--set"); });
    EXPECT_TRUE(contains(refused, "--set: percentile.compensation_curve: point 2")) << refused;
    // A settings file may give the points as an array of pairs or as the --set text.
    const auto fromArray =
        post::parseSettingsJson(R"({"percentile.compensation_curve": [[-6, -1], [4, 0.5]]})", "s.json");
    ASSERT_EQ(fromArray.size(), 1u);
    EXPECT_EQ(fromArray[0].value, "-6:-1,4:0.5");
    EXPECT_EQ(post::parseSettingsJson(R"({"percentile.compensation_curve": "none"})", "s.json")[0].value, "none");
    const std::string badPair =
        errorOf([] { post::parseSettingsJson(R"({"percentile.compensation_curve": [[1, 2, 3]]})", "s.json"); });
    EXPECT_TRUE(contains(badPair, "s.json:1: percentile.compensation_curve: each point must be an array of two"))
        << badPair;
    const std::string unsorted =
        errorOf([] { post::parseSettingsJson(R"({"percentile.compensation_curve": [[1, 0], [0, 0]]})", "s.json"); });
    EXPECT_TRUE(contains(unsorted, "s.json:1: percentile.compensation_curve: point 2")) << unsorted;
    for (const char* key : {"percentile.cut_threshold_ev", "percentile.snap_at_cuts"})
        EXPECT_TRUE(post::findParameter(key)) << key;
    EXPECT_FALSE(errorOf([] { post::parseAssignment("percentile.cut_threshold_ev=-1", "--set"); }).empty());
}

TEST(Parameter, ValuesParseAndFormatBack)
{
    float f = 0.0f;
    const post::Parameter p = post::floatParameter("t.f", "F", f, -1.0f, 100.0f, 0.18f);
    std::string error;
    auto value = post::parseParameterValue(p.info, "0.18", error);
    ASSERT_TRUE(value) << error;
    p.set(*value);
    EXPECT_EQ(f, 0.18f);
    EXPECT_EQ(post::formatParameterValue(p.info, p.get()), "0.18");  // shortest text of the float
    EXPECT_EQ(post::formatParameterValue(p.info, p.info.defaultValue), "0.18");

    for (const char* bad : {"", "abc", "1.5x", " 1", "nan", "inf", "1e999"})
        EXPECT_FALSE(post::parseParameterValue(p.info, bad, error)) << bad;
    EXPECT_FALSE(post::parseParameterValue(p.info, "100.5", error));
    EXPECT_TRUE(contains(error, "outside -1..100")) << error;

    int i = 0;
    const post::Parameter ip = post::intParameter("t.i", "I", i, 0, 10, 3);
    EXPECT_TRUE(post::parseParameterValue(ip.info, "10", error));
    EXPECT_FALSE(post::parseParameterValue(ip.info, "11", error));
    EXPECT_FALSE(post::parseParameterValue(ip.info, "2.5", error));
    EXPECT_TRUE(contains(error, "whole number")) << error;

    bool b = false;
    const post::Parameter bp = post::boolParameter("t.b", "B", b, false);
    bp.set(*post::parseParameterValue(bp.info, "true", error));
    EXPECT_TRUE(b);
    EXPECT_FALSE(post::parseParameterValue(bp.info, "yes", error));

    enum class Pick { A, B, C };
    Pick pick = Pick::A;
    const post::Parameter ep = post::enumParameter("t.e", "E", pick, {"a", "b", "c"}, Pick::A);
    ep.set(*post::parseParameterValue(ep.info, "c", error));
    EXPECT_EQ(pick, Pick::C);
    EXPECT_EQ(post::formatParameterValue(ep.info, ep.get()), "c");
    EXPECT_FALSE(post::parseParameterValue(ep.info, "d", error));
    EXPECT_TRUE(contains(error, "a|b|c")) << error;
}

TEST(PipelineParameterList, KeysAreUniqueOwnedAndTheirDefaultsParse)
{
    // The pipeline's own, the input's units, the display's anti-aliasing, the local exposure (any operator).
    std::set<std::string> owners{"histogram", "scan", "tonemap", "input", "display", "local_exposure"};
    for (const auto& e : post::toneOperatorRegistry())
        owners.insert(std::string(e.id));
    for (const auto& e : post::histogramMethodRegistry())
        owners.insert(std::string(e.id));
    for (const auto& e : post::scanMethodRegistry())
        owners.insert(std::string(e.id));

    std::set<std::string> keys;
    for (const post::ParameterInfo& info : post::listParameters()) {
        EXPECT_TRUE(keys.insert(info.key).second) << "duplicate key " << info.key;
        EXPECT_TRUE(owners.count(info.key.substr(0, info.key.find('.')))) << info.key << " has no owner";
        std::string error;
        EXPECT_TRUE(post::parseParameterValue(info, post::formatParameterValue(info, info.defaultValue), error))
            << info.key << ": " << error;
        EXPECT_FALSE(info.label.empty()) << info.key;
    }
    for (const char* key : {"histogram.method", "histogram.bins", "histogram.range", "histogram.log_min",
                            "histogram.out_of_range", "histogram.downsample", "scan.method", "tonemap.operator",
                            "ward.display_max", "ward.human_contrast", "percentile.key", "percentile.band_low",
                            "equalize.per_channel", "exposure.exposure_ev", "scatter-blend.local_histograms"})
        EXPECT_TRUE(keys.count(key)) << key;
    // Every operator with widgets has keys.
    for (const auto& e : post::toneOperatorRegistry()) {
        bool any = false;
        for (const std::string& key : keys)
            any |= key.rfind(std::string(e.id) + ".", 0) == 0;
        EXPECT_TRUE(any) << e.id;
    }
    // The method choices come first: a settings file picks methods before their options and bins.
    EXPECT_EQ(post::listParameters().at(0).key, "histogram.method");
    EXPECT_EQ(post::listParameters().at(1).key, "scan.method");
    EXPECT_EQ(post::listParameters().at(2).key, "tonemap.operator");
}

TEST(PipelineParameterList, UsageDocumentsEveryKeyWithItsDefault)
{
    std::ifstream in(testing_support::sourceDir() / "docs" / "USAGE.md");
    ASSERT_TRUE(in) << "docs/USAGE.md";
    std::stringstream text;
    text << in.rdbuf();
    for (const post::ParameterInfo& info : post::listParameters()) {
        const std::string def = post::formatParameterValue(info, info.defaultValue);
        const std::string row = "| `" + info.key + "` | " + std::string(post::toString(info.type)) + " | " +
                                (def.empty() ? "(empty)" : "`" + def + "`") + " |";  // an empty text default
        EXPECT_TRUE(contains(text.str(), row)) << "docs/USAGE.md lacks the row starting " << row;
    }
}

TEST(PipelineParameterList, TableListsEveryKeyTypeAndDefault)
{
    const std::string table = post::formatParameterTable();
    for (const post::ParameterInfo& info : post::listParameters()) {
        const std::string line = table.substr(table.find("\n" + info.key + " ") + 1);
        const std::string first = line.substr(0, line.find('\n'));
        EXPECT_TRUE(contains(first, std::string(post::toString(info.type)))) << first;
        EXPECT_TRUE(contains(first, post::domainText(info))) << first;
    }
}

TEST(SettingAssignment, RefusesUnknownKeysAndBadValuesNamingThem)
{
    EXPECT_EQ(post::parseAssignment("ward.display_max=250", "--set").value, "250");
    EXPECT_TRUE(contains(errorOf([] { post::parseAssignment("ward.nope=1", "--set"); }), "unknown key 'ward.nope'"));
    const std::string bad = errorOf([] { post::parseAssignment("ward.display_max=lots", "--set"); });
    EXPECT_EQ(bad.rfind("--set: ward.display_max: ", 0), 0u) << bad;
    const std::string range = errorOf([] { post::parseAssignment("histogram.bins=5000", "x.json:3"); });
    EXPECT_EQ(range.rfind("x.json:3: histogram.bins: ", 0), 0u) << range;
    EXPECT_TRUE(contains(range, "outside 1..4096")) << range;
    EXPECT_TRUE(contains(errorOf([] { post::parseAssignment("=1", "--set"); }), "is not KEY=VALUE"));
    EXPECT_TRUE(contains(errorOf([] { post::parseAssignment("histogram.bins", "--set"); }), "is not KEY=VALUE"));
}

TEST(SettingsJson, ReadsValuesOfEveryKindInApplicationOrder)
{
    const auto assignments = post::parseSettingsJson(
        "{\n \"ward.human_contrast\": true,\n \"histogram.bins\": 512,\n \"percentile.key\": 0.25,\n"
        " \"histogram.downsample\": 2,\n \"tonemap.operator\": \"percentile\"\n}\n",
        "s.json");
    ASSERT_EQ(assignments.size(), 5u);
    EXPECT_EQ(assignments[0].key, "tonemap.operator");  // method choices first, whatever the file's order
    EXPECT_EQ(assignments[0].origin, "s.json:6");
    auto valueOf = [&](const std::string& key) {
        for (const auto& a : assignments)
            if (a.key == key)
                return a.value;
        return std::string("?");
    };
    EXPECT_EQ(valueOf("ward.human_contrast"), "true");
    EXPECT_EQ(valueOf("histogram.bins"), "512");
    EXPECT_EQ(valueOf("percentile.key"), "0.25");
    EXPECT_EQ(valueOf("histogram.downsample"), "2");
}

TEST(SettingsJson, RefusesBadFilesNamingFileLineAndKey)
{
    auto parse = [](const std::string& text) { return errorOf([&] { post::parseSettingsJson(text, "my.json"); }); };
    EXPECT_EQ(parse("{\"histogram.bins\": 256,}").rfind("my.json:1:", 0), 0u);  // malformed (trailing comma)
    EXPECT_TRUE(contains(parse("{\"histogram.bins\": 256,}"), "syntax error"));
    EXPECT_TRUE(contains(parse("[1, 2]"), "one JSON object"));
    const std::string unknown = parse("{\n\"histogram.bins\": 256,\n\"no.such\": 1}");
    EXPECT_EQ(unknown.rfind("my.json:3: unknown key 'no.such'", 0), 0u) << unknown;
    EXPECT_EQ(parse("{\"histogram.bins\": 0}").rfind("my.json:1: histogram.bins: ", 0), 0u);
    EXPECT_TRUE(contains(parse("{\"histogram.bins\": 2.5}"), "whole number"));
    EXPECT_TRUE(contains(parse("{\"ward.human_contrast\": \"maybe\"}"), "ward.human_contrast: expects true or false"));
    EXPECT_TRUE(contains(parse("{\"ward.bins\": [100]}"), "ward.bins: must be a boolean, number or string, got array"));
    EXPECT_TRUE(contains(parse("{\"tonemap.operator\": \"reinhard\"}"), "tonemap.operator: expects one of"));

    const std::string missing = errorOf([] { post::readSettingsFile("/nonexistent/dir/s.json"); });
    EXPECT_TRUE(contains(missing, "cannot open settings file '/nonexistent/dir/s.json'")) << missing;
}

}  // namespace
