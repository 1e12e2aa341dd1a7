// Scene parser tests: every scene in scenes/ loads; malformed scenes fail with messages that name
// the file, the line and the problem.
#include "scene/Scene.h"
#include "support/TestPaths.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace {

// Substring check that prints the whole message on failure.
#define EXPECT_CONTAINS(text, part) EXPECT_NE(std::string(text).find(part), std::string::npos) << "message: " << (text)

std::string errorOf(std::string_view text, const std::string& name = "bad.json")
{
    try {
        scene::parseScene(text, name);
    } catch (const scene::SceneError& e) {
        return e.what();
    }
    return "(no error)";
}

// A valid minimal scene with one placeholder replaced, so each case differs from a good file in one spot.
std::string minimalScene(const std::string& materialFields = R"("baseColor": [0.5, 0.5, 0.5])",
                         const std::string& extraTopLevel = "")
{
    return "{\n"
           "  \"materials\": {\n"
           "    \"wall\": { " +
           materialFields +
           " }\n"
           "  },\n"
           "  \"objects\": [\n"
           "    { \"type\": \"box\", \"size\": [1, 2, 3], \"material\": \"wall\" }\n"
           "  ]" +
           extraTopLevel +
           "\n"
           "}\n";
}

TEST(SceneParser, EveryShippedSceneLoads)
{
    int count = 0;
    for (const auto& entry : std::filesystem::directory_iterator(testing_support::sourceDir() / "scenes")) {
        if (entry.path().extension() != ".json")
            continue;
        SCOPED_TRACE(entry.path().string());
        scene::Scene s = scene::loadSceneFile(entry.path());
        EXPECT_FALSE(s.objects.empty());
        EXPECT_FALSE(s.materials.empty());
        EXPECT_EQ(s.sourceName, entry.path().string());
        ++count;
    }
    EXPECT_GE(count, 2);
}

TEST(SceneParser, DefaultSceneIsBuiltInAndMatchesTheFile)
{
    scene::Scene builtIn = scene::defaultScene();
    EXPECT_EQ(builtIn.sourceName, "scenes/default.json (built in)");
    scene::Scene fromFile = scene::loadSceneFile(testing_support::sourceDir() / "scenes" / "default.json");
    EXPECT_EQ(builtIn.objects.size(), fromFile.objects.size());
    EXPECT_EQ(builtIn.materials.size(), fromFile.materials.size());
    EXPECT_GE(builtIn.lights.size(), 1u);
    EXPECT_GE(builtIn.cameraPath.keyframes.size(), 2u);
    // Emissive lamps and a sun high enough to shine through the openings.
    bool hasEmitter = false;
    for (const scene::Material& m : builtIn.materials)
        hasEmitter = hasEmitter || m.emissionLuminance >= 1000.0f;
    EXPECT_TRUE(hasEmitter);
    EXPECT_GT(builtIn.sun.elevationDegrees, 10.0f);
    EXPECT_GT(builtIn.sun.illuminance, 10000.0f);
}

