// PipelineParameters.h: every setting of the post pipeline as a key (settings as data).
//
// Keys: the pipeline's own ("histogram.method", "histogram.bins", "histogram.range", ...,
// "scan.method", "tonemap.operator") and, for every histogram method, scan and tone operator in the
// registries, the keys of its parameters() ("ward.display_max", "percentile.key", ...), whether it is
// in use or not. A key of a method in use reads and writes the live object (the same fields its ui()
// edits); a key of one not in use reads and writes the pipeline's ParkedParameters, applied when that
// method is chosen. The command line (--set, --settings), settings files (post/SettingsFile.h), the
// UI's Save/Load and the capture metadata all go through this one table.
#pragma once

#include "post/Parameter.h"

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace post {

class PostPipeline;

/// One KEY=VALUE to apply; `origin` names where it came from in messages ("--set", "FILE:LINE").
struct SettingAssignment
{
    std::string key;
    std::string value;
    std::string origin;
};

/// Every key in the order a settings file is applied: the method choices first, then the other
/// pipeline keys, then each tone operator's, histogram method's and scan's keys in registry order.
/// Needs no GL context (methods are constructed, never run).
const std::vector<ParameterInfo>& listParameters();
/// nullptr when the key is unknown.
const ParameterInfo* findParameter(std::string_view key);
/// Parses "KEY=VALUE" and checks key and value against listParameters(); throws std::runtime_error
/// "ORIGIN: KEY: problem" (or "ORIGIN: unknown key 'KEY' ...").
SettingAssignment parseAssignment(std::string_view text, const std::string& origin);

/// "histogram.bins  int  1..4096  256  Histogram bins" lines for `hdrlab settings --list`.
std::string formatParameterTable();

class PipelineParameters
{
public:
    explicit PipelineParameters(PostPipeline& pipeline);

    /// Checks every assignment first (nothing changes when one is bad), then applies them in order;
    /// the pipeline keys together through one PostPipeline::applySettings (so histogram.log_min and
    /// log_max may move past each other), then the methods' keys. Throws std::runtime_error
    /// "ORIGIN: KEY: problem" for an unknown key, a bad value or a choice the pipeline refuses (an
    /// unavailable method). Returns warnings (bins clamped, a value adjusted by the limits between settings).
    std::vector<std::string> apply(const std::vector<SettingAssignment>& assignments);
    /// Shorthand for one assignment from `origin`.
    std::vector<std::string> set(std::string_view key, std::string_view value, const std::string& origin = "--set");

    /// The current value of `key` as text; throws std::runtime_error for an unknown key.
    std::string get(std::string_view key) const;
    /// Every key with its current value, in listParameters() order.
    std::vector<std::pair<std::string, std::string>> values() const;

private:
    PostPipeline& mPipeline;
};

}  // namespace post
