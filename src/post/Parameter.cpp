#include "post/Parameter.h"

#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>

namespace post {
namespace {

std::string shortestFloat(double value)
{
    char text[64];
    auto [end, ec] = std::to_chars(text, text + sizeof(text), float(value));
    return ec == std::errc() ? std::string(text, end) : std::to_string(value);
}

std::string numberText(const ParameterInfo& info, double value)
{
    return info.type == ParameterType::Int ? std::to_string(std::int64_t(value)) : shortestFloat(value);
}

std::string quoted(std::string_view text)
{
    return "'" + std::string(text) + "'";
}

}  // namespace

std::string_view toString(ParameterType type)
{
    switch (type) {
        case ParameterType::Bool:
            return "bool";
        case ParameterType::Int:
            return "int";
        case ParameterType::Float:
            return "float";
        case ParameterType::Enum:
            return "enum";
        case ParameterType::Text:
            return "text";
        case ParameterType::Points:
            return "points";
    }
    return "?";
}

std::string domainText(const ParameterInfo& info)
{
    switch (info.type) {
        case ParameterType::Bool:
            return "true|false";
        case ParameterType::Int:
        case ParameterType::Float:
            return numberText(info, info.min) + ".." + numberText(info, info.max);
        case ParameterType::Enum: {
            std::string text;
            for (const std::string& choice : info.choices)
                text += (text.empty() ? "" : "|") + choice;
            return text;
        }
        case ParameterType::Text:
            return "text";
        case ParameterType::Points:
            return "X:Y,... (x in " + shortestFloat(info.min) + ".." + shortestFloat(info.max) + " increasing, y in " +
                   shortestFloat(info.yMin) + ".." + shortestFloat(info.yMax) + ", at most " +
                   std::to_string(info.maxPoints) + " points; none)";
    }
    return {};
}

std::string formatParameterValue(const ParameterInfo& info, const ParameterValue& value)
{
    if (const bool* b = std::get_if<bool>(&value))
        return *b ? "true" : "false";
    if (const std::int64_t* i = std::get_if<std::int64_t>(&value))
        return std::to_string(*i);
    if (const double* d = std::get_if<double>(&value))
        return numberText(info, *d);
    return std::get<std::string>(value);
}

std::optional<ParameterValue> parseParameterValue(const ParameterInfo& info, std::string_view text, std::string& error)
{
    switch (info.type) {
        case ParameterType::Bool:
            if (text == "true" || text == "on" || text == "1")
                return ParameterValue(true);
            if (text == "false" || text == "off" || text == "0")
                return ParameterValue(false);
            error = "expects true or false, got " + quoted(text);
            return std::nullopt;
        case ParameterType::Int: {
            std::int64_t value = 0;
            auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
            if (text.empty() || ec != std::errc() || end != text.data() + text.size()) {
                error = "expects a whole number in " + domainText(info) + ", got " + quoted(text);
                return std::nullopt;
            }
            if (double(value) < info.min || double(value) > info.max) {
                error = quoted(text) + " is outside " + domainText(info);
                return std::nullopt;
            }
            return ParameterValue(value);
        }
        case ParameterType::Float: {
            std::string copy(text);
            char* end = nullptr;
            errno = 0;
            const double parsed = std::strtod(copy.c_str(), &end);
            const bool number = !copy.empty() && !std::isspace(static_cast<unsigned char>(copy.front())) &&
                                end == copy.c_str() + copy.size() && errno != ERANGE && std::isfinite(parsed);
            if (!number) {
                error = "expects a finite number in " + domainText(info) + ", got " + quoted(text);
                return std::nullopt;
            }
            // The setting is a float: range-check what it will hold.
            const double value = double(float(parsed));
            if (value < double(float(info.min)) || value > double(float(info.max))) {
                error = quoted(text) + " is outside " + domainText(info);
                return std::nullopt;
            }
            return ParameterValue(value);
        }
        case ParameterType::Enum:
            for (const std::string& choice : info.choices)
                if (choice == text)
                    return ParameterValue(choice);
            error = "expects one of " + domainText(info) + ", got " + quoted(text);
            return std::nullopt;
        case ParameterType::Text:
            if (info.check)
                if (std::string problem = info.check(text); !problem.empty()) {
                    error = problem;
                    return std::nullopt;
                }
            return ParameterValue(std::string(text));
        case ParameterType::Points: {
            if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) {
                error = "is empty; give points X:Y,X:Y,... or none";  // an empty value is a mistake, not 'none'
                return std::nullopt;
            }
            const std::optional<std::vector<ParameterPoint>> points = parsePoints(info, text, error);
            if (!points)
                return std::nullopt;
            return ParameterValue(formatPoints(*points));
        }
    }
    error = "has an unknown type";
    return std::nullopt;
}

namespace {

std::string_view trimmed(std::string_view text)
{
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())))
        text.remove_prefix(1);
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
        text.remove_suffix(1);
    return text;
}

/// A finite float's value from the whole of `text`, or nullopt.
std::optional<double> finiteFloat(std::string_view text)
{
    const std::string copy(trimmed(text));
    char* end = nullptr;
    errno = 0;
    const double parsed = std::strtod(copy.c_str(), &end);
    if (copy.empty() || end != copy.c_str() + copy.size() || errno == ERANGE || !std::isfinite(parsed))
        return std::nullopt;
    return double(float(parsed));
}

}  // namespace

