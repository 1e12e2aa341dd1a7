#include "ui/TextFit.h"

#include "ui/PanelLayout.h"

#include <imgui_internal.h>  // the current window's clip rectangle and the cursor's reach (DC.CursorMaxPos)

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <set>
#include <utility>

namespace ui {
namespace {

/// Text may touch the clip rectangle: ImGui's sizes are fractional, its clipping is on whole pixels.
constexpr float kTolerance = 1.0f;
/// A panel whose numbers change every frame can be cut short with a new text each frame: keep a few.
constexpr std::size_t kMaxRecords = 64;

struct Records
{
    std::set<std::string> items;
    std::string panel;        ///< the innermost TextFitPanel's name; empty: none
    std::uint64_t count = 0;  ///< records made, duplicates included (a scope's "did an item report?")
};

Records& records()
{
    static Records r;
    return r;
}

/// `label` as ImGui shows it: up to a "##".
std::string_view visibleLabel(std::string_view label)
{
    const std::size_t hidden = label.find("##");
    return hidden == std::string_view::npos ? label : label.substr(0, hidden);
}

float textWidth(std::string_view text)
{
    return ImGui::CalcTextSize(text.data(), text.data() + text.size()).x;
}

std::string formatV(const char* format, va_list args)
{
    va_list copy;
    va_copy(copy, args);
    char buffer[512];
    const int length = std::vsnprintf(buffer, sizeof buffer, format, copy);
    va_end(copy);
    if (length < 0)
        return {};
    if (std::size_t(length) < sizeof buffer)
        return std::string(buffer, std::size_t(length));
    std::string text(std::size_t(length) + 1, '\0');
    std::vsnprintf(text.data(), text.size(), format, args);
    text.resize(std::size_t(length));
    return text;
}

void drawChecked(std::string_view text)
{
    ImGui::TextUnformatted(text.data(), text.data() + text.size());
    checkItemFits(text);
}

}  // namespace

TextFitPanel::TextFitPanel(std::string name) : mName(std::move(name))
{
    Records& r = records();
    mOuterName = std::exchange(r.panel, mName);
    mRecordsAtStart = r.count;
    if (ImGuiWindow* window = ImGui::GetCurrentContext() ? ImGui::GetCurrentWindow() : nullptr) {
        // The cursor's reach restarts at the left edge, so that at the end it is this scope's reach.
        mOuterMaxX = window->DC.CursorMaxPos.x;
        window->DC.CursorMaxPos.x = window->DC.CursorPos.x;
    }
}

TextFitPanel::~TextFitPanel()
{
    Records& r = records();
    if (ImGuiWindow* window = ImGui::GetCurrentContext() ? ImGui::GetCurrentWindow() : nullptr) {
        const float reach = window->DC.CursorMaxPos.x;
        const float overflow = reach - window->InnerClipRect.Max.x;
        // Only when no item of the scope reported itself (that report names the item).
        if (overflow > kTolerance && r.count == mRecordsAtStart && !window->SkipItems)
            recordTextCutShort("(an item " + std::to_string(int(std::ceil(overflow))) + " px too wide)");
        window->DC.CursorMaxPos.x = std::max(mOuterMaxX, reach);
    }
    r.panel = mOuterName;
}

void recordTextCutShort(std::string_view text)
{
    Records& r = records();
    ++r.count;
    // A window's first frame, and a table's, lay out before they know their sizes (ImGui fits them
    // on the next frame): what they clip then is not shown for long.
    const ImGuiContext* context = ImGui::GetCurrentContext();
    const bool settling =
        context && context->CurrentWindow &&
        (ImGui::IsWindowAppearing() || (context->CurrentTable && context->CurrentTable->IsInitializing));
    if (settling || r.items.size() >= kMaxRecords)
        return;
    std::string item = "'" + std::string(text) + "'";
    if (!r.panel.empty())
        item += " in panel " + r.panel;
    r.items.insert(std::move(item));
}

void checkItemFits(std::string_view text)
{
    const ImGuiWindow* window = ImGui::GetCurrentWindow();
    if (window->SkipItems)
        return;
    const ImVec2 min = ImGui::GetItemRectMin();
    const ImVec2 max = ImGui::GetItemRectMax();
    if (max.x > window->ClipRect.Max.x + kTolerance || min.x < window->ClipRect.Min.x - kTolerance)
        recordTextCutShort(visibleLabel(text));
}

void checkFieldFits(std::string_view label, std::string_view value)
{
    checkItemFits(label);
    const ImGuiStyle& style = ImGui::GetStyle();
    const float labelWidth = textWidth(visibleLabel(label));
    const float frame = ImGui::GetItemRectSize().x - (labelWidth > 0.0f ? style.ItemInnerSpacing.x + labelWidth : 0.0f);
    if (textWidth(value) + 2.0f * style.FramePadding.x > frame + kTolerance)
        recordTextCutShort(std::string(value) + " (in " + std::string(visibleLabel(label)) + ")");
}

void checkComboFits(std::span<const char* const> names)
{
    const float width = ImGui::CalcItemWidth();
    for (const char* name : names)
        if (comboWidthFor(name) > width + kTolerance)
            recordTextCutShort(name);
}

bool sameLineIfRoom(float width)
{
    const float spacing = ImGui::GetStyle().ItemSpacing.x;
    const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    if (right - ImGui::GetItemRectMax().x < spacing + width)
        return false;
    ImGui::SameLine();
    return true;
}

void text(const char* format, ...)
{
    va_list args;
    va_start(args, format);
    const std::string line = formatV(format, args);
    va_end(args);
    drawChecked(line);
}

void textDisabled(const char* format, ...)
{
    va_list args;
    va_start(args, format);
    const std::string line = formatV(format, args);
    va_end(args);
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
    drawChecked(line);
    ImGui::PopStyleColor();
}

void textColoured(const ImVec4& colour, const char* format, ...)
{
    va_list args;
    va_start(args, format);
    const std::string line = formatV(format, args);
    va_end(args);
    ImGui::PushStyleColor(ImGuiCol_Text, colour);
    drawChecked(line);
    ImGui::PopStyleColor();
}

void textUnformatted(std::string_view text)
{
    drawChecked(text);
}

void textElided(std::string_view text)
{
    const float room = ImGui::GetContentRegionAvail().x;
    if (textWidth(text) <= room) {
        drawChecked(text);
        return;
    }
    // Keep the ends (a path's folder and file name), drop characters from the middle until it fits.
    std::size_t keep = text.size();
    std::string shown;
    do {
        --keep;
        shown = std::string(text.substr(0, keep - keep / 2)) + "..." + std::string(text.substr(text.size() - keep / 2));
    } while (keep > 0 && textWidth(shown) > room);
    drawChecked(shown);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%.*s", int(text.size()), text.data());
}

void textWrapped(std::string_view text)
{
    const float width = std::max(1.0f, ImGui::GetContentRegionAvail().x);
    for (const std::string& line : wrapAtSpaces(text, width, textWidth))
        drawChecked(line);
}

void textWrappedAtMost(std::string_view text, std::size_t maxLines)
{
    const float width = std::max(1.0f, ImGui::GetContentRegionAvail().x);
    std::vector<std::string> lines = wrapAtSpaces(text, width, textWidth);
    if (lines.size() <= maxLines || maxLines == 0) {
        for (const std::string& line : lines)
            drawChecked(line);
        return;
    }
    lines.resize(maxLines);
    std::string& last = lines.back();
    while (!last.empty() && textWidth(last + " ...") > width) {
        const std::size_t space = last.rfind(' ');
        last.resize(space == std::string::npos ? 0 : space);
    }
    last += last.empty() ? "..." : " ...";
    ImGui::BeginGroup();
    for (const std::string& line : lines)
        drawChecked(line);
    ImGui::EndGroup();
    if (ImGui::IsItemHovered()) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 35.0f);
        ImGui::TextUnformatted(text.data(), text.data() + text.size());
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
    }
}

