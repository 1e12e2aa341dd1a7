// Parameter.h: settings as data. A Parameter describes one stage or operator setting under a stable
// key ("ward.display_max", "histogram.bins"): its type (bool, int, float, enum), its range or
// choices, its default, and a getter/setter bound to the live object, so the command line
// (--set KEY=VALUE), settings files and the UI all change the same state. Text is the one exchange
// form: parseParameterValue() checks type and range and says what is wrong; formatParameterValue()
// writes what parses back to the same value (floats as the shortest text of the float). A Points
// key holds a short list of (x, y) points, x strictly increasing ("-8:1.5,0:0,6:-1"; "none" for no
// points), its value the list's canonical text; a settings file may write it as [[-8, 1.5], [0, 0]].
// Limits: constraints between keys (Ward's display min below max, percentile's band) are not checked
// per key; the owner's ParameterList::commit applies them after a batch, as the UI's sanitize does.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace post {

enum class ParameterType { Bool, Int, Float, Enum, Text, Points };
std::string_view toString(ParameterType type);

/// Bool: bool, Int: std::int64_t, Float: double (the value of a float), Enum: the choice's text, Text: the text,
/// Points: the canonical text of the list (formatPoints).
using ParameterValue = std::variant<bool, std::int64_t, double, std::string>;

/// What a parameter is, without the object it is bound to (listing, validation, files).
struct ParameterInfo
{
    std::string key;    ///< stable: "<owner id>.<name>" for methods and operators, "<stage>.<name>" for the pipeline
    std::string label;  ///< the UI's words for it
    ParameterType type = ParameterType::Float;
    double min = 0.0;  ///< Int, Float: inclusive range; Points: the range of x
    double max = 0.0;
    std::vector<std::string> choices;  ///< Enum
    ParameterValue defaultValue;
    /// Text: checks a value before anything changes (a file that must load); returns the problem, or
    /// empty when the value is fine. Null: any text is accepted.
    std::function<std::string(std::string_view)> check;
    double yMin = 0.0;  ///< Points: the range of y
    double yMax = 0.0;
    std::size_t maxPoints = 0;  ///< Points: the most points a list may have
};

/// One point of a Points parameter.
struct ParameterPoint
{
    double x = 0.0;
    double y = 0.0;
};
/// The points of `text` ("X:Y,X:Y", spaces allowed; "" or "none": no points), each a float in the
/// ranges of `info`, x strictly increasing, at most info.maxPoints; nullopt with `error` saying which
/// point is wrong and why.
std::optional<std::vector<ParameterPoint>> parsePoints(const ParameterInfo& info,
                                                       std::string_view text,
                                                       std::string& error);
/// "X:Y,X:Y" with the shortest text of each float, "none" for no points.
std::string formatPoints(const std::vector<ParameterPoint>& points);

struct Parameter
{
    ParameterInfo info;
    std::function<ParameterValue()> get;
    /// Takes a value that parseParameterValue accepted for `info`.
    std::function<void(const ParameterValue&)> set;
};

/// The parameters of one live object, and what it does after a batch of sets (its sanitize).
struct ParameterList
{
    std::vector<Parameter> items;
    std::function<void()> commit;
};

/// "0..100", "clamp|reinhard|hable|aces-fit", "true|false", "text".
std::string domainText(const ParameterInfo& info);
std::string formatParameterValue(const ParameterInfo& info, const ParameterValue& value);
/// The value of `text` for this parameter, or nullopt with `error` saying why (without the key):
/// "expects a number in 0..100, got '200'".
std::optional<ParameterValue> parseParameterValue(const ParameterInfo& info, std::string_view text, std::string& error);

// Builders that bind a parameter to a field of a settings struct the object owns (the field the UI's
// widget edits). `field` must outlive the returned Parameter.
Parameter boolParameter(std::string key, std::string label, bool& field, bool defaultValue);
Parameter floatParameter(std::string key, std::string label, float& field, float min, float max, float defaultValue);
Parameter intParameter(std::string key, std::string label, int& field, int min, int max, int defaultValue);
Parameter uintParameter(std::string key,
                        std::string label,
                        std::uint32_t& field,
                        std::uint32_t min,
                        std::uint32_t max,
                        std::uint32_t defaultValue);
/// Free text (a file path); `check` as ParameterInfo::check.
Parameter textParameter(std::string key,
                        std::string label,
                        std::string& field,
                        std::string defaultValue,
                        std::function<std::string(std::string_view)> check = {});
/// A Points parameter read and written through `get`/`set` of the owner's own point type.
Parameter pointsParameter(std::string key,
                          std::string label,
                          double xMin,
                          double xMax,
                          double yMin,
                          double yMax,
                          std::size_t maxPoints,
                          std::function<std::vector<ParameterPoint>()> get,
                          std::function<void(std::vector<ParameterPoint>)> set);
/// An enum whose values are 0..choices.size()-1 in the order of `choices`.
template <typename Enum>
Parameter enumParameter(std::string key, std::string label, Enum& field, std::vector<std::string> choices, Enum def)
{
    Parameter p;
    p.info.key = std::move(key);
    p.info.label = std::move(label);
    p.info.type = ParameterType::Enum;
    p.info.defaultValue = choices.at(std::size_t(def));
    p.info.choices = std::move(choices);
    const std::vector<std::string> names = p.info.choices;
    p.get = [&field, names] { return ParameterValue(names.at(std::size_t(field))); };
    p.set = [&field, names](const ParameterValue& value) {
        for (std::size_t i = 0; i < names.size(); ++i)
            if (names[i] == std::get<std::string>(value))
                field = Enum(i);
    };
    return p;
}

}  // namespace post
