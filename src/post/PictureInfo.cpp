#include "post/PictureInfo.h"

#include <charconv>
#include <cmath>
#include <string>
#include <vector>

namespace post {

namespace {

std::vector<std::string_view> tokens(std::string_view text)
{
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < text.size()) {
        while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r'))
            ++i;
        const std::size_t start = i;
        while (i < text.size() && !(text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r'))
            ++i;
        if (i > start)
            out.push_back(text.substr(start, i - start));
    }
    return out;
}

std::optional<double> number(std::string_view text)
{
    double value = 0.0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size() || !std::isfinite(value))
        return std::nullopt;
    return value;
}

}  // namespace

std::optional<PictureView> parseRadianceView(std::string_view options)
{
    PictureView view;  // Radiance's STDVIEW: perspective, 45 x 45 degrees
    bool any = false;
    const std::vector<std::string_view> words = tokens(options);
    for (std::size_t i = 0; i < words.size(); ++i) {
        const std::string_view w = words[i];
        if (w.size() < 3 || w[0] != '-' || w[1] != 'v')
            continue;
        const std::string_view option = w.substr(2);
        if (option.size() == 2 && option[0] == 't' &&
            std::string_view("vlcahs").find(option[1]) != std::string_view::npos) {
            view.type = option[1];
            any = true;
        } else if ((option == "h" || option == "v") && i + 1 < words.size()) {
            if (const auto value = number(words[i + 1])) {
                (option == "h" ? view.horizontalDegrees : view.verticalDegrees) = *value;
                any = true;
            }
            ++i;
        } else if (option == "p" || option == "d" || option == "u") {
            i += 3;  // a vector
        } else if (option == "o" || option == "a" || option == "s" || option == "l") {
            i += 1;  // fore/aft clipping, shift, lift
        }
    }
    if (!any)
        return std::nullopt;
    return view;
}

PictureInfo pictureInfoOf(const std::optional<image::RadianceHeader>& radiance)
{
    PictureInfo info;
    if (!radiance)
        return info;
    info.view = parseRadianceView(radiance->view);
    if (std::isfinite(radiance->pixelAspect) && radiance->pixelAspect > 0.0)
        info.pixelAspect = radiance->pixelAspect;
    return info;
}

}  // namespace post