std::optional<std::vector<ParameterPoint>> parsePoints(const ParameterInfo& info,
                                                       std::string_view text,
                                                       std::string& error)
{
    std::vector<ParameterPoint> points;
    text = trimmed(text);
    if (text.empty() || text == "none")
        return points;
    std::size_t number = 0;
    while (true) {
        const std::size_t comma = text.find(',');
        const std::string_view item = trimmed(text.substr(0, comma));
        ++number;
        const std::string where = "point " + std::to_string(number) + " " + quoted(item);
        const std::size_t colon = item.find(':');
        const std::optional<double> x =
            colon == std::string_view::npos ? std::nullopt : finiteFloat(item.substr(0, colon));
        const std::optional<double> y =
            colon == std::string_view::npos ? std::nullopt : finiteFloat(item.substr(colon + 1));
        if (!x || !y) {
            error = where + ": expects X:Y with two finite numbers (points separated by commas, e.g. -8:1,0:0)";
            return std::nullopt;
        }
        if (*x < double(float(info.min)) || *x > double(float(info.max))) {
            error = where + ": x " + shortestFloat(*x) + " is outside " + shortestFloat(info.min) + ".." +
                    shortestFloat(info.max);
            return std::nullopt;
        }
        if (*y < double(float(info.yMin)) || *y > double(float(info.yMax))) {
            error = where + ": y " + shortestFloat(*y) + " is outside " + shortestFloat(info.yMin) + ".." +
                    shortestFloat(info.yMax);
            return std::nullopt;
        }
        if (!points.empty() && !(*x > points.back().x)) {
            error = where + ": x " + shortestFloat(*x) + " must be above the previous point's " +
                    shortestFloat(points.back().x) + " (points sorted by x, no x twice)";
            return std::nullopt;
        }
        points.push_back({*x, *y});
        if (points.size() > info.maxPoints) {
            error = "has more than " + std::to_string(info.maxPoints) + " points";
            return std::nullopt;
        }
        if (comma == std::string_view::npos)
            break;
        text.remove_prefix(comma + 1);
    }
    return points;
}

std::string formatPoints(const std::vector<ParameterPoint>& points)
{
    if (points.empty())
        return "none";
    std::string text;
    for (const ParameterPoint& p : points)
        text += (text.empty() ? "" : ",") + shortestFloat(p.x) + ":" + shortestFloat(p.y);
    return text;
}

Parameter pointsParameter(std::string key,
                          std::string label,
                          double xMin,
                          double xMax,
                          double yMin,
                          double yMax,
                          std::size_t maxPoints,
                          std::function<std::vector<ParameterPoint>()> get,
                          std::function<void(std::vector<ParameterPoint>)> set)
{
    Parameter p;
    p.info = {std::move(key), std::move(label), ParameterType::Points, xMin, xMax, {}, std::string("none")};
    p.info.yMin = yMin;
    p.info.yMax = yMax;
    p.info.maxPoints = maxPoints;
    const ParameterInfo info = p.info;
    p.get = [get] { return ParameterValue(formatPoints(get())); };
    p.set = [set, info](const ParameterValue& value) {
        std::string error;
        if (const auto points = parsePoints(info, std::get<std::string>(value), error))
            set(*points);
    };
    return p;
}

Parameter boolParameter(std::string key, std::string label, bool& field, bool defaultValue)
{
    Parameter p;
    p.info = {std::move(key), std::move(label), ParameterType::Bool, 0.0, 1.0, {}, defaultValue};
    p.get = [&field] { return ParameterValue(field); };
    p.set = [&field](const ParameterValue& value) { field = std::get<bool>(value); };
    return p;
}

Parameter floatParameter(std::string key, std::string label, float& field, float min, float max, float defaultValue)
{
    Parameter p;
    p.info = {std::move(key), std::move(label), ParameterType::Float, min, max, {}, double(defaultValue)};
    p.get = [&field] { return ParameterValue(double(field)); };
    p.set = [&field](const ParameterValue& value) { field = float(std::get<double>(value)); };
    return p;
}

Parameter intParameter(std::string key, std::string label, int& field, int min, int max, int defaultValue)
{
    Parameter p;
    p.info = {
        std::move(key), std::move(label), ParameterType::Int, double(min), double(max), {}, std::int64_t(defaultValue)};
    p.get = [&field] { return ParameterValue(std::int64_t(field)); };
    p.set = [&field](const ParameterValue& value) { field = int(std::get<std::int64_t>(value)); };
    return p;
}

Parameter uintParameter(std::string key,
                        std::string label,
                        std::uint32_t& field,
                        std::uint32_t min,
                        std::uint32_t max,
                        std::uint32_t defaultValue)
{
    Parameter p;
    p.info = {
        std::move(key), std::move(label), ParameterType::Int, double(min), double(max), {}, std::int64_t(defaultValue)};
    p.get = [&field] { return ParameterValue(std::int64_t(field)); };
    p.set = [&field](const ParameterValue& value) { field = std::uint32_t(std::get<std::int64_t>(value)); };
    return p;
}

Parameter textParameter(std::string key,
                        std::string label,
                        std::string& field,
                        std::string defaultValue,
                        std::function<std::string(std::string_view)> check)
{
    Parameter p;
    p.info = {std::move(key), std::move(label), ParameterType::Text, 0.0, 0.0, {}, std::move(defaultValue)};
    p.info.check = std::move(check);
    p.get = [&field] { return ParameterValue(field); };
    p.set = [&field](const ParameterValue& value) { field = std::get<std::string>(value); };
    return p;
}

}  // namespace post
