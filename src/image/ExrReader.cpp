// ExrReader.cpp: OpenEXR reading through OpenEXR 3 (libOpenEXR and libOpenEXRCore from Debian).
//
// Decoding runs in three steps, all of the file's structure checked by the reference library:
//  1. Preflight with OpenEXRCore, which parses every part's header strictly and with size limits
//     but allocates nothing per pixel or per chunk. It also gives each part's chunk count, so a
//     small damaged file cannot make the C++ library allocate offset tables for millions of chunks
//     (each chunk needs at least an 8-byte offset in the file).
//  2. The C++ library (MultiPartInputFile) picks the part, checks the decoded size against a budget
//     derived from the file size, and reads the pixels as float, whatever their stored type.
//     Luminance-chroma files (Y, RY, BY with subsampled chroma) go through RgbaInputFile, which
//     reconstructs RGB the way OpenEXR's own tools do.
//  3. The data window is placed into the display window (the image's intended frame).
// Deep parts (samples per pixel) are read by ExrDeepReader and flattened (DeepFlatten.h).
// Limits: luminance-chroma only in the first part; subsampled channels only as the chroma of
// luminance-chroma files; no more than kMaxImageDimension on a side.
#include "image/ExrReader.h"

#include "image/ExrDeepReader.h"
#include "image/FormatError.h"
#include "image/ImageIo.h"
#include "util/Log.h"
#include "util/PrintableText.h"

#include <ImfArray.h>
#include <ImfChannelList.h>
#include <ImfFrameBuffer.h>
#include <ImfHeader.h>
#include <ImfIO.h>
#include <ImfInputPart.h>
#include <ImfMultiPartInputFile.h>
#include <ImfMultiView.h>
#include <ImfPartType.h>
#include <ImfRgbaFile.h>
#include <ImfStandardAttributes.h>
#include <openexr.h>

#include <Iex.h>

#include <algorithm>
#include <cstring>
#include <mutex>
#include <optional>
#include <vector>

namespace image::detail {
namespace {

// Decoding happens on the calling thread: deterministic, and the app decodes only on load.
constexpr int kDecodeThreads = 0;
// Tiles larger than this are refused before OpenEXR allocates a tile buffer (real files use
// 32..512; the largest legal tile of a 16384-pixel image would need gigabytes per buffer).
constexpr int kMaxTileDimension = 4096;
// A small damaged file must not make us allocate gigabytes. Decoded bytes (RGBA float) are
// limited to kMaxCompressionRatio times the file size: real files stay far below (a constant image
// in ZIP reaches about 1000:1, half to RGBA float multiplies by 2 to 8). Small images always pass.
constexpr std::uint64_t kMaxCompressionRatio = 4096;
constexpr std::uint64_t kMinDecodeBudget = std::uint64_t(64) << 20;
constexpr std::uint64_t kBytesPerPixel = 4 * sizeof(float);
constexpr std::uint64_t kChunkOffsetBytes = 8;

[[noreturn]] void damaged(const std::string& reason)
{
    throw FormatError("damaged OpenEXR file: " + reason);
}

[[noreturn]] void unsupported(const std::string& reason)
{
    throw FormatError("unsupported OpenEXR file: " + reason);
}

/// Text from the file or from the library made safe for a one-line message.
std::string oneLine(std::string_view text)
{
    return util::oneLineMessage(text, 200);
}

/// Decoded bytes (RGBA float) a file of `fileSize` bytes may claim.
std::uint64_t decodeBudget(std::size_t fileSize)
{
    return std::max(kMinDecodeBudget, std::uint64_t(fileSize) * kMaxCompressionRatio);
}

std::string quoted(const std::string& name)
{
    return "'" + oneLine(name) + "'";
}

/// OpenEXR's C++ streams read from our bytes; reading past the end throws, as the library expects.
class MemoryStream final : public Imf::IStream
{
public:
    explicit MemoryStream(std::span<const std::uint8_t> bytes) : Imf::IStream("the file"), mBytes(bytes) {}

