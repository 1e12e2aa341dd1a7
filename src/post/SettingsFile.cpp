#include "post/SettingsFile.h"

#include "util/JsonReader.h"
#include "util/OutputFile.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace post {
namespace {

std::string jsonString(std::string_view text)
{
    std::string out = "\"";
    for (char c : text) {
        if (c == '"' || c == '\\')
            out += '\\';
        out += c;
    }
    return out + "\"";
}

/// A JSON number as the text --set would take: whole numbers without a fraction, others shortest.
std::string numberText(double number)
{
    if (std::nearbyint(number) == number && std::abs(number) < 1e15)
        return std::to_string(static_cast<long long>(number));
    char text[64];
    auto [end, ec] = std::to_chars(text, text + sizeof(text), number);
    return ec == std::errc() ? std::string(text, end) : std::to_string(number);
}

/// A Points key's JSON array [[x, y], ...] as the text --set takes ("x:y,..."); throws naming `where`.
std::string pointsText(const util::JsonValue& array, const std::string& where)
{
    std::string text;
    for (const util::JsonValue& item : array.items) {
        const bool pair = item.kind == util::JsonValue::Kind::Array && item.items.size() == 2 &&
                          item.items[0].kind == util::JsonValue::Kind::Number &&
                          item.items[1].kind == util::JsonValue::Kind::Number;
        if (!pair)
            throw std::runtime_error(where +
                                     ": each point must be an array of two numbers [x, y], as [[-8, 1], [0, 0]]");
        text += (text.empty() ? "" : ",") + numberText(item.items[0].number) + ":" + numberText(item.items[1].number);
    }
    return text.empty() ? "none" : text;
}

/// A Points value ("x:y,...") as a JSON array of [x, y] pairs.
std::string pointsJson(const ParameterInfo& info, const std::string& text)
{
    std::string error;
    const auto points = parsePoints(info, text, error);
    std::string out = "[";
    for (const ParameterPoint& p : points.value_or(std::vector<ParameterPoint>{}))
        out += (out.size() > 1 ? ", [" : "[") + formatParameterValue({"", "", ParameterType::Float}, p.x) + ", " +
               formatParameterValue({"", "", ParameterType::Float}, p.y) + "]";
    return out + "]";
}

util::JsonValue parseObject(const std::string& text, const std::string& source)
{
    util::JsonValue root;
    try {
        root = util::parseJson(text);
    } catch (const util::JsonSyntaxError& e) {
        throw std::runtime_error(source + ":" + std::to_string(e.position().line) + ":" +
                                 std::to_string(e.position().column) + ": syntax error: " + e.what());
    }
    if (root.kind != util::JsonValue::Kind::Object)
        throw std::runtime_error(source + ": a settings file is one JSON object of keys and values, not a " +
                                 std::string(util::jsonKindName(root.kind)));
    return root;
}

std::string readText(const std::filesystem::path& path)
{
    std::error_code folderCheck;
    if (std::filesystem::is_directory(path, folderCheck))
        throw std::runtime_error("cannot open settings file '" + path.string() + "': it is a folder, not a file");
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        const int error = errno;
        throw std::runtime_error("cannot open settings file '" + path.string() +
                                 "': " + std::strerror(error != 0 ? error : ENOENT));
    }
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad())
        throw std::runtime_error("cannot read settings file '" + path.string() + "'");
    return text.str();
}

}  // namespace