void textWrappedColoured(const ImVec4& colour, std::string_view text)
{
    ImGui::PushStyleColor(ImGuiCol_Text, colour);
    textWrapped(text);
    ImGui::PopStyleColor();
}

void textWrappedFormat(const char* format, ...)
{
    va_list args;
    va_start(args, format);
    const std::string line = formatV(format, args);
    va_end(args);
    textWrapped(line);
}

void textDisabledWrappedFormat(const char* format, ...)
{
    va_list args;
    va_start(args, format);
    const std::string line = formatV(format, args);
    va_end(args);
    textWrappedColoured(ImGui::GetStyle().Colors[ImGuiCol_TextDisabled], line);
}

void drawTextIn(ImDrawList* draw, ImVec2 at, ImU32 colour, std::string_view text, ImVec2 clipMin, ImVec2 clipMax)
{
    const ImVec2 size = ImGui::CalcTextSize(text.data(), text.data() + text.size());
    const ImVec4 clip(clipMin.x, clipMin.y, clipMax.x, clipMax.y);
    draw->AddText(nullptr, 0.0f, at, colour, text.data(), text.data() + text.size(), 0.0f, &clip);
    const ImVec2 shown = draw->GetClipRectMax();  // the window's (or cell's) clip rectangle
    const ImVec2 shownMin = draw->GetClipRectMin();
    const float right = std::min(clipMax.x, shown.x);
    const float left = std::max(clipMin.x, shownMin.x);
    if (at.x < left - kTolerance || at.x + size.x > right + kTolerance || at.y < clipMin.y - kTolerance ||
        at.y + size.y > clipMax.y + kTolerance)
        recordTextCutShort(text);
}

std::vector<std::string> wrapAtSpaces(std::string_view text,
                                      float width,
                                      const std::function<float(std::string_view)>& measure)
{
    std::vector<std::string> lines;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t newline = std::min(text.find('\n', start), text.size());
        const std::string_view paragraph = text.substr(start, newline - start);
        std::string line;
        std::size_t at = 0;
        while (at < paragraph.size()) {
            if (paragraph[at] == ' ') {
                ++at;
                continue;
            }
            const std::size_t end = std::min(paragraph.find(' ', at), paragraph.size());
            const std::string_view word = paragraph.substr(at, end - at);
            std::string candidate = line.empty() ? std::string(word) : line + " " + std::string(word);
            if (line.empty() || measure(candidate) <= width) {
                line = std::move(candidate);
            } else {
                lines.push_back(std::move(line));
                line = std::string(word);
            }
            at = end;
        }
        lines.push_back(std::move(line));
        start = newline + 1;
    }
    return lines;
}

std::vector<std::string> takeTextCutShort()
{
    Records& r = records();
    std::vector<std::string> items(r.items.begin(), r.items.end());
    r.items.clear();
    return items;
}

std::string describeTextCutShort()
{
    const std::vector<std::string> items = takeTextCutShort();
    if (items.empty())
        return "no text cut short";
    std::string text = "text cut short:";
    for (std::size_t i = 0; i < items.size(); ++i)
        text += (i ? ", " : " ") + items[i];
    return text;
}

}  // namespace ui
