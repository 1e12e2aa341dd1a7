#include "post/Parameter.h"

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
    }
    error = "has an unknown type";
    return std::nullopt;
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
