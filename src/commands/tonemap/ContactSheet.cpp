#include "commands/tonemap/ContactSheet.h"

#include "image/ImageIo.h"
#include "reference/Image.h"
#include "shared/HostDevice.h"
#include "ui/CpuText.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace app {
namespace {

using Rgb = std::array<std::uint8_t, 3>;

// The app's histogram view colours (ui/HistogramView.cpp), and the sheet around them.
constexpr Rgb kSheetColour{32, 32, 38};
constexpr Rgb kPlotColour{20, 20, 24};
constexpr Rgb kAxisColour{140, 140, 140};
constexpr Rgb kHistogramColour{220, 50, 50};
constexpr Rgb kThumbnailHistogramColour{105, 40, 40};  // the histogram dimmed under a thumbnail's curve
constexpr Rgb kTextColour{235, 235, 235};
constexpr Rgb kDimTextColour{165, 165, 170};

constexpr int kMargin = 16;
constexpr int kGap = 16;
constexpr int kCaptionGap = 6;  // picture to caption
constexpr int kThumbnailWidth = 112;
constexpr int kThumbnailHeight = 45;
constexpr int kSwatch = 9;
constexpr int kCaptionLine = 16;  // caption line pitch: the 13-pixel font and 3 pixels of leading
constexpr int kPlotHeight = 200;

int lineHeight()
{
    return ui::textLineHeight();
}

void fillRect(image::Image8& canvas, SheetRect r, Rgb colour)
{
    const int x0 = std::max(0, r.x), y0 = std::max(0, r.y);
    const int x1 = std::min(canvas.width, r.x + r.width), y1 = std::min(canvas.height, r.y + r.height);
    for (int y = y0; y < y1; ++y)
        for (int x = x0; x < x1; ++x)
            std::copy(colour.begin(), colour.end(), canvas.at(x, y));
}

void strokeRect(image::Image8& canvas, SheetRect r, Rgb colour)
{
    fillRect(canvas, {r.x, r.y, r.width, 1}, colour);
    fillRect(canvas, {r.x, r.y + r.height - 1, r.width, 1}, colour);
    fillRect(canvas, {r.x, r.y, 1, r.height}, colour);
    fillRect(canvas, {r.x + r.width - 1, r.y, 1, r.height}, colour);
}

void blit(image::Image8& canvas, const image::Image8& picture, int left, int top)
{
    if (picture.channels != 3)
        throw std::invalid_argument("contact sheet: a tile's picture must be RGB");
    for (int y = 0; y < picture.height; ++y)
        for (int x = 0; x < picture.width; ++x)
            if (left + x >= 0 && top + y >= 0 && left + x < canvas.width && top + y < canvas.height)
                std::copy_n(picture.at(x, y), 3, canvas.at(left + x, top + y));
}

/// `text` cut to at most `width` pixels, ending in "..." when cut.
std::string fitText(const std::string& text, int width)
{
    if (ui::textWidth(text) <= width)
        return text;
    std::string cut = text;
    while (!cut.empty() && ui::textWidth(cut + "...") > width)
        cut.pop_back();
    return cut.empty() ? std::string() : cut + "...";
}

/// The curve's channels (1, or 3 for per-channel curves; a linear-scale curve has one).
int curveChannels(const std::vector<float>& curve)
{
    if (curve.size() < hd::kCurveBufferWords || curve[hd::kCurveMode] == hd::kCurveModeLinearScale)
        return 1;
    return int(curve[hd::kCurveChannels]) == 3 ? 3 : 1;
}

/// Red bars of the histogram, peak-normalised, filling `plot`.
void drawHistogramBars(image::Image8& canvas, SheetRect plot, const SheetHistogram& histogram, Rgb colour)
{
    std::uint32_t peak = 1;
    for (std::uint32_t count : histogram.bins)
        peak = std::max(peak, count);
    const std::size_t n = histogram.bins.size();
    for (std::size_t i = 0; i < n; ++i) {
        if (histogram.bins[i] == 0)
            continue;
        const int x0 = plot.x + int(std::size_t(plot.width) * i / n);
        const int x1 = std::max(x0 + 1, plot.x + int(std::size_t(plot.width) * (i + 1) / n));
        const int height =
            std::max(1, int(std::lround(double(histogram.bins[i]) / double(peak) * double(plot.height))));
        fillRect(canvas, {x0, plot.y + plot.height - height, x1 - x0, height}, colour);
    }
}

/// The curve over the plot's log2 luminance axis [logMin, logMax], display 0..1 bottom to top: one
/// point per pixel column, neighbours joined by vertical runs `thickness` pixels wide.
void drawCurve(image::Image8& canvas,
               SheetRect plot,
               float logMin,
               float logMax,
               const std::vector<float>& curve,
               Rgb colour,
               int thickness)
{
    if (curve.size() < hd::kCurveBufferWords || plot.width < 2 || plot.height < 2)
        return;
    for (int channel = 0; channel < curveChannels(curve); ++channel) {
        int previousY = 0;
        for (int column = 0; column < plot.width; ++column) {
            const double logL = logMin + (column + 0.5) * (double(logMax) - logMin) / plot.width;
            const double display = std::clamp(ref::evaluateCurve(curve.data(), channel, std::exp2(logL)), 0.0, 1.0);
            const int y = plot.y + plot.height - 1 - int(std::lround(display * (plot.height - 1)));
            const int from = column == 0 ? y : std::min(y, previousY);
            const int to = column == 0 ? y : std::max(y, previousY);
            const int half = (thickness - 1) / 2;
            fillRect(canvas, {plot.x + column - half, from - half, thickness, to - from + thickness}, colour);
            previousY = y;
        }
    }
}

/// Axis ticks every 1, 2, 5 or 10 EV (as the app's histogram view), labelled under the plot.
void drawAxis(image::Image8& canvas, SheetRect plot, float logMin, float logMax)
{
    const float span = logMax - logMin;
    if (!(span > 0.0f))
        return;
    const float step = span <= 12 ? 1.0f : span <= 24 ? 2.0f : span <= 60 ? 5.0f : 10.0f;
    int lastLabelEnd = plot.x - kGap;
    for (float tick = std::ceil(logMin / step) * step; tick <= logMax; tick += step) {
        const int x = plot.x + int(std::lround((tick - logMin) / span * float(plot.width - 1)));
        fillRect(canvas, {x, plot.y + plot.height, 1, 4}, kAxisColour);
        char label[16];
        std::snprintf(label, sizeof label, "%g", double(tick));
        const int width = ui::textWidth(label);
        const int left = std::clamp(x - width / 2, plot.x, plot.x + plot.width - width);
        if (left < lastLabelEnd + 6)
            continue;
        ui::drawText(canvas, left, plot.y + plot.height + 5, label, kAxisColour);
        lastLabelEnd = left + width;
    }
}

void drawTile(image::Image8& canvas,
              const SheetTile& tile,
              const SheetTileLayout& at,
              const SheetHistogram& histogram,
              Rgb colour)
{
    blit(canvas, tile.picture, at.picture.x, at.picture.y);
    const int textLeft = at.caption.x + kSwatch + 6;
    const int textWidth = at.caption.x + at.caption.width - textLeft;
    fillRect(canvas, {at.caption.x, at.caption.y + 2, kSwatch, kSwatch}, colour);
    ui::drawText(canvas, textLeft, at.caption.y, fitText(tile.name, textWidth), kTextColour);
    ui::drawText(canvas, textLeft, at.caption.y + kCaptionLine, fitText(tile.description, textWidth), kDimTextColour);
    ui::drawText(canvas, textLeft, at.caption.y + 2 * kCaptionLine, fitText(tile.keyValue, textWidth), kTextColour);

    const SheetRect& thumb = at.thumbnail;
    fillRect(canvas, thumb, kPlotColour);
    const SheetRect inside{thumb.x + 1, thumb.y + 1, thumb.width - 2, thumb.height - 2};
    drawHistogramBars(canvas, inside, histogram, kThumbnailHistogramColour);
    drawCurve(canvas, inside, histogram.logMin, histogram.logMax, tile.curve, colour, 1);
    strokeRect(canvas, thumb, kAxisColour);
}

void drawHistogramPanel(image::Image8& canvas, const ContactSheetContent& content, SheetRect panel)
{
    ui::drawText(canvas, panel.x, panel.y, fitText(content.histogramTitle, panel.width), kTextColour);
    const SheetRect plot{panel.x, panel.y + lineHeight() + 6, panel.width, kPlotHeight};
    fillRect(canvas, plot, kPlotColour);
    const SheetRect inside{plot.x + 1, plot.y + 1, plot.width - 2, plot.height - 2};
    drawHistogramBars(canvas, inside, content.histogram, kHistogramColour);
    for (std::size_t i = 0; i < content.tiles.size(); ++i)
        drawCurve(canvas, inside, content.histogram.logMin, content.histogram.logMax, content.tiles[i].curve,
                  sheetCurveColour(i), 2);
    strokeRect(canvas, plot, kAxisColour);
    drawAxis(canvas, plot, content.histogram.logMin, content.histogram.logMax);

    // The legend: a swatch and the name of each curve, in a box at the plot's top left.
    int legendWidth = 0;
    for (const SheetTile& tile : content.tiles)
        legendWidth = std::max(legendWidth, ui::textWidth(tile.name));
    legendWidth += kSwatch + 6 + 12;
    const int rowHeight = lineHeight() + 2;
    const SheetRect legend{plot.x + 8, plot.y + 8, legendWidth, int(content.tiles.size()) * rowHeight + 8};
    fillRect(canvas, legend, kPlotColour);
    strokeRect(canvas, legend, kAxisColour);
    for (std::size_t i = 0; i < content.tiles.size(); ++i) {
        const int y = legend.y + 4 + int(i) * rowHeight;
        fillRect(canvas, {legend.x + 6, y + 2, kSwatch, kSwatch}, sheetCurveColour(i));
        ui::drawText(canvas, legend.x + 6 + kSwatch + 6, y, content.tiles[i].name, kTextColour);
    }
}

}  // namespace

