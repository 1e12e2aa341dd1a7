// SettingsFile.h: settings files, the JSON form of PipelineParameters: one flat object from keys to
// values ({"histogram.bins": 256, "ward.display_max": 100, "tonemap.operator": "ward"}), booleans,
// numbers and strings as the key's type wants (an enum also takes a number, "histogram.downsample": 2).
// Saving writes every key; a file may hold any subset, and keys it lacks keep their value. A file is
// a set of values, not a script: it is applied in listParameters() order (method choices first),
// whatever the order in the file. Read with scene::JsonReader (strict RFC 8259, positions kept) so
// that every error names the file, the line and the key.
#pragma once

#include "post/PipelineParameters.h"

#include <filesystem>
#include <string>
#include <vector>

namespace post {

/// The file's assignments, origin "FILE:LINE", in listParameters() order; throws std::runtime_error
/// with one line naming the file (and line and key) when it cannot be read, is not JSON, is not an
/// object, has an unknown key or a value of the wrong kind, type or range.
std::vector<SettingAssignment> readSettingsFile(const std::filesystem::path& path);
/// The same for text already read; `source` names it in messages.
std::vector<SettingAssignment> parseSettingsJson(const std::string& text, const std::string& source);

/// Every key and its current value as the JSON text of a settings file.
std::string settingsToJson(const PipelineParameters& parameters);
/// Writes settingsToJson atomically; throws std::runtime_error naming the file when it cannot.
void writeSettingsFile(const std::filesystem::path& path, const PipelineParameters& parameters);

/// Reads the file and applies it; returns the warnings of PipelineParameters::apply.
std::vector<std::string> loadSettingsFile(const std::filesystem::path& path, PipelineParameters& parameters);

}  // namespace post
