// JsonReader.cpp: the recursive-descent JSON reader with positions (see JsonReader.h).
#include "util/JsonReader.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace util {
namespace {

constexpr int kMaxDepth = 64;

class Reader
{
public:
    explicit Reader(std::string_view text) : mText(text) {}

    JsonValue document()
    {
        skipWhitespace();
        JsonValue value = parseValue(0);
        skipWhitespace();
        if (mAt < mText.size())
            fail(substitute("unexpected '{}' after the end of the document", describeCharacter()));
        return value;
    }

private:
    static std::string substitute(std::string_view pattern, const std::string& arg)
    {
        std::string out(pattern);
        std::size_t at = out.find("{}");
        if (at != std::string::npos)
            out.replace(at, 2, arg);
        return out;
    }

    [[noreturn]] void fail(const std::string& what) const { throw JsonSyntaxError(position(), what); }

    JsonPosition position() const { return {mLine, int(mAt - mLineStart) + 1}; }

    std::string describeCharacter() const
    {
        if (mAt >= mText.size())
            return "end of file";
        unsigned char c = static_cast<unsigned char>(mText[mAt]);
        if (c < 0x20 || c >= 0x7f) {
            static const char* kHex = "0123456789abcdef";
            return std::string("\\x") + kHex[c >> 4] + kHex[c & 15];
        }
        return std::string(1, char(c));
    }

    bool atEnd() const { return mAt >= mText.size(); }
    char peek() const { return atEnd() ? '\0' : mText[mAt]; }

    void advance()
    {
        if (mText[mAt] == '\n') {
            ++mLine;
            mLineStart = mAt + 1;
        }
        ++mAt;
    }

    void skipWhitespace()
    {
        while (!atEnd() && (peek() == ' ' || peek() == '\t' || peek() == '\n' || peek() == '\r'))
            advance();
    }

    void expect(char c, const char* context)
    {
        if (peek() != c)
            fail(std::string("expected '") + c + "' " + context + ", got " + quoted());
        advance();
    }

    std::string quoted() const { return atEnd() ? std::string("end of file") : "'" + describeCharacter() + "'"; }

    JsonValue parseValue(int depth)
    {
        if (depth > kMaxDepth)
            fail("nesting deeper than 64 levels");
        JsonValue value;
        value.position = position();
        char c = peek();
        if (c == '{') {
            value.kind = JsonValue::Kind::Object;
            parseObject(value, depth);
        } else if (c == '[') {
            value.kind = JsonValue::Kind::Array;
            parseArray(value, depth);
        } else if (c == '"') {
            value.kind = JsonValue::Kind::String;
            value.string = parseString();
        } else if (c == '-' || (c >= '0' && c <= '9')) {
            value.kind = JsonValue::Kind::Number;
            value.number = parseNumber();
        } else if (matchWord("true")) {
            value.kind = JsonValue::Kind::Bool;
            value.boolean = true;
        } else if (matchWord("false")) {
            value.kind = JsonValue::Kind::Bool;
        } else if (matchWord("null")) {
            value.kind = JsonValue::Kind::Null;
        } else {
            fail("expected a value, got " + quoted());
        }
        return value;
    }

    bool matchWord(std::string_view word)
    {
        if (mText.substr(mAt, word.size()) != word)
            return false;
        std::size_t end = mAt + word.size();
        if (end < mText.size() && std::isalnum(static_cast<unsigned char>(mText[end])))
            return false;
        mAt = end;
        return true;
    }

    void parseObject(JsonValue& object, int depth)
    {
        advance();  // '{'
        skipWhitespace();
        if (peek() == '}') {
            advance();
            return;
        }
        while (true) {
            skipWhitespace();
            if (peek() != '"')
                fail("expected a quoted key in object, got " + quoted());
            JsonMember member;
            member.keyPosition = position();
            member.key = parseString();
            if (object.findMember(member.key) != nullptr)
                throw JsonSyntaxError(member.keyPosition, "duplicate key \"" + member.key + "\"");
            skipWhitespace();
            expect(':', "after an object key");
            skipWhitespace();
            member.value = std::make_unique<JsonValue>(parseValue(depth + 1));
            object.members.push_back(std::move(member));
            skipWhitespace();
            if (peek() == ',') {
                advance();
                continue;
            }
            expect('}', "or ',' in object");
            return;
        }
    }

    void parseArray(JsonValue& array, int depth)
    {
        advance();  // '['
        skipWhitespace();
        if (peek() == ']') {
            advance();
            return;
        }
        while (true) {
            skipWhitespace();
            array.items.push_back(parseValue(depth + 1));
            skipWhitespace();
            if (peek() == ',') {
                advance();
                continue;
            }
            expect(']', "or ',' in array");
            return;
        }
    }