ContactSheetLayout layOutContactSheet(std::size_t tileCount, int pictureWidth, int pictureHeight)
{
    if (tileCount == 0 || pictureWidth < 1 || pictureHeight < 1)
        throw std::invalid_argument("contact sheet: no tiles, or an empty picture");
    ContactSheetLayout layout;
    layout.columns = 1;
    while (std::size_t(layout.columns) * std::size_t(layout.columns) < tileCount)
        ++layout.columns;
    const int rows = int((tileCount + std::size_t(layout.columns) - 1) / std::size_t(layout.columns));
    const int contentWidth = layout.columns * pictureWidth + (layout.columns - 1) * kGap;
    const int captionHeight = std::max(2 * kCaptionLine + lineHeight(), kThumbnailHeight);
    const int tileHeight = pictureHeight + kCaptionGap + captionHeight;
    const int thumbnailWidth = std::min(kThumbnailWidth, pictureWidth / 4);

    layout.header = {kMargin, kMargin, contentWidth, 2 * lineHeight() + 4};
    const int gridTop = layout.header.y + layout.header.height + kGap;
    for (std::size_t i = 0; i < tileCount; ++i) {
        const int column = int(i % std::size_t(layout.columns));
        const int row = int(i / std::size_t(layout.columns));
        SheetTileLayout tile;
        tile.picture = {kMargin + column * (pictureWidth + kGap), gridTop + row * (tileHeight + kGap), pictureWidth,
                        pictureHeight};
        const int captionTop = tile.picture.y + pictureHeight + kCaptionGap;
        tile.thumbnail = {tile.picture.x + pictureWidth - thumbnailWidth, captionTop, thumbnailWidth, kThumbnailHeight};
        tile.caption = {tile.picture.x, captionTop, pictureWidth - thumbnailWidth - 8, captionHeight};
        layout.tiles.push_back(tile);
    }
    const int histogramTop = gridTop + rows * (tileHeight + kGap);
    layout.histogram = {kMargin, histogramTop, contentWidth, lineHeight() + 6 + kPlotHeight + 5 + lineHeight()};
    layout.width = contentWidth + 2 * kMargin;
    layout.height = layout.histogram.y + layout.histogram.height + kMargin;
    return layout;
}

