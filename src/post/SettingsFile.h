// SettingsFile.h: settings files, the JSON form of PipelineParameters: one flat object from keys to
// values ({"histogram.bins": 256, "ward.display_max": 100, "tonemap.operator": "ward"}), booleans,
// numbers and strings as the key's type wants (an enum also takes a number, "histogram.downsample": 2).
// Saving writes every key; a file may hold any subset, and keys it lacks keep their value. A file is
// a set of values, not a script: it is applied in listParameters() order (method choices first),
// whatever the order in the file. Keys under "layout." belong to the app's panel layout
// (ui/PanelLayout.h): the pipeline skips them, readSettingsSection reads them, and the app's Save
// writes them after the pipeline's (extraKeys). Read with scene::JsonReader (strict RFC 8259, positions kept) so
// that every error names the file, the line and the key.
#pragma once

#include "post/PipelineParameters.h"

#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace post {

/// The file's assignments, origin "FILE:LINE", in listParameters() order; throws std::runtime_error
/// with one line naming the file (and line and key) when it cannot be read, is not JSON, is not an
/// object, has an unknown key or a value of the wrong kind, type or range.
std::vector<SettingAssignment> readSettingsFile(const std::filesystem::path& path);
/// The same for text already read; `source` names it in messages.
std::vector<SettingAssignment> parseSettingsJson(const std::string& text, const std::string& source);

/// Keys of another part of the app (key, value as JSON text), written after the pipeline's.
using ExtraSettingKeys = std::vector<std::pair<std::string, std::string>>;
/// The prefix of the keys that are the app's panel layout, not the pipeline's.
inline constexpr std::string_view kLayoutKeyPrefix = "layout.";

/// Every key and its current value as the JSON text of a settings file, then `extraKeys`.
std::string settingsToJson(const PipelineParameters& parameters, const ExtraSettingKeys& extraKeys = {});
/// Writes settingsToJson atomically; throws std::runtime_error naming the file when it cannot.
void writeSettingsFile(const std::filesystem::path& path,
                       const PipelineParameters& parameters,
                       const ExtraSettingKeys& extraKeys = {});

/// The file's keys that start with `prefix` (the layout's) and their scalar values as text (true,
/// false, a number as --set writes it, a string's content); throws as readSettingsFile does when the
/// file cannot be read or is not a JSON object.
std::map<std::string, std::string> readSettingsSection(const std::filesystem::path& path, std::string_view prefix);
std::map<std::string, std::string> parseSettingsSection(const std::string& text,
                                                        const std::string& source,
                                                        std::string_view prefix);

/// Reads the file and applies it; returns the warnings of PipelineParameters::apply.
std::vector<std::string> loadSettingsFile(const std::filesystem::path& path, PipelineParameters& parameters);

}  // namespace post