TEST(SceneParser, DocumentedExampleParses)
{
    std::ifstream in(testing_support::sourceDir() / "docs" / "SCENE_FORMAT.md");
    ASSERT_TRUE(in) << "docs/SCENE_FORMAT.md is missing";
    std::string doc((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::size_t start = doc.find("## Example");
    ASSERT_NE(start, std::string::npos);
    start = doc.find("```json\n", start);
    ASSERT_NE(start, std::string::npos);
    start += 8;
    std::size_t end = doc.find("```", start);
    scene::Scene s = scene::parseScene(doc.substr(start, end - start), "SCENE_FORMAT.md example");
    EXPECT_EQ(s.objects.size(), 3u);
    EXPECT_EQ(s.cameraPath.keyframes.size(), 3u);
}

TEST(SceneParser, ReadsValuesAndDefaults)
{
    scene::Scene s =
        scene::parseScene(minimalScene(R"("baseColor": [0.1, 0.2, 0.3], "roughness": 0.25, "emissionLuminance": 500)",
                                       R"(, "camera": { "fov": 50, "position": [1, 2, 3], "yaw": 90 })"),
                          "mem.json");
    ASSERT_EQ(s.materials.size(), 1u);
    EXPECT_FLOAT_EQ(s.materials[0].roughness, 0.25f);
    EXPECT_FLOAT_EQ(s.materials[0].metalness, 0.0f);
    EXPECT_FLOAT_EQ(s.materials[0].emissionLuminance, 500.0f);
    EXPECT_FLOAT_EQ(s.materials[0].baseColor.y, 0.2f);
    ASSERT_EQ(s.objects.size(), 1u);
    EXPECT_EQ(s.objects[0].type, scene::PrimitiveType::Box);
    EXPECT_FLOAT_EQ(s.objects[0].size.z, 3.0f);
    EXPECT_FLOAT_EQ(s.camera.verticalFovDegrees, 50.0f);
    EXPECT_FLOAT_EQ(s.camera.position.z, 3.0f);
    // No path: the camera stays at its start pose at any time.
    EXPECT_FLOAT_EQ(s.cameraAt(12.5).yawDegrees, 90.0f);
    // Colours of lights are normalised to luminance 1.
    const glm::vec3 c = s.sun.color;
    EXPECT_NEAR(0.2126f * c.x + 0.7152f * c.y + 0.0722f * c.z, 1.0f, 1e-5f);
}

TEST(SceneParser, SyntaxErrorNamesFileLineAndColumn)
{
    std::string text = "{\n  \"materials\": {\n    \"wall\": { \"roughness\": 0.5, }\n  }\n}\n";
    std::string message = errorOf(text, "scenes/broken.json");
    EXPECT_CONTAINS(message, "scenes/broken.json:3:33: syntax error");
    EXPECT_CONTAINS(message, "expected a quoted key");
}

// Found by fuzzing: an escape of a raw control character echoed it into the message.
TEST(SceneParser, ErrorMessagesEscapeControlCharactersAndCutLongQuotes)
{
    std::string message = errorOf(std::string("{\"description\": \"a \\\x01 b\"}"), "ctl.json");
    EXPECT_CONTAINS(message, "ctl.json:1:");
    EXPECT_CONTAINS(message, "\\x01");
    EXPECT_EQ(message.find('\x01'), std::string::npos) << message;

    const std::string longName(5000, 'm');
    message = errorOf(minimalScene(), "long.json");
    EXPECT_EQ(message, "(no error)");
    std::string text = minimalScene();
    text.replace(text.find("\"material\": \"wall\""), 18, "\"material\": \"" + longName + "\"");
    message = errorOf(text, "long.json");
    EXPECT_CONTAINS(message, "names unknown material");
    EXPECT_CONTAINS(message, "...");
    EXPECT_LT(message.size(), 600u) << message.size();
}

TEST(SceneParser, TruncatedFileIsASyntaxError)
{
    std::string message = errorOf("{\n  \"materials\": {", "cut.json");
    EXPECT_CONTAINS(message, "cut.json:2:17: syntax error");
    EXPECT_CONTAINS(message, "end of file");
}

TEST(SceneParser, UnknownFieldIsAnErrorWithTheValidNames)
{
    std::string message = errorOf(minimalScene(R"("colr": [1, 0, 0])"), "scenes/bad.json");
    EXPECT_CONTAINS(message, "scenes/bad.json:3: unknown field \"colr\" in material \"wall\"");
    EXPECT_CONTAINS(message, "expected one of: baseColor, roughness, metalness");
}

TEST(SceneParser, UnknownFieldForTheObjectType)
{
    std::string text = minimalScene();
    text.replace(text.find("\"type\": \"box\", \"size\": [1, 2, 3]"), 32, "\"type\": \"sphere\", \"size\": [1, 2, 3]");
    std::string message = errorOf(text);
    EXPECT_CONTAINS(message, "bad.json:6: unknown field \"size\" in object 0");
    EXPECT_CONTAINS(message, "radius");
}

TEST(SceneParser, WrongTypeNamesBothTypes)
{
    std::string message = errorOf(minimalScene(R"("roughness": "smooth")"));
    EXPECT_CONTAINS(message, "bad.json:3: \"roughness\" in material \"wall\" must be a number, got string");
}

TEST(SceneParser, OutOfRangeValues)
{
    EXPECT_CONTAINS(errorOf(minimalScene(R"("roughness": 1.5)")),
                    "bad.json:3: \"roughness\" in material \"wall\" must be in [0, 1], got 1.5");
    EXPECT_CONTAINS(errorOf(minimalScene(R"("baseColor": [0.5, -1, 0.5])")),
                    "\"baseColor\" in material \"wall\"[1] must be in [0, 1], got -1");
    EXPECT_CONTAINS(errorOf(minimalScene(R"("baseColor": [0.5, 0.5])")),
                    "must be an array of 3 numbers, got 2 elements");
    std::string text = minimalScene("\"roughness\": 0.5", ",\n  \"camera\": {\n    \"fov\": -10\n  }");
    EXPECT_CONTAINS(errorOf(text), "bad.json:9: \"fov\" in \"camera\" must be in (0, 179], got -10");
    std::string zeroSize = minimalScene();
    zeroSize.replace(zeroSize.find("[1, 2, 3]"), 9, "[1, 0, 3]");
    EXPECT_CONTAINS(errorOf(zeroSize), "bad.json:6: \"size\" in object 0[1] must be > 0, got 0");
    EXPECT_CONTAINS(errorOf(minimalScene("\"roughness\": 1e999")), "bad.json:3:");
}

TEST(SceneParser, UnknownMaterialAndMissingFields)
{
    std::string text = minimalScene();
    text.replace(text.find("\"material\": \"wall\""), 18, "\"material\": \"wal\"");
    EXPECT_CONTAINS(errorOf(text), "bad.json:6: \"material\" in object 0 names unknown material \"wal\"");
    std::string noType = minimalScene();
    noType.replace(noType.find("\"type\": \"box\", "), 15, "");
    EXPECT_CONTAINS(errorOf(noType), "bad.json:6: object 0 is missing required field \"type\"");
    EXPECT_CONTAINS(errorOf("{\n \"objects\": []\n}"), "bad.json:1: the scene is missing required field \"materials\"");
    EXPECT_CONTAINS(errorOf(minimalScene("", R"(, "sky": { "model": "hosek" })")),
                    "\"model\" in \"sky\" must be one of \"cie-clear\", \"cie-overcast\", got \"hosek\"");
}

TEST(SceneParser, KeyframesMustIncreaseInTime)
{
    std::string path = R"(, "cameraPath": { "keyframes": [
    { "time": 0, "position": [0, 1, 0] },
    { "time": 0, "position": [1, 1, 0] } ] })";
    std::string message = errorOf(minimalScene("", path));
    EXPECT_CONTAINS(message,
                    "bad.json:9: keyframe 1: \"time\" must be greater than the previous keyframe's (0), got 0");
}

