// PictureInfo.h: what a still picture's file says about how it was seen (post::PictureInfo, for Ward's
// pcond sampling): the view of a Radiance picture's VIEW lines, parsed as Radiance's sscanview reads
// the options pcond uses (-vt? type, -vh, -vv; the others are skipped with their arguments; later
// options override earlier ones; Radiance's default view is 45 x 45 degrees perspective), and its
// PIXASPECT. Files without a VIEW (every OpenEXR, most photographs) have none: pcond then assumes a
// 40-degree view on the longer axis (tone/PcondView.h).
#pragma once

#include "image/Image.h"
#include "post/PostTypes.h"

#include <optional>
#include <string_view>

namespace post {

/// The view of a VIEW line's options, or nullopt when it sets none of them.
std::optional<PictureView> parseRadianceView(std::string_view options);

/// A still picture's PictureInfo from its Radiance header (nullopt: not a Radiance picture).
PictureInfo pictureInfoOf(const std::optional<image::RadianceHeader>& radiance);

}  // namespace post
