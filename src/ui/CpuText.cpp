#include "ui/CpuText.h"

#include <imgui.h>
#include <imgui_internal.h>  // ImTextCharFromUtf8

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>

namespace ui {
namespace {

/// ImGui's default font, rasterised once into an alpha atlas (no ImGui context needed).
class BuiltInFont
{
public:
    BuiltInFont()
    {
        mFont = mAtlas.AddFontDefault();
        unsigned char* pixels = nullptr;
        mAtlas.GetTexDataAsAlpha8(&pixels, &mWidth, &mHeight);
        if (!mFont || !pixels || mWidth <= 0 || mHeight <= 0)
            throw std::runtime_error("ImGui's built-in font could not be rasterised");
        mCoverage = pixels;
    }

    const ImFont& font() const { return *mFont; }
    /// Coverage 0..255 of atlas texel (x, y); 0 outside.
    int coverage(int x, int y) const
    {
        if (x < 0 || y < 0 || x >= mWidth || y >= mHeight)
            return 0;
        return mCoverage[std::size_t(y) * std::size_t(mWidth) + std::size_t(x)];
    }
    int width() const { return mWidth; }
    int height() const { return mHeight; }

private:
    ImFontAtlas mAtlas;
    ImFont* mFont = nullptr;
    const unsigned char* mCoverage = nullptr;
    int mWidth = 0;
    int mHeight = 0;
};

const BuiltInFont& builtInFont()
{
    static const BuiltInFont font;
    return font;
}

/// Calls `visit(glyph, penX)` for each character of one line, penX in unscaled pixels from the start.
template <typename Visit>
float forEachGlyph(std::string_view text, Visit&& visit)
{
    const ImFont& font = builtInFont().font();
    float pen = 0.0f;
    const char* at = text.data();
    const char* end = text.data() + text.size();
    while (at < end) {
        unsigned int codepoint = 0;
        const int used = ImTextCharFromUtf8(&codepoint, at, end);
        at += used > 0 ? used : 1;
        if (codepoint == '\n' || codepoint == '\r')
            continue;
        const ImFontGlyph* glyph = font.FindGlyph(ImWchar(codepoint));
        if (!glyph)
            continue;
        visit(*glyph, pen);
        pen += glyph->AdvanceX;
    }
    return pen;
}

std::uint8_t blend(std::uint8_t under, std::uint8_t over, int alpha)
{
    return std::uint8_t((int(under) * (255 - alpha) + int(over) * alpha + 127) / 255);
}

}  // namespace

int textLineHeight(int scale)
{
    return int(std::lround(builtInFont().font().FontSize)) * std::max(1, scale);
}

int textWidth(std::string_view text, int scale)
{
    return int(std::lround(forEachGlyph(text, [](const ImFontGlyph&, float) {}))) * std::max(1, scale);
}

int drawText(image::Image8& canvas, int x, int y, std::string_view text, Rgb8 colour, int scale)
{
    scale = std::max(1, scale);
    if (canvas.channels < 3)
        throw std::invalid_argument("drawText needs an RGB or RGBA image");
    const BuiltInFont& atlas = builtInFont();
    const float advance = forEachGlyph(text, [&](const ImFontGlyph& glyph, float pen) {
        if (!glyph.Visible)
            return;
        // The default font is pixel-snapped and not oversampled: one atlas texel per glyph pixel.
        const int u0 = int(std::lround(glyph.U0 * float(atlas.width())));
        const int v0 = int(std::lround(glyph.V0 * float(atlas.height())));
        const int glyphWidth = int(std::lround((glyph.U1 - glyph.U0) * float(atlas.width())));
        const int glyphHeight = int(std::lround((glyph.V1 - glyph.V0) * float(atlas.height())));
        const int left = x + int(std::lround(pen + glyph.X0)) * scale;
        const int top = y + int(std::lround(glyph.Y0)) * scale;
        for (int gy = 0; gy < glyphHeight * scale; ++gy)
            for (int gx = 0; gx < glyphWidth * scale; ++gx) {
                const int px = left + gx;
                const int py = top + gy;
                if (px < 0 || py < 0 || px >= canvas.width || py >= canvas.height)
                    continue;
                const int alpha = atlas.coverage(u0 + gx / scale, v0 + gy / scale);
                if (alpha == 0)
                    continue;
                std::uint8_t* pixel = canvas.at(px, py);
                for (int c = 0; c < 3; ++c)
                    pixel[c] = blend(pixel[c], colour[std::size_t(c)], alpha);
            }
    });
    return x + int(std::lround(advance)) * scale;
}

}  // namespace ui