    bool isMemoryMapped() const override { return true; }

    char* readMemoryMapped(int count) override
    {
        requireAvailable(count);
        // The library only reads through this pointer; the buffer is the caller's mutable vector.
        char* start = const_cast<char*>(reinterpret_cast<const char*>(mBytes.data() + mPosition));
        mPosition += std::uint64_t(count);
        return start;
    }

    bool read(char destination[], int count) override
    {
        requireAvailable(count);
        if (count > 0)
            std::memcpy(destination, mBytes.data() + mPosition, std::size_t(count));
        mPosition += std::uint64_t(count);
        return mPosition < mBytes.size();
    }

    std::uint64_t tellg() override { return mPosition; }
    void seekg(std::uint64_t position) override { mPosition = position; }

private:
    void requireAvailable(int count) const
    {
        if (count < 0 || mPosition > mBytes.size() || std::uint64_t(count) > mBytes.size() - mPosition)
            throw Iex::InputExc("unexpected end of file");
    }

    std::span<const std::uint8_t> mBytes;
    std::uint64_t mPosition = 0;
};

// ---- Step 1: OpenEXRCore preflight ----

struct CoreReadState
{
    std::span<const std::uint8_t> bytes;
    std::string firstError;
};

int64_t coreRead(exr_const_context_t,
                 void* userData,
                 void* buffer,
                 uint64_t size,
                 uint64_t offset,
                 exr_stream_error_func_ptr_t)
{
    const auto* state = static_cast<const CoreReadState*>(userData);
    const std::uint64_t fileSize = state->bytes.size();
    if (offset >= fileSize)
        return 0;
    const std::uint64_t count = std::min<std::uint64_t>(size, fileSize - offset);
    std::memcpy(buffer, state->bytes.data() + offset, std::size_t(count));
    return int64_t(count);
}

int64_t coreSize(exr_const_context_t, void* userData)
{
    return int64_t(static_cast<const CoreReadState*>(userData)->bytes.size());
}

/// The first message OpenEXRCore reported, or `fallback`, as one line.
std::string coreMessage(const CoreReadState& state, const char* fallback)
{
    return oneLine(state.firstError.empty() ? std::string_view(fallback) : std::string_view(state.firstError));
}

void coreError(exr_const_context_t context, exr_result_t code, const char* message)
{
    void* userData = nullptr;
    if (exr_get_user_data(context, &userData) != EXR_ERR_SUCCESS || !userData)
        return;
    auto* state = static_cast<CoreReadState*>(userData);
    if (state->firstError.empty())
        state->firstError = message ? message : exr_get_default_error_message(code);
}

class CoreContext
{
public:
    CoreContext() = default;
    ~CoreContext()
    {
        if (mContext)
            exr_finish(&mContext);
    }
    CoreContext(const CoreContext&) = delete;
    CoreContext& operator=(const CoreContext&) = delete;
    exr_context_t* out() { return &mContext; }
    exr_const_context_t get() const { return mContext; }

private:
    exr_context_t mContext = nullptr;
};

/// Every chunk the C++ library will read for level 0 of `part`, as OpenEXRCore reads its offset and
/// leader: it must exist inside the file (a deep chunk's sample count table and samples too), and an
/// uncompressed chunk must hold all its pixels (OpenEXR 3.1.5's C++ reader copies the full size out
/// of a shorter chunk: a fuzzer found it).
void checkLevelZeroChunks(exr_const_context_t context, int part, const CoreReadState& state)
{
    exr_storage_t storage = EXR_STORAGE_SCANLINE;
    exr_attr_box2i_t window{};
    if (exr_get_storage(context, part, &storage) != EXR_ERR_SUCCESS ||
        exr_get_data_window(context, part, &window) != EXR_ERR_SUCCESS)
        damaged(util::format("part {}: unreadable storage type or data window", part));
    const bool scanline = storage == EXR_STORAGE_SCANLINE || storage == EXR_STORAGE_DEEP_SCANLINE;
    if (!scanline && storage != EXR_STORAGE_TILED && storage != EXR_STORAGE_DEEP_TILED)
        damaged(util::format("part {}: unknown storage type", part));
    auto check = [&](exr_result_t result, const exr_chunk_info_t& chunk, const char* what, int a, int b) {
        if (result != EXR_ERR_SUCCESS)
            damaged(util::format("part {}, {} {}{}: {}", part, what, a, b < 0 ? "" : util::format(",{}", b),
                                 coreMessage(state, exr_get_default_error_message(result))));
        if (chunk.compression == EXR_COMPRESSION_NONE && chunk.packed_size != chunk.unpacked_size)
            damaged(util::format("part {}, uncompressed {} {}{} holds {} bytes instead of {}", part, what, a,
                                 b < 0 ? "" : util::format(",{}", b), chunk.packed_size, chunk.unpacked_size));
    };
    exr_chunk_info_t chunk{};
    if (scanline) {
        int32_t linesPerChunk = 0;
        if (exr_get_scanlines_per_chunk(context, part, &linesPerChunk) != EXR_ERR_SUCCESS || linesPerChunk < 1)
            damaged(util::format("part {}: unknown lines per chunk", part));
        for (std::int64_t y = window.min.y; y <= window.max.y; y += linesPerChunk)
            check(exr_read_scanline_chunk_info(context, part, int(y), &chunk), chunk, "chunk at line", int(y), -1);
        return;
    }
    int32_t tileWidth = 0, tileHeight = 0, levelWidth = 0, levelHeight = 0;
    if (exr_get_tile_sizes(context, part, 0, 0, &tileWidth, &tileHeight) != EXR_ERR_SUCCESS ||
        exr_get_level_sizes(context, part, 0, 0, &levelWidth, &levelHeight) != EXR_ERR_SUCCESS || tileWidth < 1 ||
        tileHeight < 1 || levelWidth < 1 || levelHeight < 1)
        damaged(util::format("part {}: unusable tile description", part));
    const int tilesX = int((std::int64_t(levelWidth) + tileWidth - 1) / tileWidth);
    const int tilesY = int((std::int64_t(levelHeight) + tileHeight - 1) / tileHeight);
    for (int ty = 0; ty < tilesY; ++ty)
        for (int tx = 0; tx < tilesX; ++tx)
            check(exr_read_tile_chunk_info(context, part, tx, ty, 0, 0, &chunk), chunk, "tile", tx, ty);
}

/// Parses every header with OpenEXRCore and refuses files whose chunk tables cannot fit.
void preflight(std::span<const std::uint8_t> bytes)
{
    CoreReadState state{bytes, {}};
    exr_context_initializer_t init = EXR_DEFAULT_CONTEXT_INITIALIZER;
    init.user_data = &state;
    init.read_fn = &coreRead;
    init.size_fn = &coreSize;
    init.error_handler_fn = &coreError;
    init.max_image_width = kMaxImageDimension;
    init.max_image_height = kMaxImageDimension;
    init.max_tile_width = kMaxTileDimension;
    init.max_tile_height = kMaxTileDimension;
    init.flags = EXR_CONTEXT_FLAG_STRICT_HEADER;
    CoreContext context;
    exr_result_t result = exr_start_read(context.out(), "the file", &init);
    if (result != EXR_ERR_SUCCESS)
        damaged(coreMessage(state, exr_get_default_error_message(result)));

    int partCount = 0;
    if (exr_get_count(context.get(), &partCount) != EXR_ERR_SUCCESS || partCount < 1)
        damaged("no parts");
    std::uint64_t chunkCount = 0;
    for (int part = 0; part < partCount; ++part) {
        int32_t partChunks = 0;
        if (exr_get_chunk_count(context.get(), part, &partChunks) != EXR_ERR_SUCCESS || partChunks < 0)
            damaged(util::format("part {}: {}", part, coreMessage(state, "cannot count its chunks")));
        chunkCount += std::uint64_t(partChunks);
    }
    if (chunkCount > bytes.size() / kChunkOffsetBytes)
        damaged(util::format("file is truncated: {} chunks cannot fit in {} bytes", chunkCount, bytes.size()));
    for (int part = 0; part < partCount; ++part)
        checkLevelZeroChunks(context.get(), part, state);
}

// ---- Step 2: choosing the part and the channels ----

/// The channels that feed R, G, B, A ("" when absent) and how to read them.
struct ColourChannels
{
    std::string layer;  // "" or "name" for channels named "name.R" etc.
    std::string red, green, blue, alpha, luminance;
    bool luminanceChroma = false;  // Y plus subsampled RY/BY
};

std::optional<ColourChannels> findColourChannels(const Imf::ChannelList& channels,
                                                 const std::string& layer,
                                                 bool loneChannelIsGrey)
{
    const std::string prefix = layer.empty() ? "" : layer + ".";
    auto present = [&](const char* suffix) {
        std::string name = prefix + suffix;
        return channels.findChannel(name) ? name : std::string();
    };
    ColourChannels found;
    found.layer = layer;
    found.red = present("R");
    found.green = present("G");
    found.blue = present("B");
    found.alpha = present("A");
    found.luminance = present("Y");
    const bool chroma = !present("RY").empty() && !present("BY").empty();
    if (found.red.empty() && found.green.empty() && found.blue.empty()) {
        // A part holding one channel of any name (a depth or mask pass) is shown as grey.
        if (loneChannelIsGrey && found.luminance.empty() && layer.empty() && channels.begin() != channels.end() &&
            ++channels.begin() == channels.end())
            found.luminance = channels.begin().name();
        if (found.luminance.empty())
            return std::nullopt;
        found.luminanceChroma = chroma;
    }
    return found;
}

/// Layer names in channel order ("diffuse" for "diffuse.R"), the unnamed layer first.
std::vector<std::string> layersOf(const Imf::ChannelList& channels)
{
    std::vector<std::string> layers = {""};
    for (auto it = channels.begin(); it != channels.end(); ++it) {
        std::string name = it.name();
        std::size_t dot = name.rfind('.');
        std::string layer = dot == std::string::npos ? "" : name.substr(0, dot);
        if (std::find(layers.begin(), layers.end(), layer) == layers.end())
            layers.push_back(layer);
    }
    return layers;
}

std::string channelNames(const Imf::ChannelList& channels)
{
    std::string names;
    int shown = 0;
    for (auto it = channels.begin(); it != channels.end(); ++it) {
        if (++shown > 12) {
            names += ", ...";
            break;
        }
        names += (names.empty() ? "" : ", ") + oneLine(it.name());
    }
    return names.empty() ? "none" : names;
}

bool isDeep(const Imf::Header& header)
{
    return header.hasType() && Imf::isDeepData(header.type());
}

std::string partLabel(const Imf::MultiPartInputFile& file, int part)
{
    const Imf::Header& header = file.header(part);
    std::string label = util::format("part {}", part);
    if (header.hasName())
        label += " " + quoted(header.name());
    return label;
}

struct Choice
{
    int part = 0;
    ColourChannels channels;
};

/// The default view of a multi-view part is stored without a layer prefix.
bool isDefaultView(const Imf::Header& header, const std::string& view)
{
    return Imf::hasMultiView(header) && !Imf::multiView(header).empty() &&
           Imf::defaultViewName(Imf::multiView(header)) == view;
}

Choice choosePart(const Imf::MultiPartInputFile& file, const std::string& request)
{
    const int parts = file.parts();
    auto colourIn = [&](int part, const std::string& layer, bool loneChannelIsGrey = true) {
        const Imf::Header& header = file.header(part);
        // A deep part's lone channel is its depth Z, not an image.
        return findColourChannels(header.channels(), layer, loneChannelIsGrey && !isDeep(header));
    };

    if (request.empty()) {
        // Colour first: a lone channel (depth, mask) is shown only when no part has colour.
        for (bool loneChannelIsGrey : {false, true})
            for (int part = 0; part < parts; ++part)
                for (const std::string& layer : layersOf(file.header(part).channels()))
                    if (auto channels = colourIn(part, layer, loneChannelIsGrey))
                        return {part, *channels};
        unsupported(util::format("no R, G, B or Y channel in any part (part 0 has: {})",
                                 channelNames(file.header(0).channels())));
    }

    auto colourOfPart = [&](int part) -> Choice {
        for (const std::string& layer : layersOf(file.header(part).channels()))
            if (auto channels = colourIn(part, layer))
                return {part, *channels};
        unsupported(util::format("{} has no R, G, B or Y channel (channels: {})", partLabel(file, part),
                                 channelNames(file.header(part).channels())));
    };
    const bool isIndex =
        request.size() <= 6 && std::all_of(request.begin(), request.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (isIndex) {
        int index = std::stoi(request);
        if (index >= parts)
            throw FormatError(util::format("no part {}: the file has {} part{}", index, parts, parts == 1 ? "" : "s"));
        return colourOfPart(index);
    }
    for (int part = 0; part < parts; ++part)
        if (file.header(part).hasName() && file.header(part).name() == request)
            return colourOfPart(part);
    for (int part = 0; part < parts; ++part) {
        if (auto channels = colourIn(part, request))
            return {part, *channels};
        if (isDefaultView(file.header(part), request))
            if (auto channels = colourIn(part, ""))
                return {part, *channels};
    }
    // Multi-part stereo files name each part's view in its "view" attribute: the first colour part of it.
    for (int part = 0; part < parts; ++part)
        if (file.header(part).hasView() && file.header(part).view() == request)
            for (const std::string& layer : layersOf(file.header(part).channels()))
                if (auto channels = colourIn(part, layer, false))
                    return {part, *channels};
    std::string known;
    for (int part = 0; part < parts; ++part) {
        known += (part ? "; " : "") + partLabel(file, part);
        const Imf::Header& header = file.header(part);
        if (header.hasView())
            known += " of view " + quoted(header.view());
        if (Imf::hasMultiView(header))
            for (const std::string& view : Imf::multiView(header))
                known += " view " + quoted(view);
        for (const std::string& layer : layersOf(header.channels()))
            if (!layer.empty())
                known += " layer " + quoted(layer);
    }
    throw FormatError(util::format("no part, view or layer named {} with colour channels ({})", quoted(request),
                                   util::escapeControlCharacters(known, true, 300)));
}

// ---- Step 2: reading ----

/// Decoded size limit for a file of `fileSize` bytes.
void checkBudget(std::int64_t width, std::int64_t height, std::size_t fileSize)
{
    const std::uint64_t bytes = std::uint64_t(width) * std::uint64_t(height) * kBytesPerPixel;
    if (bytes > decodeBudget(fileSize))
        damaged(util::format("a {}x{} image cannot come from a file of {} bytes", width, height, fileSize));
}

ImageF readRgbChannels(const Imf::MultiPartInputFile& file, const Choice& choice)
{
    const Imf::Header& header = file.header(choice.part);
    const Imath::Box2i window = header.dataWindow();
    const int width = window.max.x - window.min.x + 1;
    const int height = window.max.y - window.min.y + 1;
    const ColourChannels& colour = choice.channels;
    for (const std::string* name : {&colour.red, &colour.green, &colour.blue, &colour.alpha, &colour.luminance}) {
        const Imf::Channel* channel = name->empty() ? nullptr : header.channels().findChannel(*name);
        if (channel && (channel->xSampling != 1 || channel->ySampling != 1))
            unsupported(
                util::format("channel {} is subsampled ({}x{}); only the chroma of luminance-chroma "
                             "images may be",
                             quoted(*name), channel->xSampling, channel->ySampling));
    }

    ImageF image(width, height);
    const std::size_t xStride = kBytesPerPixel;
    const std::size_t yStride = xStride * std::size_t(width);
    auto slice = [&](int component, double fill) {
        return Imf::Slice::Make(Imf::FLOAT, image.pixels.data() + component, window, xStride, yStride, 1, 1, fill);
    };
    Imf::FrameBuffer frame;
    const bool grey = colour.red.empty() && colour.green.empty() && colour.blue.empty();
    if (grey) {
        frame.insert(colour.luminance, slice(0, 0.0));
    } else {
        // Channels missing from the file are filled with the slice's fill value by the library.
        const std::string prefix = colour.layer.empty() ? "" : colour.layer + ".";
        frame.insert(colour.red.empty() ? prefix + "R" : colour.red, slice(0, 0.0));
        frame.insert(colour.green.empty() ? prefix + "G" : colour.green, slice(1, 0.0));
        frame.insert(colour.blue.empty() ? prefix + "B" : colour.blue, slice(2, 0.0));
    }
    frame.insert(colour.alpha.empty() ? (colour.layer.empty() ? "A" : colour.layer + ".A") : colour.alpha,
                 slice(3, 1.0));

    Imf::InputPart input(const_cast<Imf::MultiPartInputFile&>(file), choice.part);
    input.setFrameBuffer(frame);
    input.readPixels(window.min.y, window.max.y);
    if (grey) {
        for (std::size_t i = 0; i < image.pixels.size(); i += 4)
            image.pixels[i + 1] = image.pixels[i + 2] = image.pixels[i];
    }
    return image;
}

/// Y/RY/BY files: RgbaInputFile reconstructs the subsampled chroma and converts to RGB with the
/// file's chromaticities. It reads the first part only.
ImageF readLuminanceChroma(std::span<const std::uint8_t> bytes, const Imf::Header& header, const Choice& choice)
{
    if (choice.part != 0)
        unsupported(
            util::format("luminance-chroma images are read from the first part only (this is part {})", choice.part));
    MemoryStream stream(bytes);
    Imf::RgbaInputFile input(stream, choice.channels.layer, kDecodeThreads);
    const Imath::Box2i window = input.dataWindow();
    if (window != header.dataWindow())
        damaged("the luminance-chroma reader sees another data window");
    const int width = window.max.x - window.min.x + 1;
    const int height = window.max.y - window.min.y + 1;
    Imf::Array2D<Imf::Rgba> rgba(height, width);
    // The library addresses pixel (x, y) as base + x + y * width over the data window's coordinates;
    // the base is computed as an integer so that large window offsets cannot overflow a pointer.
    const std::uintptr_t origin = reinterpret_cast<std::uintptr_t>(&rgba[0][0]) -
                                  (std::uintptr_t(std::intptr_t(window.min.x)) +
                                   std::uintptr_t(std::intptr_t(window.min.y)) * std::uintptr_t(width)) *
                                      sizeof(Imf::Rgba);
    input.setFrameBuffer(reinterpret_cast<Imf::Rgba*>(origin), 1, std::size_t(width));
    input.readPixels(window.min.y, window.max.y);
    ImageF image(width, height);
    for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x) {
            const Imf::Rgba& in = rgba[y][x];
            float* out = image.at(x, y);
            out[0] = float(in.r);
            out[1] = float(in.g);
            out[2] = float(in.b);
            out[3] = float(in.a);
        }
    }
    return image;
}

/// A deep part's channels: the chosen colour channels, the alpha of their layer or else of the
/// nearest enclosing layer (as "Interpreting OpenEXR Deep Pixels" associates them), and the base
/// layer's Z and ZBack, except in a multi-view part, where a view other than the default one keeps its
/// own ("right.Z"). Luminance-chroma cannot be deep (deep channels are never subsampled): Y is grey.
DeepChannels deepChannelsOf(const Imf::Header& header, const ColourChannels& colour)
{
    const Imf::ChannelList& channels = header.channels();
    DeepChannels deep;
    deep.red = colour.red;
    deep.green = colour.green;
    deep.blue = colour.blue;
    deep.luminance = colour.luminance;
    deep.alpha = colour.alpha;
    for (std::string layer = colour.layer; deep.alpha.empty() && !layer.empty();) {
        const std::size_t dot = layer.rfind('.');
        layer = dot == std::string::npos ? std::string() : layer.substr(0, dot);
        const std::string name = layer.empty() ? "A" : layer + ".A";
        if (channels.findChannel(name))
            deep.alpha = name;
    }
    const bool isView = !colour.layer.empty() && Imf::hasMultiView(header) &&
                        std::ranges::count(Imf::multiView(header), colour.layer) > 0;
    const std::string depthPrefix = isView ? colour.layer + "." : "";
    if (channels.findChannel(depthPrefix + "Z"))
        deep.depth = depthPrefix + "Z";
    if (channels.findChannel(depthPrefix + "ZBack"))
        deep.depthBack = depthPrefix + "ZBack";
    return deep;
}

// ---- Step 3: framing ----

/// Places the data-window image into the display window when that is valid and not absurdly
/// large; pixels outside the data window become 0.
ImageF frameInDisplayWindow(const Imf::Header& header, ImageF dataImage, std::size_t fileSize)
{
    const Imath::Box2i display = header.displayWindow();
    const Imath::Box2i data = header.dataWindow();
    if (display == data)
        return dataImage;
    const std::int64_t width = std::int64_t(display.max.x) - display.min.x + 1;
    const std::int64_t height = std::int64_t(display.max.y) - display.min.y + 1;
    if (width < 1 || height < 1 || width > kMaxImageDimension || height > kMaxImageDimension ||
        std::uint64_t(width) * std::uint64_t(height) * kBytesPerPixel > decodeBudget(fileSize)) {
        util::logWarning("OpenEXR display window {}x{} is unusable; using the data window {}x{}", width, height,
                         dataImage.width, dataImage.height);
        return dataImage;
    }
    ImageF framed(static_cast<int>(width), static_cast<int>(height));
    const std::int64_t left = std::max(display.min.x, data.min.x);
    const std::int64_t right = std::min(display.max.x, data.max.x);
    const std::int64_t top = std::max(display.min.y, data.min.y);
    const std::int64_t bottom = std::min(display.max.y, data.max.y);
    for (std::int64_t y = top; y <= bottom && right >= left; ++y) {
        const float* from = dataImage.at(int(left - data.min.x), int(y - data.min.y));
        float* to = framed.at(int(left - display.min.x), int(y - display.min.y));
        std::copy(from, from + (right - left + 1) * 4, to);
    }
    return framed;
}

void setLibraryLimits()
{
    static std::once_flag once;
    std::call_once(once, [] {
        // The C++ library checks every header against these before allocating for it.
        Imf::Header::setMaxImageSize(kMaxImageDimension, kMaxImageDimension);
        Imf::Header::setMaxTileSize(kMaxTileDimension, kMaxTileDimension);
    });
}

}  // namespace

ImageF decodeOpenExr(std::span<const std::uint8_t> bytes, const std::string& part)
{
    setLibraryLimits();
    preflight(bytes);
    try {
        MemoryStream stream(bytes);
        Imf::MultiPartInputFile file(stream, kDecodeThreads);
        const Choice choice = choosePart(file, part);
        const Imf::Header& header = file.header(choice.part);
        const Imath::Box2i window = header.dataWindow();
        checkBudget(std::int64_t(window.max.x) - window.min.x + 1, std::int64_t(window.max.y) - window.min.y + 1,
                    bytes.size());
        ImageF dataImage = isDeep(header) ? readDeepPart(file, choice.part, deepChannelsOf(header, choice.channels),
                                                         decodeBudget(bytes.size()))
                           : choice.channels.luminanceChroma ? readLuminanceChroma(bytes, header, choice)
                                                             : readRgbChannels(file, choice);
        return frameInDisplayWindow(header, std::move(dataImage), bytes.size());
    } catch (const FormatError&) {
        throw;
    } catch (const std::bad_alloc&) {
        damaged("out of memory while decoding");
    } catch (const std::exception& error) {
        damaged(oneLine(error.what()));
    }
}

}  // namespace image::detail
