// SceneFieldReader.cpp: checked reading of a scene file's JSON objects (see SceneFieldReader.h).
#include "scene/SceneFieldReader.h"

#include "util/PrintableText.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace scene::fields {

std::string formatNumber(double value)
{
    std::ostringstream out;
    out << value;
    return out.str();
}

std::string Range::describe() const
{
    if (high == kInf)
        return std::string("must be ") + (lowOpen ? "> " : ">= ") + formatNumber(low);
    return "must be in " + std::string(lowOpen ? "(" : "[") + formatNumber(low) + ", " + formatNumber(high) + "]";
}

FieldReader::FieldReader(const std::string& source,
                         const util::JsonValue& value,
                         std::string context,
                         std::initializer_list<const char*> allowed)
    : mSource(source), mValue(value), mContext(std::move(context))
{
    if (value.kind != util::JsonValue::Kind::Object)
        fail(value, mContext + " must be an object, got " + std::string(util::jsonKindName(value.kind)));
    // An empty list accepts every key (used to peek at an object's "type" first).
    for (const util::JsonMember& member : value.members) {
        if (allowed.size() == 0)
            break;
        bool known = std::any_of(allowed.begin(), allowed.end(), [&](const char* k) { return member.key == k; });
        if (!known) {
            std::string list;
            for (const char* k : allowed)
                list += (list.empty() ? "" : ", ") + std::string(k);
            fail(member.keyPosition,
                 "unknown field \"" + member.key + "\" in " + mContext + " (expected one of: " + list + ")");
        }
    }
}

const util::JsonValue& FieldReader::require(const char* key) const
{
    const util::JsonValue* v = mValue.find(key);
    if (!v)
        fail(mValue, mContext + " is missing required field \"" + key + "\"");
    return *v;
}

void FieldReader::fail(util::JsonPosition at, const std::string& what) const
{
    throw SceneError(util::escapeControlCharacters(mSource) + ":" + std::to_string(at.line) + ": " +
                     util::escapeControlCharacters(what, false, kMaxEchoedBytes));
}

void FieldReader::expectKind(const util::JsonValue& v, util::JsonValue::Kind kind, const std::string& what) const
{
    if (v.kind != kind)
        fail(v, what + " must be a" +
                    (kind == util::JsonValue::Kind::Array || kind == util::JsonValue::Kind::Object ? "n " : " ") +
                    std::string(util::jsonKindName(kind)) + ", got " + std::string(util::jsonKindName(v.kind)));
}

double FieldReader::checkedNumber(const util::JsonValue& v, const std::string& what, Range range) const
{
    expectKind(v, util::JsonValue::Kind::Number, what);
    if (!std::isfinite(v.number) || !range.contains(v.number))
        fail(v, what + " " + range.describe() + ", got " + formatNumber(v.number));
    if (std::abs(v.number) > double(std::numeric_limits<float>::max()))
        fail(v, what + " is too large for a float, got " + formatNumber(v.number));
    return v.number;
}

float FieldReader::number(const char* key, float fallback, Range range) const
{
    const util::JsonValue* v = mValue.find(key);
    return v ? float(checkedNumber(*v, field(key), range)) : fallback;
}

double FieldReader::number64(const char* key, double fallback, Range range) const
{
    const util::JsonValue* v = mValue.find(key);
    return v ? checkedNumber(*v, field(key), range) : fallback;
}

int FieldReader::integer(const char* key, int fallback, Range range) const
{
    const util::JsonValue* v = mValue.find(key);
    if (!v)
        return fallback;
    double d = checkedNumber(*v, field(key), range);
    if (d != std::floor(d))
        fail(*v, field(key) + " must be a whole number, got " + formatNumber(d));
    return int(d);
}

bool FieldReader::boolean(const char* key, bool fallback) const
{
    const util::JsonValue* v = mValue.find(key);
    if (!v)
        return fallback;
    expectKind(*v, util::JsonValue::Kind::Bool, field(key));
    return v->boolean;
}

std::string FieldReader::string(const char* key, const std::string& fallback) const
{
    const util::JsonValue* v = mValue.find(key);
    if (!v)
        return fallback;
    expectKind(*v, util::JsonValue::Kind::String, field(key));
    return v->string;
}

glm::vec3 FieldReader::vec3(const util::JsonValue& v, const std::string& what, Range range) const
{
    expectKind(v, util::JsonValue::Kind::Array, what);
    if (v.items.size() != 3)
        fail(v, what + " must be an array of 3 numbers, got " + std::to_string(v.items.size()) + " elements");
    glm::vec3 out;
    for (int i = 0; i < 3; ++i)
        out[i] = float(checkedNumber(v.items[std::size_t(i)], what + "[" + std::to_string(i) + "]", range));
    return out;
}

glm::vec3 FieldReader::vec3(const char* key, glm::vec3 fallback, Range range) const
{
    const util::JsonValue* v = mValue.find(key);
    return v ? vec3(*v, field(key), range) : fallback;
}

glm::vec3 FieldReader::hue(const char* key, glm::vec3 fallback) const
{
    const util::JsonValue* v = mValue.find(key);
    glm::vec3 c = v ? vec3(*v, field(key), kNonNegative) : fallback;
    float luminance = 0.2126f * c.x + 0.7152f * c.y + 0.0722f * c.z;
    if (luminance <= 0.0f)
        fail(v ? *v : mValue, field(key) + " must not be black (it is normalised to luminance 1)");
    return c / luminance;
}

std::string quotedName(const std::string& name)
{
    return "\"" + name + "\"";
}

}  // namespace scene::fields
