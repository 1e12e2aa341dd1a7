// SceneFieldReader.h: one object of a JSON scene file read field by field, for SceneParser.cpp.
// A FieldReader knows the keys its context allows, so a typo is reported as an unknown field with
// the list of valid ones, and it type- and range-checks every value where it is read (numbers must
// be finite, within their Range and within float range; vectors have 3 numbers; a hue is not black;
// a choice is one of its names). Every problem throws SceneError "FILE:LINE: what is wrong", the
// text from the file escaped and cut to kMaxEchoedBytes.
#pragma once

#include "scene/Scene.h"
#include "util/JsonReader.h"

#include <glm/vec3.hpp>

#include <cstddef>
#include <initializer_list>
#include <limits>
#include <string>
#include <utility>

namespace scene::fields {

inline constexpr float kInf = std::numeric_limits<float>::infinity();
// Longest part of an error message taken from the file (names, strings): enough to recognise it.
inline constexpr std::size_t kMaxEchoedBytes = 400;

/// A number as messages show it (shortest form, as an ostream writes it).
std::string formatNumber(double value);

/// The allowed interval of a number; `lowOpen` excludes `low` (e.g. a size must be > 0).
struct Range
{
    double low = -kInf;
    double high = kInf;
    bool lowOpen = false;

    bool contains(double v) const { return (lowOpen ? v > low : v >= low) && v <= high; }
    /// The message's words for the interval: "must be > 0", "must be in [0, 1]".
    std::string describe() const;
};

inline constexpr Range kAny{};
inline constexpr Range kPositive{0.0, kInf, true};
inline constexpr Range kNonNegative{0.0, kInf, false};
inline constexpr Range kUnit{0.0, 1.0, false};

class FieldReader
{
public:
    /// Refuses a value that is not an object, and any key not in `allowed` (an empty list accepts
    /// every key: used to peek at an object's "type" first). `context` names the object in messages.
    FieldReader(const std::string& source,
                const util::JsonValue& value,
                std::string context,
                std::initializer_list<const char*> allowed);

    const std::string& context() const { return mContext; }
    const util::JsonValue& value() const { return mValue; }
    bool has(const char* key) const { return mValue.find(key) != nullptr; }
    const util::JsonValue* find(const char* key) const { return mValue.find(key); }

    const util::JsonValue& require(const char* key) const;

    [[noreturn]] void fail(const util::JsonValue& at, const std::string& what) const { fail(at.position, what); }
    [[noreturn]] void fail(util::JsonPosition at, const std::string& what) const;

    /// "\"key\" in CONTEXT", the name of a field in messages.
    std::string field(const char* key) const { return "\"" + std::string(key) + "\" in " + mContext; }

    void expectKind(const util::JsonValue& v, util::JsonValue::Kind kind, const std::string& what) const;
    double checkedNumber(const util::JsonValue& v, const std::string& what, Range range) const;

    // Optional fields: `fallback` when the key is absent.
    float number(const char* key, float fallback, Range range = kAny) const;
    double number64(const char* key, double fallback, Range range = kAny) const;
    int integer(const char* key, int fallback, Range range) const;
    bool boolean(const char* key, bool fallback) const;
    std::string string(const char* key, const std::string& fallback) const;
    glm::vec3 vec3(const util::JsonValue& v, const std::string& what, Range range) const;
    glm::vec3 vec3(const char* key, glm::vec3 fallback, Range range = kAny) const;
    /// A colour that carries only a hue: non-negative, not black, normalised to luminance 1.
    glm::vec3 hue(const char* key, glm::vec3 fallback) const;

    template <typename Enum>
    Enum choice(const char* key, Enum fallback, std::initializer_list<std::pair<const char*, Enum>> options) const
    {
        const util::JsonValue* v = mValue.find(key);
        if (!v)
            return fallback;
        expectKind(*v, util::JsonValue::Kind::String, field(key));
        std::string list;
        for (const auto& [name, value] : options) {
            if (v->string == name)
                return value;
            list += (list.empty() ? "\"" : ", \"") + std::string(name) + "\"";
        }
        fail(*v, field(key) + " must be one of " + list + ", got \"" + v->string + "\"");
    }

private:
    const std::string& mSource;
    const util::JsonValue& mValue;
    std::string mContext;
};

/// A name from the file in quotes, for contexts (material "stone").
std::string quotedName(const std::string& name);

}  // namespace scene::fields
