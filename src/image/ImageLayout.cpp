#include "image/ImageLayout.h"

#include "image/ImageIo.h"
#include "util/Log.h"

#include <ImfChannelList.h>
#include <ImfHeader.h>
#include <ImfMultiPartInputFile.h>
#include <stb_image.h>

#include <exception>

namespace image {
namespace {

std::string openExrLayout(const std::filesystem::path& path)
{
    // Headers only: the parts' pixels are not read. Only the frames that decoded get here.
    Imf::MultiPartInputFile file(path.c_str(), 0);
    std::string layout = "OpenEXR ";
    for (int part = 0; part < file.parts(); ++part) {
        const Imf::Header& header = file.header(part);
        if (part > 0)
            layout += "; ";
        if (header.hasName())
            layout += header.name() + ": ";
        std::string names;
        for (auto it = header.channels().begin(); it != header.channels().end(); ++it)
            names += (names.empty() ? "" : ",") + std::string(it.name());
        layout += names.empty() ? "no channels" : names;
    }
    return layout;
}

std::string eightBitLayout(const std::filesystem::path& path, FileKind kind)
{
    int width = 0, height = 0, channels = 0;
    if (!stbi_info(path.c_str(), &width, &height, &channels))
        throw ImageError(util::format("cannot read '{}': {}", path.string(), stbi_failure_reason()));
    static const char* const kNames[] = {"grey", "grey+alpha", "RGB", "RGBA"};
    const char* name = channels >= 1 && channels <= 4 ? kNames[channels - 1] : "unknown channels";
    return std::string(fileKindName(kind)) + " " + name;
}

}  // namespace

std::string describeImageLayout(const std::filesystem::path& path)
{
    const FileKind kind = detectFileKind(path);
    try {
        switch (kind) {
            case FileKind::OpenExr:
                return openExrLayout(path);
            case FileKind::RadianceHdr:
                return std::string(fileKindName(kind)) + " RGB";
            case FileKind::Unknown:
                throw ImageError(util::format("cannot read '{}': not an image hdrlab reads", path.string()));
            default:
                return eightBitLayout(path, kind);
        }
    } catch (const ImageError&) {
        throw;
    } catch (const std::exception& error) {
        throw ImageError(util::format("cannot read the header of '{}': {}", path.string(), error.what()));
    }
}

}  // namespace image