TEST(SceneParser, DuplicateKeysAreRejected)
{
    EXPECT_CONTAINS(errorOf(minimalScene(R"("roughness": 0.1, "roughness": 0.2)")), "bad.json:3:");
    EXPECT_CONTAINS(errorOf(minimalScene(R"("roughness": 0.1, "roughness": 0.2)")), "duplicate key \"roughness\"");
}

TEST(SceneParser, MissingFileNamesTheFileAndTheReason)
{
    try {
        scene::loadSceneFile("x-does-not-exist.json");
        FAIL() << "expected a SceneError";
    } catch (const scene::SceneError& e) {
        EXPECT_STREQ(e.what(), "cannot open scene file 'x-does-not-exist.json': No such file or directory");
    }
}

TEST(SceneParser, ErrorFromAFileUsesItsPath)
{
    std::filesystem::path file = std::filesystem::temp_directory_path() / "hdrlab-scene-parser-test-bad.json";
    {
        std::ofstream out(file);
        out << minimalScene(R"("metalness": true)");
    }
    try {
        scene::loadSceneFile(file);
        ADD_FAILURE() << "expected a SceneError";
    } catch (const scene::SceneError& e) {
        EXPECT_CONTAINS(std::string(e.what()),
                        file.string() + ":3: \"metalness\" in material \"wall\" must be a number, got boolean");
    }
    std::filesystem::remove(file);
}

