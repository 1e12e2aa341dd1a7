// JsonReader.h: a small strict JSON reader that remembers where every value came from.
//
// nlohmann_json reports positions only for syntax errors; scene errors must also name the line of
// a value that parses but is wrong ("roughness" is a string, a field is unknown). This reader is a
// plain recursive-descent parser over standard JSON (RFC 8259: no comments, no trailing commas)
// that stores the line and column of each value and each object key. Limits: nesting is capped at
// 64 levels; numbers are read as double; duplicate keys are rejected.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace util {

struct JsonPosition
{
    int line = 1;    ///< 1-based
    int column = 1;  ///< 1-based, in bytes
};

struct JsonValue;

struct JsonMember
{
    std::string key;
    JsonPosition keyPosition;
    std::unique_ptr<JsonValue> value;
};

struct JsonValue
{
    enum class Kind { Null, Bool, Number, String, Array, Object };

    Kind kind = Kind::Null;
    JsonPosition position;
    bool boolean = false;
    double number = 0.0;
    std::string string;
    std::vector<JsonValue> items;     ///< Array
    std::vector<JsonMember> members;  ///< Object, in file order

    /// The member with this key, or nullptr.
    const JsonValue* find(std::string_view key) const;
    const JsonMember* findMember(std::string_view key) const;
};

/// "number", "string", "object", ... (for messages like `must be a number, got string`).
std::string_view jsonKindName(JsonValue::Kind kind);

/// A syntax error at a position (the caller adds the file name).
class JsonSyntaxError : public std::runtime_error
{
public:
    JsonSyntaxError(JsonPosition position, const std::string& what) : std::runtime_error(what), mPosition(position) {}
    JsonPosition position() const { return mPosition; }

private:
    JsonPosition mPosition;
};

/// Parses one JSON document; throws JsonSyntaxError.
JsonValue parseJson(std::string_view text);

}  // namespace util
