// XmlCheck.h: a tiny well-formedness check for the SVG files the tests read (hdrlab writes them
// itself, so no XML library is linked): one root element, every tag closed in order, attribute
// values quoted, '&' only in the five predefined entities or numeric references, no '<' in text.
// Also counts elements and reads one attribute of each, so tests can check what was drawn where.
#pragma once

#include <cctype>
#include <string>
#include <vector>

namespace testing_support {

/// "" when `xml` is well-formed (as far as this check goes), else what is wrong and where.
inline std::string xmlProblem(const std::string& xml)
{
    std::vector<std::string> open;
    int roots = 0;
    std::size_t i = 0;
    auto at = [&](std::size_t position) { return " at byte " + std::to_string(position); };
    if (xml.rfind("<?xml", 0) == 0) {
        i = xml.find("?>");
        if (i == std::string::npos)
            return "unterminated XML declaration";
        i += 2;
    }
    while (i < xml.size()) {
        const char c = xml[i];
        if (c == '&') {
            const std::size_t end = xml.find(';', i);
            if (end == std::string::npos)
                return "unterminated entity" + at(i);
            const std::string entity = xml.substr(i + 1, end - i - 1);
            if (entity != "amp" && entity != "lt" && entity != "gt" && entity != "quot" && entity != "apos" &&
                !(entity.size() > 1 && entity[0] == '#'))
                return "unknown entity &" + entity + ";" + at(i);
            i = end + 1;
            continue;
        }
        if (c == '>')
            return "stray '>'" + at(i);
        if (c != '<') {
            if (open.empty() && !std::isspace(static_cast<unsigned char>(c)))
                return "text outside the root element" + at(i);
            ++i;
            continue;
        }
        const bool closing = i + 1 < xml.size() && xml[i + 1] == '/';
        std::size_t j = i + (closing ? 2 : 1);
        std::string name;
        while (j < xml.size() && (std::isalnum(static_cast<unsigned char>(xml[j])) || xml[j] == '-' || xml[j] == ':'))
            name += xml[j++];
        if (name.empty())
            return "tag without a name" + at(i);
        if (closing) {
            if (open.empty() || open.back() != name)
                return "</" + name + "> does not close " + (open.empty() ? "anything" : "<" + open.back() + ">") +
                       at(i);
            open.pop_back();
            j = xml.find('>', j);
            if (j == std::string::npos)
                return "unterminated closing tag" + at(i);
            i = j + 1;
            continue;
        }
        // Attributes: name="value" (or 'value'); values must not hold '<'.
        bool selfClosing = false;
        while (true) {
            while (j < xml.size() && std::isspace(static_cast<unsigned char>(xml[j])))
                ++j;
            if (j >= xml.size())
                return "unterminated tag <" + name + ">" + at(i);
            if (xml[j] == '>')
                break;
            if (xml[j] == '/' && j + 1 < xml.size() && xml[j + 1] == '>') {
                selfClosing = true;
                ++j;
                break;
            }
            std::size_t attributeStart = j;
            while (j < xml.size() && xml[j] != '=' && !std::isspace(static_cast<unsigned char>(xml[j])) &&
                   xml[j] != '>')
                ++j;
            if (j == attributeStart || j >= xml.size() || xml[j] != '=')
                return "attribute without a value in <" + name + ">" + at(j);
            ++j;
            if (j >= xml.size() || (xml[j] != '"' && xml[j] != '\''))
                return "unquoted attribute value in <" + name + ">" + at(j);
            const char quote = xml[j];
            const std::size_t end = xml.find(quote, j + 1);
            if (end == std::string::npos)
                return "unterminated attribute value in <" + name + ">" + at(j);
            if (xml.substr(j + 1, end - j - 1).find('<') != std::string::npos)
                return "'<' in an attribute value of <" + name + ">" + at(j);
            j = end + 1;
        }
        if (open.empty() && ++roots > 1)
            return "a second root element <" + name + ">" + at(i);
        if (!selfClosing)
            open.push_back(name);
        i = j + 1;
    }
    if (!open.empty())
        return "<" + open.back() + "> is never closed";
    if (roots != 1)
        return "no root element";
    return "";
}

/// How many <name ...> elements `xml` has.
inline std::size_t countElements(const std::string& xml, const std::string& name)
{
    std::size_t count = 0;
    for (std::size_t at = xml.find("<" + name); at != std::string::npos; at = xml.find("<" + name, at + 1)) {
        const char next = at + 1 + name.size() < xml.size() ? xml[at + 1 + name.size()] : '\0';
        if (next == ' ' || next == '>' || next == '/')
            ++count;
    }
    return count;
}

/// The value of `attribute` in each <name ...> element that has it, in document order.
inline std::vector<std::string> attributeValues(const std::string& xml,
                                                const std::string& name,
                                                const std::string& attribute)
{
    std::vector<std::string> values;
    for (std::size_t at = xml.find("<" + name + " "); at != std::string::npos;
         at = xml.find("<" + name + " ", at + 1)) {
        const std::size_t end = xml.find('>', at);
        const std::string tag = xml.substr(at, end - at);
        const std::size_t key = tag.find(" " + attribute + "=\"");
        if (key == std::string::npos)
            continue;
        const std::size_t start = key + attribute.size() + 3;
        values.push_back(tag.substr(start, tag.find('"', start) - start));
    }
    return values;
}

}  // namespace testing_support
