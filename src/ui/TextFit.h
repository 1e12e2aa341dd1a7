// TextFit.h: the check behind "no text cut short" and the text wrappers the panels draw with. Dear
// ImGui clips what does not fit (a label at a column's edge, a number left of a plot) without a word,
// so every text item the panels draw goes through a wrapper here that draws it and compares its
// extent with the room it has: the current clip rectangle (the panel's visible width, or a table
// cell's) for items, the plot's rectangle for text drawn into a plot. Items that do not fit are
// remembered, with the panel they are in, until takeTextCutShort(); `--ui` reports them after its
// screenshot and the layout tests expect none.
//   Wrapped text breaks at spaces only (ImGui's TextWrapped may also break after '.' or ',', which
// splits "0.000" into "0." and "000"); a word wider than the line is reported.
//   A panel scope (TextFitPanel) names the panel and is the net for items drawn without a wrapper
// (the methods' own ui(), which live in post/ and cannot see ui/): when anything in the scope reached
// past the panel's right edge, the scope is reported by its name.
// Limits: the text inside a field (a slider's value, a combo's preview) is checked only where a
// wrapper is asked to (checkFieldFits, checkNamesFit); items are checked across, not down (a column
// scrolls down). Checking costs one CalcTextSize per item, so it is always on; at most kMaxRecords
// different items are remembered.
#pragma once

#include <imgui.h>

#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ui {

/// Names the panel the items drawn during its lifetime belong to ("'x' in panel Y"), and reports the
/// whole scope as "<name>: wider than the panel" when an item in it that no wrapper checked reached
/// past the right edge of the panel. Scopes nest (the innermost names the items).
class TextFitPanel
{
public:
    explicit TextFitPanel(std::string name);
    ~TextFitPanel();
    TextFitPanel(const TextFitPanel&) = delete;
    TextFitPanel& operator=(const TextFitPanel&) = delete;

private:
    std::string mName;
    std::string mOuterName;
    float mOuterMaxX = 0.0f;
    std::size_t mRecordsAtStart = 0;
};

/// Remembers `text` as cut short in the current panel (for wrappers drawn by hand).
void recordTextCutShort(std::string_view text);

/// After any item (a widget with its label at its right, a button, a text): reports `text` when the
/// item reaches outside the current clip rectangle across (the panel's visible width, a table cell).
void checkItemFits(std::string_view text);
/// After a field (slider, drag, input) that shows `value` inside its frame: checks the item as
/// checkItemFits(label) does, and that `value` fits the frame (the item less its label).
void checkFieldFits(std::string_view label, std::string_view value);
/// Before a combo (after any SetNextItemWidth): reports each of `names` wider than the combo shows.
void checkComboFits(std::span<const char* const> names);

/// Continues the line after the last item when `width` (the next item's) fits in the room left on it;
/// returns whether it did (else the next item starts a new line).
bool sameLineIfRoom(float width);

/// ImGui::Text and its variants (printf formatting), checked.
void text(const char* format, ...) IM_FMTARGS(1);
void textDisabled(const char* format, ...) IM_FMTARGS(1);
void textColoured(const ImVec4& colour, const char* format, ...) IM_FMTARGS(2);
void textUnformatted(std::string_view text);
/// One line of `text`; where it is wider than the room left, its middle is replaced by "..." (a path,
/// a name without spaces) and the whole text shows on hover. Not reported: nothing is lost.
void textElided(std::string_view text);
/// `text` wrapped at spaces (and at '\n') to the room left on the line; each line checked.
void textWrapped(std::string_view text);
void textWrappedColoured(const ImVec4& colour, std::string_view text);
/// textWrapped in at most `maxLines` lines; where the text needs more, the last line ends in "..." at
/// a word and the whole text shows on hover (a long description that must not push the panel down).
void textWrappedAtMost(std::string_view text, std::size_t maxLines);
/// textWrapped with printf formatting; the greyed variant.
void textWrappedFormat(const char* format, ...) IM_FMTARGS(1);
void textDisabledWrappedFormat(const char* format, ...) IM_FMTARGS(1);

/// Text drawn into a rectangle on a draw list (plot labels, axis numbers): drawn with its top-left at
/// `at`, clipped to [clipMin, clipMax], and reported when it does not lie wholly inside.
void drawTextIn(ImDrawList* draw, ImVec2 at, ImU32 colour, std::string_view text, ImVec2 clipMin, ImVec2 clipMax);

/// `text` split into lines at spaces (and at '\n') so that each line is at most `width` wide by
/// `measure`; never inside a word, so never inside a number. A word wider than `width` gets a line
/// of its own (the only kind of line that can be wider). Spaces at a break are dropped.
std::vector<std::string> wrapAtSpaces(std::string_view text,
                                      float width,
                                      const std::function<float(std::string_view)>& measure);

/// The items found cut short since the last call, as "'text' in panel P", sorted, each once.
std::vector<std::string> takeTextCutShort();
/// takeTextCutShort() as one phrase for the layout report: "no text cut short", or "text cut short:
/// 'a' in panel P, 'b' in panel Q".
std::string describeTextCutShort();

}  // namespace ui