image::Image8 drawContactSheet(const ContactSheetContent& content, const ContactSheetLayout& layout)
{
    if (content.tiles.size() != layout.tiles.size())
        throw std::invalid_argument("contact sheet: the layout is for another number of tiles");
    image::Image8 canvas(layout.width, layout.height, 3);
    fillRect(canvas, {0, 0, layout.width, layout.height}, kSheetColour);
    ui::drawText(canvas, layout.header.x, layout.header.y, fitText(content.title, layout.header.width), kTextColour);
    ui::drawText(canvas, layout.header.x, layout.header.y + lineHeight() + 4,
                 fitText(content.subtitle, layout.header.width), kDimTextColour);
    for (std::size_t i = 0; i < content.tiles.size(); ++i) {
        const SheetTile& tile = content.tiles[i];
        if (tile.picture.width != layout.tiles[i].picture.width ||
            tile.picture.height != layout.tiles[i].picture.height)
            throw std::invalid_argument("contact sheet: tile '" + tile.name + "' is not of the layout's size");
        drawTile(canvas, tile, layout.tiles[i], content.histogram, sheetCurveColour(i));
    }
    drawHistogramPanel(canvas, content, layout.histogram);
    return canvas;
}

image::Image8 downscaleToWidth(const image::Image8& rgb, int width)
{
    if (rgb.channels != 3 || rgb.empty())
        throw std::invalid_argument("downscaleToWidth: expected a non-empty RGB image");
    if (width < 1)
        throw std::invalid_argument("downscaleToWidth: the width must be at least 1");
    if (rgb.width <= width)
        return rgb;
    const long long sourceWidth = rgb.width, sourceHeight = rgb.height;
    const int height = int(std::max(1LL, (sourceHeight * width * 2 + sourceWidth) / (sourceWidth * 2)));
    // Source pixel s (centre s + 0.5) falls in output pixel floor((2s + 1) * out / (2 * in)).
    auto binOf = [](long long s, long long in, long long out) { return int((2 * s + 1) * out / (2 * in)); };
    std::array<double, 256> linear{};
    for (int i = 0; i < 256; ++i)
        linear[std::size_t(i)] = image::srgbToLinear(float(i) / 255.0f);
    std::vector<double> sums(std::size_t(width) * std::size_t(height) * 3, 0.0);
    std::vector<std::uint32_t> counts(std::size_t(width) * std::size_t(height), 0);
    for (int y = 0; y < rgb.height; ++y) {
        const int oy = binOf(y, sourceHeight, height);
        for (int x = 0; x < rgb.width; ++x) {
            const std::size_t o = std::size_t(oy) * std::size_t(width) + std::size_t(binOf(x, sourceWidth, width));
            const std::uint8_t* pixel = rgb.at(x, y);
            for (int c = 0; c < 3; ++c)
                sums[o * 3 + std::size_t(c)] += linear[pixel[c]];
            ++counts[o];
        }
    }
    image::Image8 out(width, height, 3);
    for (std::size_t o = 0; o < counts.size(); ++o)
        for (int c = 0; c < 3; ++c) {
            const double mean = counts[o] ? sums[o * 3 + std::size_t(c)] / counts[o] : 0.0;
            out.pixels[o * 3 + std::size_t(c)] =
                std::uint8_t(std::clamp(std::lround(image::linearToSrgb(float(mean)) * 255.0f), 0L, 255L));
        }
    return out;
}

std::array<std::uint8_t, 3> sheetCurveColour(std::size_t index)
{
    static constexpr std::array<Rgb, 8> kPalette{{{60, 220, 60},
                                                  {70, 200, 240},
                                                  {240, 200, 60},
                                                  {225, 110, 230},
                                                  {255, 150, 50},
                                                  {120, 140, 255},
                                                  {235, 235, 235},
                                                  {150, 230, 180}}};
    return kPalette[index % kPalette.size()];
}

}  // namespace app