// The scene rows of docs/RELIABILITY.md's bad-input table: each absurd value gets one line naming the
// file and line, never a crash or a scene with non-finite numbers in it.
TEST(SceneParser, AbsurdValuesAreRefusedWithTheLine)
{
    std::string nanLiteral = minimalScene(R"("roughness": NaN)");
    EXPECT_CONTAINS(errorOf(nanLiteral), "bad.json:3:");
    EXPECT_CONTAINS(errorOf(nanLiteral), "syntax error");

    std::string huge = minimalScene();
    huge.replace(huge.find("[1, 2, 3]"), 9, "[1e308, 2, 3]");
    EXPECT_CONTAINS(errorOf(huge), "bad.json:6: \"size\" in object 0[0] is too large for a float, got 1e+308");

    std::string negative = minimalScene();
    negative.replace(negative.find("[1, 2, 3]"), 9, "[-5, 2, 3]");
    EXPECT_CONTAINS(errorOf(negative), "bad.json:6: \"size\" in object 0[0] must be > 0, got -5");

    std::string wrongType = minimalScene();
    wrongType.replace(wrongType.find("[1, 2, 3]"), 9, "\"big\"");
    EXPECT_CONTAINS(errorOf(wrongType), "bad.json:6: \"size\" in object 0 must be an array");

    EXPECT_CONTAINS(errorOf(minimalScene("\"baseColor\": [0.5, 0.5, 0.5]", ",\n  \"colour\": 1")),
                    "unknown field \"colour\"");
}

TEST(SceneParser, DeepNestingIsRefusedWithoutExhaustingTheStack)
{
    const int depth = 10'000;
    std::string text = "{\"objects\": " + std::string(depth, '[') + std::string(depth, ']') + "}";
    EXPECT_CONTAINS(errorOf(text), "nesting deeper than 64 levels");
    std::string objects = std::string(depth, '{');
    EXPECT_CONTAINS(errorOf(objects), "bad.json:1:");
}

TEST(SceneParser, EmptyFileAndFolderAreClearErrors)
{
    EXPECT_CONTAINS(errorOf(""), "bad.json:1:1: syntax error");
    std::filesystem::path dir = testing_support::scratchDir("scene-folder");
    try {
        scene::loadSceneFile(dir);
        ADD_FAILURE() << "expected a SceneError";
    } catch (const scene::SceneError& e) {
        EXPECT_CONTAINS(std::string(e.what()), "it is a folder, not a file");
    }
}

}  // namespace

namespace {

TEST(SceneParser, EnvironmentSkyFields)
{
    scene::Scene plain = scene::parseScene(minimalScene(), "mem.json");
    EXPECT_FALSE(plain.sky.environment.has_value()) << "the analytic sky stays the default";

    scene::Scene s =
        scene::parseScene(minimalScene(R"("baseColor": [0.5, 0.5, 0.5])",
                                       ",\n  \"sky\": { \"environment\": \"assets/x.exr\", \"intensity\": 32768, "
                                       "\"rotationDegrees\": -45 }"),
                          "mem.json", "some/folder");
    ASSERT_TRUE(s.sky.environment.has_value());
    EXPECT_EQ(s.sky.environment->path, "assets/x.exr");
    EXPECT_EQ(s.sky.environment->sceneFolder, std::filesystem::path("some/folder"));
    EXPECT_EQ(s.sky.environment->line, 8);
    EXPECT_FLOAT_EQ(s.sky.environment->intensity, 32768.0f);
    EXPECT_FLOAT_EQ(s.sky.environment->rotationDegrees, -45.0f);

    scene::Scene defaults = scene::parseScene(
        minimalScene(R"("baseColor": [0.5, 0.5, 0.5])", R"(, "sky": { "environment": "a.exr" })"), "mem.json");
    ASSERT_TRUE(defaults.sky.environment.has_value());
    EXPECT_FLOAT_EQ(defaults.sky.environment->intensity, 1.0f);
    EXPECT_FLOAT_EQ(defaults.sky.environment->rotationDegrees, 0.0f);
}

TEST(SceneParser, EnvironmentSkyBadValues)
{
    auto sky = [](const std::string& fields) {
        return errorOf(minimalScene(R"("baseColor": [0.5, 0.5, 0.5])", ",\n  \"sky\": { " + fields + " }"));
    };
    EXPECT_CONTAINS(sky(R"("environment": 3)"), "bad.json:8: \"environment\" in \"sky\" must be a string, got number");
    EXPECT_CONTAINS(sky(R"("environment": "")"), "bad.json:8: \"environment\" in \"sky\" must name an image file");
    EXPECT_CONTAINS(sky(R"("environment": "a.exr", "intensity": 0)"), "\"intensity\" in \"sky\" must be > 0, got 0");
    EXPECT_CONTAINS(sky(R"("environment": "a.exr", "intensity": -2)"), "must be > 0, got -2");
    EXPECT_CONTAINS(sky(R"("environment": "a.exr", "rotationDegrees": 400)"),
                    "\"rotationDegrees\" in \"sky\" must be in [-360, 360], got 400");
    EXPECT_CONTAINS(sky(R"("intensity": 2)"), "\"intensity\" in \"sky\" only applies with \"environment\"");
    EXPECT_CONTAINS(sky(R"("rotationDegrees": 10)"), "\"rotationDegrees\" in \"sky\" only applies with");
    EXPECT_CONTAINS(sky(R"("environment": "a.exr", "rotation": 10)"), "unknown field \"rotation\" in \"sky\"");
}

TEST(SceneParser, SceneFolderIsTheFilesFolder)
{
    std::filesystem::path dir = testing_support::scratchDir("scene-folder");
    std::filesystem::path file = dir / "env.json";
    {
        std::ofstream out(file);
        out << minimalScene(R"("baseColor": [0.5, 0.5, 0.5])", R"(, "sky": { "environment": "m.exr" })");
    }
    scene::Scene s = scene::loadSceneFile(file);
    ASSERT_TRUE(s.sky.environment.has_value());
    EXPECT_EQ(s.sky.environment->sceneFolder, dir);
    std::filesystem::remove_all(dir);
}

}  // namespace