    unsigned parseHex4()
    {
        unsigned code = 0;
        for (int i = 0; i < 4; ++i) {
            char c = peek();
            unsigned digit = 0;
            if (c >= '0' && c <= '9')
                digit = unsigned(c - '0');
            else if (c >= 'a' && c <= 'f')
                digit = unsigned(c - 'a' + 10);
            else if (c >= 'A' && c <= 'F')
                digit = unsigned(c - 'A' + 10);
            else
                fail("bad \\u escape: expected 4 hex digits");
            code = code * 16 + digit;
            advance();
        }
        return code;
    }

    static void appendUtf8(std::string& out, unsigned code)
    {
        if (code < 0x80) {
            out += char(code);
        } else if (code < 0x800) {
            out += char(0xc0 | (code >> 6));
            out += char(0x80 | (code & 0x3f));
        } else if (code < 0x10000) {
            out += char(0xe0 | (code >> 12));
            out += char(0x80 | ((code >> 6) & 0x3f));
            out += char(0x80 | (code & 0x3f));
        } else {
            out += char(0xf0 | (code >> 18));
            out += char(0x80 | ((code >> 12) & 0x3f));
            out += char(0x80 | ((code >> 6) & 0x3f));
            out += char(0x80 | (code & 0x3f));
        }
    }

    std::string parseString()
    {
        advance();  // opening quote
        std::string out;
        while (true) {
            if (atEnd())
                fail("unterminated string");
            char c = peek();
            if (c == '"') {
                advance();
                return out;
            }
            if (static_cast<unsigned char>(c) < 0x20)
                fail("control character in string (line breaks must be written as \\n)");
            if (c != '\\') {
                out += c;
                advance();
                continue;
            }
            advance();
            char escape = peek();
            if (atEnd())
                fail("unterminated string");
            advance();
            switch (escape) {
                case '"':
                    out += '"';
                    break;
                case '\\':
                    out += '\\';
                    break;
                case '/':
                    out += '/';
                    break;
                case 'b':
                    out += '\b';
                    break;
                case 'f':
                    out += '\f';
                    break;
                case 'n':
                    out += '\n';
                    break;
                case 'r':
                    out += '\r';
                    break;
                case 't':
                    out += '\t';
                    break;
                case 'u': {
                    unsigned code = parseHex4();
                    // A UTF-16 surrogate pair encodes one code point above U+FFFF.
                    if (code >= 0xd800 && code < 0xdc00 && mText.substr(mAt, 2) == "\\u") {
                        advance();
                        advance();
                        unsigned low = parseHex4();
                        if (low >= 0xdc00 && low < 0xe000)
                            code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
                    }
                    appendUtf8(out, code);
                    break;
                }
                default:
                    fail(std::string("bad escape '\\") + escape + "' in string");
            }
        }
    }

    double parseNumber()
    {
        std::size_t start = mAt;
        auto digits = [&] {
            std::size_t before = mAt;
            while (!atEnd() && peek() >= '0' && peek() <= '9')
                advance();
            return mAt > before;
        };
        if (peek() == '-')
            advance();
        if (peek() == '0') {
            advance();
            if (peek() >= '0' && peek() <= '9')
                fail("numbers must not have leading zeros");
        } else if (!digits()) {
            fail("expected digits after '-'");
        }
        if (peek() == '.') {
            advance();
            if (!digits())
                fail("expected digits after the decimal point");
        }
        if (peek() == 'e' || peek() == 'E') {
            advance();
            if (peek() == '+' || peek() == '-')
                advance();
            if (!digits())
                fail("expected digits in the exponent");
        }
        std::string token(mText.substr(start, mAt - start));
        errno = 0;
        double value = std::strtod(token.c_str(), nullptr);
        if (errno == ERANGE && std::isinf(value))
            fail("number " + token + " is out of range");
        return value;
    }

    std::string_view mText;
    std::size_t mAt = 0;
    std::size_t mLineStart = 0;
    int mLine = 1;
};

}  // namespace

const JsonMember* JsonValue::findMember(std::string_view key) const
{
    for (const JsonMember& member : members)
        if (member.key == key)
            return &member;
    return nullptr;
}

const JsonValue* JsonValue::find(std::string_view key) const
{
    const JsonMember* member = findMember(key);
    return member ? member->value.get() : nullptr;
}

std::string_view jsonKindName(JsonValue::Kind kind)
{
    switch (kind) {
        case JsonValue::Kind::Null:
            return "null";
        case JsonValue::Kind::Bool:
            return "boolean";
        case JsonValue::Kind::Number:
            return "number";
        case JsonValue::Kind::String:
            return "string";
        case JsonValue::Kind::Array:
            return "array";
        case JsonValue::Kind::Object:
            return "object";
    }
    return "value";
}

JsonValue parseJson(std::string_view text)
{
    return Reader(text).document();
}

}  // namespace util
