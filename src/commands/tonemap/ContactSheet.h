// ContactSheet.h: the contact sheet of `hdrlab tonemap --operator all|--preset all`: one image with a
// tile per tone operator (or engine preset), each its tone-mapped picture downscaled to the tile width
// and a caption (a colour swatch; the name, label and key value; a thumbnail of the tone curve),
// and below the tiles one panel with the image's histogram and every curve over it, each in its
// tile's colour, with a legend (the app's histogram view: red histogram, curves on the same log2
// luminance axis, Scheuermann & Hensley 2007, Figure 1).
// Everything is drawn on the CPU (rectangles, one-pixel-per-column curve polylines, text through
// ui/CpuText), so the same inputs give the same bytes on every run and machine. Limits: no
// anti-aliasing; a caption line too long for its tile is cut with "..."; per-channel curves show all
// three channels in the tile's colour; curves are clamped to display 0..1.
#pragma once

#include "image/Image.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace app {

struct SheetRect
{
    int x = 0;
    int y = 0;
    int width = 0;
    int height = 0;
};

/// One tile's content.
struct SheetTile
{
    std::string name;          ///< operator or preset id: the caption's first line, the legend's entry
    std::string description;   ///< the caption's second line (the operator or preset label)
    std::string keyValue;      ///< the caption's third line: the key value with its name and unit
    image::Image8 picture;     ///< RGB, at the tile's picture size (downscaleToWidth of the tone-mapped image)
    std::vector<float> curve;  ///< the tone-curve buffer (float[hd::kCurveBufferWords], hd::kCurve* layout)
};

/// The histogram under every curve (one bin count, one log2 luminance range).
struct SheetHistogram
{
    std::vector<std::uint32_t> bins;
    float logMin = 0.0f;
    float logMax = 1.0f;
};

struct ContactSheetContent
{
    std::string title;     ///< header, first line
    std::string subtitle;  ///< header, second line
    std::vector<SheetTile> tiles;
    SheetHistogram histogram;
    std::string histogramTitle;  ///< above the histogram panel
};

/// Where a tile's parts lie on the sheet.
struct SheetTileLayout
{
    SheetRect picture;
    SheetRect caption;    ///< below the picture: the swatch and the three text lines, left of the thumbnail
    SheetRect thumbnail;  ///< the curve thumbnail, at the caption's right
};

struct ContactSheetLayout
{
    int width = 0;
    int height = 0;
    int columns = 0;
    SheetRect header;
    std::vector<SheetTileLayout> tiles;  ///< row by row, left to right
    SheetRect histogram;                 ///< the histogram panel (its title row, plot and axis labels)
};

/// Lays out `tileCount` tiles of pictures `pictureWidth` x `pictureHeight` (every tile the same)
/// in ceil(sqrt(n)) columns, with the header above and the histogram panel below.
ContactSheetLayout layOutContactSheet(std::size_t tileCount, int pictureWidth, int pictureHeight);

/// Draws the sheet (RGB). The tiles' pictures must have the layout's picture size.
image::Image8 drawContactSheet(const ContactSheetContent& content, const ContactSheetLayout& layout);

/// `rgb` (3 channels) scaled down to `width` pixels wide (the height keeps the aspect, at least 1):
/// each output pixel the mean, in linear light, of the source pixels whose centres fall inside it
/// (a box filter; exact for integer ratios). A picture no wider than `width` is returned as it is.
image::Image8 downscaleToWidth(const image::Image8& rgb, int width);

/// The colour of the n-th tile's curve (green, the app's curve colour, first; never the histogram's red).
std::array<std::uint8_t, 3> sheetCurveColour(std::size_t index);

}  // namespace app