namespace {

TEST(SceneParser, PresetFieldsDynamicRangeAndInject)
{
    scene::Scene plain = scene::parseScene(minimalScene(), "ok.json");
    EXPECT_FALSE(plain.statedRange);
    EXPECT_EQ(plain.inject.total(), 0);

    scene::Scene s =
        scene::parseScene(minimalScene("\"roughness\": 0.5",
                                       ",\n  \"dynamicRange\": { \"atLeast\": 1e5, \"maxLitFraction\": 0.01, "
                                       "\"peakLuminance\": 1e9, \"uniform\": false },\n"
                                       "  \"inject\": { \"nan\": 3, \"inf\": 2, \"negative\": 1 }"),
                          "ok.json");
    ASSERT_TRUE(s.statedRange);
    EXPECT_EQ(s.statedRange->atLeast, 1e5);
    EXPECT_EQ(s.statedRange->maxLitFraction, 0.01);
    EXPECT_EQ(s.statedRange->peakLuminance, 1e9);
    EXPECT_FALSE(s.statedRange->uniform);
    EXPECT_EQ(s.inject.nan, 3);
    EXPECT_EQ(s.inject.inf, 2);
    EXPECT_EQ(s.inject.negative, 1);
    EXPECT_EQ(s.inject.total(), 6);

    EXPECT_CONTAINS(errorOf(minimalScene("\"roughness\": 0.5", ",\n  \"inject\": { \"nan\": -1 }")),
                    "bad.json:8: \"nan\" in \"inject\" must be in [0, 65536], got -1");
    EXPECT_CONTAINS(errorOf(minimalScene("\"roughness\": 0.5", ",\n  \"inject\": { \"inf\": 1.5 }")),
                    "\"inf\" in \"inject\" must be a whole number, got 1.5");
    EXPECT_CONTAINS(errorOf(minimalScene("\"roughness\": 0.5", ",\n  \"inject\": { \"zero\": 1 }")),
                    "unknown field \"zero\" in \"inject\"");
    EXPECT_CONTAINS(errorOf(minimalScene("\"roughness\": 0.5", ",\n  \"dynamicRange\": { \"maxLitFraction\": 2 }")),
                    "\"maxLitFraction\" in \"dynamicRange\" must be in [0, 1], got 2");
    EXPECT_CONTAINS(errorOf(minimalScene("\"roughness\": 0.5", ",\n  \"dynamicRange\": { \"uniform\": 1 }")),
                    "\"uniform\" in \"dynamicRange\" must be a bool");
}

}  // namespace
