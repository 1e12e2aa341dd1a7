// GltfFileAccess.cpp: the glTF import's file callbacks and image decoding (see GltfFileAccess.h).
#include "scene/GltfFileAccess.h"

#include "image/ImageIo.h"
#include "scene/GltfImport.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <fstream>

namespace scene::gltf {

bool FileAccess::allowed(const std::string& path, std::string* why) const
{
    if (folder.empty()) {
        *why = "external file '" + printable(path) + "' (this input may not reference files)";
        return false;
    }
    std::error_code error;
    std::filesystem::path resolved = std::filesystem::weakly_canonical(path, error);
    if (error) {
        *why = "'" + printable(path) + "': " + error.message();
        return false;
    }
    auto [folderEnd, pathIt] = std::mismatch(folder.begin(), folder.end(), resolved.begin(), resolved.end());
    if (folderEnd != folder.end()) {
        *why = "'" + printable(path) + "' lies outside the glTF file's folder";
        return false;
    }
    return true;
}

bool fileExists(const std::string& path, void* user)
{
    // tinygltf probes several candidate paths; a refused probe is no error yet (readWholeFile's is).
    std::string why;
    if (!static_cast<FileAccess*>(user)->allowed(path, &why))
        return false;
    std::error_code error;
    return std::filesystem::is_regular_file(path, error);
}

std::string expandFilePath(const std::string& path, void*)
{
    return path;  // no ~ or variable expansion: a URI is a path relative to the file
}

bool readWholeFile(std::vector<unsigned char>* out, std::string* err, const std::string& path, void* user)
{
    auto* access = static_cast<FileAccess*>(user);
    std::string why;
    if (!access->allowed(path, &why)) {
        access->refusal = why;
        if (err)
            *err += why + "\n";
        return false;
    }
    std::error_code error;
    std::uintmax_t size = std::filesystem::file_size(path, error);
    if (error || !std::filesystem::is_regular_file(path, error) || size > image::kMaxFileBytes) {
        access->refusal = "'" + printable(path) + "' is not a readable file of at most 1 GiB";
        if (err)
            *err += access->refusal + "\n";
        return false;
    }
    std::ifstream in(path, std::ios::binary);
    out->resize(std::size_t(size));
    if (!in || !in.read(reinterpret_cast<char*>(out->data()), std::streamsize(size))) {
        access->refusal = "cannot read '" + printable(path) + "'";
        if (err)
            *err += access->refusal + "\n";
        return false;
    }
    return true;
}

bool writeWholeFile(std::string* err, const std::string&, const std::vector<unsigned char>&, void*)
{
    if (err)
        *err += "writing is not supported\n";
    return false;
}

bool decodeImage(tinygltf::Image* out,
                 int index,
                 const std::uint8_t* bytes,
                 std::size_t size,
                 ImageBudget& budget,
                 std::string* err)
{
    std::string what = "image " + std::to_string(index);
    auto fail = [&](const std::string& why) {
        if (budget.failure.empty())
            budget.failure = what + ": " + why;
        if (err)
            *err += budget.failure + "\n";
        return false;
    };
    image::FileKind kind = image::detectFileKind(bytes, size);
    if (kind != image::FileKind::Png && kind != image::FileKind::Jpeg)
        return fail("not a PNG or JPEG image");
    try {
        image::Image8 decoded = image::decodeImage8({bytes, size}, budget.fileName + " " + what, 4);
        std::size_t texels = std::size_t(decoded.width) * std::size_t(decoded.height);
        if (budget.texels + texels > kMaxGltfTexels)
            return fail("the file's images exceed " + std::to_string(kMaxGltfTexels >> 20) + " M texels in all");
        budget.texels += texels;
        out->width = decoded.width;
        out->height = decoded.height;
        out->component = 4;
        out->bits = 8;
        out->pixel_type = TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE;
        out->image = std::move(decoded.pixels);
        return true;
    } catch (const image::ImageError& error) {
        // ImageError already names the image ("cannot read 'FILE image N': ..."); keep its reason.
        std::string message = error.what();
        std::size_t colon = message.find("': ");
        return fail(colon == std::string::npos ? printable(message) : printable(message.substr(colon + 3)));
    }
}

bool loadImageData(tinygltf::Image* image,
                   const int index,
                   std::string* err,
                   std::string*,
                   int,
                   int,
                   const unsigned char* bytes,
                   int size,
                   void* user)
{
    // tinygltf 2.7 hands over an image's bufferView without checking it against its buffer (the
    // pointer and length may run past the buffer's end: fuzz corpus regress-gltf-image-view-past-buffer.glb),
    // so those are not read here; GltfMaterials::imagePixels decodes them after a bounds check.
    if (image->bufferView >= 0)
        return true;
    if (size <= 0)
        return false;
    return decodeImage(image, index, bytes, std::size_t(size), *static_cast<ImageBudget*>(user), err);
}

std::string decodeUri(const std::string& uri)
{
    std::string out;
    for (std::size_t i = 0; i < uri.size(); ++i) {
        if (uri[i] == '%' && i + 2 < uri.size() && std::isxdigit(static_cast<unsigned char>(uri[i + 1])) &&
            std::isxdigit(static_cast<unsigned char>(uri[i + 2]))) {
            out += char(std::stoi(uri.substr(i + 1, 2), nullptr, 16));
            i += 2;
        } else {
            out += uri[i];
        }
    }
    return out;
}

std::vector<std::uint8_t> readFileBytes(const std::filesystem::path& path)
{
    std::string name = printable(path.string());
    std::error_code error;
    if (std::filesystem::is_directory(path, error))
        throw SceneError("cannot load glTF '" + name + "': it is a folder, not a file");
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        int code = errno;
        throw SceneError("cannot load glTF '" + name + "': " + std::strerror(code != 0 ? code : ENOENT));
    }
    std::uintmax_t size = std::filesystem::file_size(path, error);
    if (error || size > image::kMaxFileBytes)
        throw SceneError("cannot load glTF '" + name + "': not a readable file of at most 1 GiB");
    std::vector<std::uint8_t> bytes(static_cast<std::size_t>(size));
    if (!in.read(reinterpret_cast<char*>(bytes.data()), std::streamsize(size)))
        throw SceneError("cannot load glTF '" + name + "': read error");
    return bytes;
}

}  // namespace scene::gltf