std::vector<SettingAssignment> parseSettingsJson(const std::string& text, const std::string& source)
{
    const util::JsonValue root = parseObject(text, source);
    std::vector<SettingAssignment> out;
    for (const util::JsonMember& member : root.members) {
        if (std::string_view(member.key).starts_with(kLayoutKeyPrefix))
            continue;  // the app's panel layout (readSettingsSection)
        const std::string origin = source + ":" + std::to_string(member.keyPosition.line);
        const util::JsonValue& value = *member.value;
        std::string valueText;
        switch (value.kind) {
            case util::JsonValue::Kind::Bool:
                valueText = value.boolean ? "true" : "false";
                break;
            case util::JsonValue::Kind::Number:
                valueText = numberText(value.number);
                break;
            case util::JsonValue::Kind::String:
                valueText = value.string;
                break;
            case util::JsonValue::Kind::Array:
                if (const ParameterInfo* info = findParameter(member.key);
                    info && info->type == ParameterType::Points) {
                    valueText = pointsText(value, origin + ": " + member.key);
                    break;
                }
                [[fallthrough]];
            default:
                if (!findParameter(member.key))
                    break;  // the unknown key is the clearer message
                throw std::runtime_error(origin + ": " + member.key + ": must be a boolean, number or string, got " +
                                         std::string(util::jsonKindName(value.kind)));
        }
        out.push_back(parseAssignment(member.key + "=" + valueText, origin));
    }
    // A set of values: method choices first, whatever the file's order.
    const std::vector<ParameterInfo>& order = listParameters();
    auto rank = [&order](const SettingAssignment& a) {
        return std::find_if(order.begin(), order.end(), [&a](const ParameterInfo& i) { return i.key == a.key; }) -
               order.begin();
    };
    std::stable_sort(out.begin(), out.end(),
                     [&rank](const SettingAssignment& a, const SettingAssignment& b) { return rank(a) < rank(b); });
    return out;
}

std::vector<SettingAssignment> readSettingsFile(const std::filesystem::path& path)
{
    return parseSettingsJson(readText(path), path.string());
}

std::map<std::string, std::string> parseSettingsSection(const std::string& text,
                                                        const std::string& source,
                                                        std::string_view prefix)
{
    std::map<std::string, std::string> out;
    for (const util::JsonMember& member : parseObject(text, source).members) {
        if (!std::string_view(member.key).starts_with(prefix))
            continue;
        const util::JsonValue& value = *member.value;
        switch (value.kind) {
            case util::JsonValue::Kind::Bool:
                out[member.key] = value.boolean ? "true" : "false";
                break;
            case util::JsonValue::Kind::Number:
                out[member.key] = numberText(value.number);
                break;
            case util::JsonValue::Kind::String:
                out[member.key] = value.string;
                break;
            default:
                out[member.key] = std::string("(") + std::string(util::jsonKindName(value.kind)) + ")";
                break;
        }
    }
    return out;
}

std::map<std::string, std::string> readSettingsSection(const std::filesystem::path& path, std::string_view prefix)
{
    return parseSettingsSection(readText(path), path.string(), prefix);
}

std::string settingsToJson(const PipelineParameters& parameters, const ExtraSettingKeys& extraKeys)
{
    std::vector<std::pair<std::string, std::string>> lines;  // key, JSON value
    for (const auto& [key, text] : parameters.values()) {
        const ParameterInfo& info = *findParameter(key);
        const bool bare = info.type != ParameterType::Enum && info.type != ParameterType::Text;  // booleans and numbers
        lines.emplace_back(key, info.type == ParameterType::Points ? pointsJson(info, text)
                                : bare                             ? text
                                                                   : jsonString(text));
    }
    lines.insert(lines.end(), extraKeys.begin(), extraKeys.end());
    std::string out = "{\n";
    for (std::size_t i = 0; i < lines.size(); ++i)
        out += "  " + jsonString(lines[i].first) + ": " + lines[i].second + (i + 1 < lines.size() ? ",\n" : "\n");
    return out + "}\n";
}

void writeSettingsFile(const std::filesystem::path& path,
                       const PipelineParameters& parameters,
                       const ExtraSettingKeys& extraKeys)
{
    util::writeFileAtomically(path, settingsToJson(parameters, extraKeys));
}

std::vector<std::string> loadSettingsFile(const std::filesystem::path& path, PipelineParameters& parameters)
{
    return parameters.apply(readSettingsFile(path));
}

}  // namespace post
