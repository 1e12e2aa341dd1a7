#include "post/PipelineParameters.h"

#include "post/tonemap/EnginePresets.h"

#include "post/PostPipeline.h"
#include "post/histogram/HistogramMethod.h"
#include "post/scan/ScanMethod.h"
#include "post/tonemap/ToneOperator.h"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>

namespace post {
namespace {

/// A key of the pipeline itself, bound to a field of PipelineSettings.
struct PipelineKey
{
    ParameterInfo info;
    std::function<ParameterValue(const PipelineSettings&)> get;
    std::function<void(PipelineSettings&, const ParameterValue&)> set;
};

template <typename Registry>
std::vector<std::string> registryIds(const Registry& registry)
{
    std::vector<std::string> ids;
    for (const auto& entry : registry)
        ids.emplace_back(entry.id);
    return ids;
}

ParameterInfo enumInfo(std::string key, std::string label, std::vector<std::string> choices, std::string def)
{
    return {std::move(key), std::move(label), ParameterType::Enum, 0.0, 0.0, std::move(choices), std::move(def)};
}

ParameterInfo numberInfo(std::string key,
                         std::string label,
                         ParameterType type,
                         double min,
                         double max,
                         ParameterValue d)
{
    return {std::move(key), std::move(label), type, min, max, {}, std::move(d)};
}

/// The registries' versions a table was built for: it is built again when a method or operator has
/// been registered at run time since (the enum choices and the method keys come from the registries).
std::pair<std::uint64_t, std::uint64_t> registryVersions()
{
    return {toneOperatorRegistryVersion(), histogramMethodRegistryVersion()};
}

/// local_exposure.*: Unreal Engine 5's local exposure settings (tone/LocalExposureSettings.h), Unreal's defaults.
void appendLocalExposureKeys(std::vector<PipelineKey>& k, const LocalExposureSettings& d)
{
    k.push_back(
        {enumInfo("local_exposure.method", "Local exposure (Unreal Engine 5's; off: the global picture)",
                  {"off", "bilateral", "fusion"}, std::string(toString(d.method))),
         [](const PipelineSettings& s) { return ParameterValue(std::string(toString(s.localExposure.method))); },
         [](PipelineSettings& s, const ParameterValue& v) {
             s.localExposure.method =
                 parseLocalExposureMethod(std::get<std::string>(v)).value_or(LocalExposureMethod::Off);
         }});
    k.push_back(
        {enumInfo("local_exposure.structure",
                  "Local exposure grid: in the histogram pass (fused) or a pass of its own (separate)",
                  {"fused", "separate"}, std::string(toString(d.structure))),
         [](const PipelineSettings& s) { return ParameterValue(std::string(toString(s.localExposure.structure))); },
         [](PipelineSettings& s, const ParameterValue& v) {
             s.localExposure.structure =
                 parseLocalExposureStructure(std::get<std::string>(v)).value_or(LocalExposureStructure::Fused);
         }});
    const auto number = [&k](std::string key, std::string label, double min, double max, float value,
                             float LocalExposureSettings::*field) {
        k.push_back({numberInfo(std::move(key), std::move(label), ParameterType::Float, min, max, double(value)),
                     [field](const PipelineSettings& s) { return ParameterValue(double(s.localExposure.*field)); },
                     [field](PipelineSettings& s, const ParameterValue& v) {
                         s.localExposure.*field = float(std::get<double>(v));
                     }});
    };
    number("local_exposure.highlight_contrast_scale", "Local exposure: highlight contrast (base above middle grey)",
           0.0, 1.0, d.highlightContrastScale, &LocalExposureSettings::highlightContrastScale);
    number("local_exposure.shadow_contrast_scale", "Local exposure: shadow contrast (base below middle grey)", 0.0, 1.0,
           d.shadowContrastScale, &LocalExposureSettings::shadowContrastScale);
    number("local_exposure.detail_strength", "Local exposure: detail strength", 0.0, 4.0, d.detailStrength,
           &LocalExposureSettings::detailStrength);
    number("local_exposure.blurred_luminance_blend", "Local exposure: blurred luminance blend (0: bilateral)", 0.0, 1.0,
           d.blurredLuminanceBlend, &LocalExposureSettings::blurredLuminanceBlend);
    number("local_exposure.kernel_size_percent", "Local exposure: blur kernel (% of the view's width)", 1.0, 100.0,
           d.kernelSizePercent, &LocalExposureSettings::kernelSizePercent);
    number("local_exposure.middle_grey_bias", "Local exposure: middle grey bias (EV)", -15.0, 15.0, d.middleGreyBias,
           &LocalExposureSettings::middleGreyBias);
}

std::vector<PipelineKey> makePipelineKeys()
{
    return [] {
        const PipelineSettings d;
        const std::vector<std::string> downsampleChoices{"1", "2", "4", "8"};
        std::vector<PipelineKey> k;
        k.push_back(
            {enumInfo("histogram.method", "Histogram method", registryIds(histogramMethodRegistry()),
                      d.histogramMethod),
             [](const PipelineSettings& s) { return ParameterValue(s.histogramMethod); },
             [](PipelineSettings& s, const ParameterValue& v) { s.histogramMethod = std::get<std::string>(v); }});
        k.push_back({enumInfo("scan.method", "Scan method", registryIds(scanMethodRegistry()), d.scanMethod),
                     [](const PipelineSettings& s) { return ParameterValue(s.scanMethod); },
                     [](PipelineSettings& s, const ParameterValue& v) { s.scanMethod = std::get<std::string>(v); }});
        k.push_back({enumInfo("tonemap.operator", "Tone operator", registryIds(toneOperatorRegistry()), d.toneOperator),
                     [](const PipelineSettings& s) { return ParameterValue(s.toneOperator); },
                     [](PipelineSettings& s, const ParameterValue& v) { s.toneOperator = std::get<std::string>(v); }});
        k.push_back({numberInfo("histogram.bins", "Histogram bins", ParameterType::Int, 1.0,
                                double(hd::kMaxHistogramBins), std::int64_t(d.spec.binCount)),
                     [](const PipelineSettings& s) { return ParameterValue(std::int64_t(s.spec.binCount)); },
                     [](PipelineSettings& s, const ParameterValue& v) {
                         s.spec.binCount = std::uint32_t(std::get<std::int64_t>(v));
                     }});
        k.push_back({enumInfo("histogram.range", "Histogram range", {"manual", "auto"},
                              d.rangeMode == RangeMode::Auto ? "auto" : "manual"),
                     [](const PipelineSettings& s) {
                         return ParameterValue(std::string(s.rangeMode == RangeMode::Auto ? "auto" : "manual"));
                     },
                     [](PipelineSettings& s, const ParameterValue& v) {
                         s.rangeMode = std::get<std::string>(v) == "auto" ? RangeMode::Auto : RangeMode::Manual;
                     }});
        k.push_back({numberInfo("histogram.log_min", "Manual range min (log2 luminance)", ParameterType::Float, -64.0,
                                64.0, double(d.logMin)),
                     [](const PipelineSettings& s) { return ParameterValue(double(s.logMin)); },
                     [](PipelineSettings& s, const ParameterValue& v) { s.logMin = float(std::get<double>(v)); }});
        k.push_back({numberInfo("histogram.log_max", "Manual range max (log2 luminance)", ParameterType::Float, -64.0,
                                64.0, double(d.logMax)),
                     [](const PipelineSettings& s) { return ParameterValue(double(s.logMax)); },
                     [](PipelineSettings& s, const ParameterValue& v) { s.logMax = float(std::get<double>(v)); }});
        k.push_back(
            {numberInfo("histogram.auto_range_speed", "Automatic range smoothing (1/s, 0 = none)", ParameterType::Float,
                        0.0, 1000.0, double(d.autoRangeSpeed)),
             [](const PipelineSettings& s) { return ParameterValue(double(s.autoRangeSpeed)); },
             [](PipelineSettings& s, const ParameterValue& v) { s.autoRangeSpeed = float(std::get<double>(v)); }});
        k.push_back(
            {enumInfo("histogram.out_of_range", "Out-of-range pixels", {"clamp", "separate"},
                      d.spec.outOfRange == OutOfRange::Separate ? "separate" : "clamp"),
             [](const PipelineSettings& s) {
                 return ParameterValue(std::string(s.spec.outOfRange == OutOfRange::Separate ? "separate" : "clamp"));
             },
             [](PipelineSettings& s, const ParameterValue& v) {
                 s.spec.outOfRange = std::get<std::string>(v) == "separate" ? OutOfRange::Separate : OutOfRange::Clamp;
             }});
        k.push_back(
            {enumInfo("histogram.downsample", "Histogram input downsampling (1 = full frame)", downsampleChoices,
                      std::to_string(d.downsample)),
             [](const PipelineSettings& s) { return ParameterValue(std::to_string(s.downsample)); },
             [](PipelineSettings& s, const ParameterValue& v) { s.downsample = std::stoi(std::get<std::string>(v)); }});
        k.push_back(
            {numberInfo("tonemap.one_pass",
                        "One pass: the histogram pass applies the previous frame's curve (one read of the frame)",
                        ParameterType::Bool, 0.0, 1.0, d.onePass),
             [](const PipelineSettings& s) { return ParameterValue(s.onePass); },
             [](PipelineSettings& s, const ParameterValue& v) { s.onePass = std::get<bool>(v); }});
        k.push_back({numberInfo("tonemap.curve_in_histogram",
                                "Curve in the histogram pass: its last workgroup scans and builds the curve (no "
                                "curve dispatch)",
                                ParameterType::Bool, 0.0, 1.0, d.curveInHistogram),
                     [](const PipelineSettings& s) { return ParameterValue(s.curveInHistogram); },
                     [](PipelineSettings& s, const ParameterValue& v) { s.curveInHistogram = std::get<bool>(v); }});
        k.push_back({numberInfo("tonemap.view_local_mean", "View local mean (CUDA SAT)", ParameterType::Bool, 0.0, 1.0,
                                d.viewLocalMean),
                     [](const PipelineSettings& s) { return ParameterValue(s.viewLocalMean); },
                     [](PipelineSettings& s, const ParameterValue& v) { s.viewLocalMean = std::get<bool>(v); }});
        k.push_back({enumInfo("input.units", "Input units (auto: radiance for Radiance pictures, else plain)",
                              {"auto", "radiance", "plain"}, std::string(toString(d.inputUnits))),
                     [](const PipelineSettings& s) { return ParameterValue(std::string(toString(s.inputUnits))); },
                     [](PipelineSettings& s, const ParameterValue& v) {
                         s.inputUnits = parseUnitsMode(std::get<std::string>(v)).value_or(UnitsMode::Auto);
                     }});
        k.push_back({numberInfo("input.cd_per_unit", "cd/m^2 per input unit (0 = by input.units)", ParameterType::Float,
                                0.0, 1e9, d.cdPerUnit),
                     [](const PipelineSettings& s) { return ParameterValue(s.cdPerUnit); },
                     [](PipelineSettings& s, const ParameterValue& v) { s.cdPerUnit = std::get<double>(v); }});
        k.push_back(
            {enumInfo("display.aa", "Anti-aliasing (rendered scenes)", {"fxaa", "off"},
                      std::string(antiAliasingName(d.antiAliasing))),
             [](const PipelineSettings& s) { return ParameterValue(std::string(antiAliasingName(s.antiAliasing))); },
             [](PipelineSettings& s, const ParameterValue& v) {
                 s.antiAliasing = parseAntiAliasing(std::get<std::string>(v)).value_or(AntiAliasing::Fxaa);
             }});
        k.push_back({enumInfo("display.target", "Display (sdr: sRGB 8-bit; hdr10: PQ, BT.2020, 16-bit files)",
                              {"sdr", "hdr10"}, std::string(toString(d.display.target))),
                     [](const PipelineSettings& s) { return ParameterValue(std::string(toString(s.display.target))); },
                     [](PipelineSettings& s, const ParameterValue& v) {
                         s.display.target = parseDisplayTarget(std::get<std::string>(v)).value_or(DisplayTarget::Sdr);
                     }});
        k.push_back(
            {numberInfo("display.peak", "HDR10 display peak (cd/m^2)", ParameterType::Float, double(kMinDisplayPeak),
                        double(kMaxDisplayPeak), double(d.display.peak)),
             [](const PipelineSettings& s) { return ParameterValue(double(s.display.peak)); },
             [](PipelineSettings& s, const ParameterValue& v) { s.display.peak = float(std::get<double>(v)); }});
        appendLocalExposureKeys(k, d.localExposure);
        return k;
    }();
}

const std::vector<PipelineKey>& pipelineKeys()
{
    static std::vector<PipelineKey> keys;
    static std::optional<std::pair<std::uint64_t, std::uint64_t>> builtFor;
    if (builtFor != registryVersions()) {
        keys = makePipelineKeys();
        builtFor = registryVersions();
    }
    return keys;
}

const PipelineKey* findPipelineKey(std::string_view key)
{
    for (const PipelineKey& k : pipelineKeys())
        if (k.info.key == key)
            return &k;
    return nullptr;
}

template <typename Registry>
void appendMethodInfos(std::vector<ParameterInfo>& out, const Registry& registry)
{
    for (const auto& entry : registry) {
        auto method = entry.create();
        if (!method)
            continue;
        for (const Parameter& p : method->parameters().items)
            out.push_back(p.info);
    }
}

std::runtime_error keyError(const std::string& origin, std::string_view key, const std::string& problem)
{
    return std::runtime_error(origin + ": " + std::string(key) + ": " + problem);
}

}  // namespace

const std::vector<ParameterInfo>& listParameters()
{
    static std::vector<ParameterInfo> list;
    static std::optional<std::pair<std::uint64_t, std::uint64_t>> builtFor;
    if (builtFor == registryVersions())
        return list;
    builtFor = registryVersions();
    list = [] {
        std::vector<ParameterInfo> out;
        for (const PipelineKey& k : pipelineKeys())
            out.push_back(k.info);
        appendMethodInfos(out, toneOperatorRegistry());
        appendMethodInfos(out, histogramMethodRegistry());
        appendMethodInfos(out, scanMethodRegistry());
        return out;
    }();
    return list;
}

const ParameterInfo* findParameter(std::string_view key)
{
    for (const ParameterInfo& info : listParameters())
        if (info.key == key)
            return &info;
    return nullptr;
}

SettingAssignment parseAssignment(std::string_view text, const std::string& origin)
{
    const std::size_t equals = text.find('=');
    if (equals == std::string_view::npos || equals == 0)
        throw std::runtime_error(origin + ": '" + std::string(text) + "' is not KEY=VALUE");
    SettingAssignment a{std::string(text.substr(0, equals)), std::string(text.substr(equals + 1)), origin};
    const ParameterInfo* info = findParameter(a.key);
    if (!info)
        throw std::runtime_error(origin + ": unknown key '" + a.key + "' (hdrlab settings --list shows every key)");
    std::string error;
    if (!parseParameterValue(*info, a.value, error))
        throw keyError(origin, a.key, error);
    return a;
}

std::string formatParameterTable()
{
    const std::vector<ParameterInfo>& list = listParameters();
    std::size_t keyWidth = 3, defaultWidth = 7, labelWidth = 7;
    for (const ParameterInfo& info : list) {
        keyWidth = std::max(keyWidth, info.key.size());
        defaultWidth = std::max(defaultWidth, formatParameterValue(info, info.defaultValue).size());
        labelWidth = std::max(labelWidth, info.label.size());
    }
    auto pad = [](std::string text, std::size_t width) {
        text.resize(std::max(width, text.size()), ' ');
        return text;
    };
    std::ostringstream out;
    out << pad("key", keyWidth) << "  " << pad("type", 5) << "  " << pad("default", defaultWidth) << "  "
        << pad("setting", labelWidth) << "  values\n";
    for (const ParameterInfo& info : list)
        out << pad(info.key, keyWidth) << "  " << pad(std::string(toString(info.type)), 5) << "  "
            << pad(formatParameterValue(info, info.defaultValue), defaultWidth) << "  " << pad(info.label, labelWidth)
            << "  " << domainText(info) << "\n";
    return out.str();
}

PipelineParameters::PipelineParameters(PostPipeline& pipeline) : mPipeline(pipeline)
{
}

std::vector<std::string> PipelineParameters::apply(const std::vector<SettingAssignment>& assignments)
{
    struct Parsed
    {
        const SettingAssignment* assignment;
        const ParameterInfo* info;
        ParameterValue value;
    };
    std::vector<Parsed> pipelineSets, methodSets;
    for (const SettingAssignment& a : assignments) {
        const ParameterInfo* info = findParameter(a.key);
        if (!info)
            throw std::runtime_error(a.origin + ": unknown key '" + a.key +
                                     "' (hdrlab settings --list shows every key)");
        std::string error;
        std::optional<ParameterValue> value = parseParameterValue(*info, a.value, error);
        if (!value)
            throw keyError(a.origin, a.key, error);
        (findPipelineKey(a.key) ? pipelineSets : methodSets).push_back({&a, info, *value});
    }

    std::vector<std::string> warnings;
    if (!pipelineSets.empty()) {
        PipelineSettings wanted = mPipeline.settings();
        for (const Parsed& p : pipelineSets)
            findPipelineKey(p.info->key)->set(wanted, p.value);
        std::string message;
        mPipeline.applySettings(wanted, &message);
        const PipelineSettings& got = mPipeline.settings();
        for (const Parsed& p : pipelineSets) {
            const PipelineKey& key = *findPipelineKey(p.info->key);
            const std::string want = formatParameterValue(key.info, key.get(wanted));
            const std::string have = formatParameterValue(key.info, key.get(got));
            if (want == have)
                continue;
            if (key.info.key == "histogram.bins")  // clamped to what the method supports: a note
                warnings.push_back(p.assignment->origin + ": histogram.bins: " + message);
            else
                throw keyError(p.assignment->origin, key.info.key, message.empty() ? "refused" : message);
        }
    }

    // The methods' keys: live on the methods in use (one commit each), parked for the others.
    std::vector<std::pair<ParameterList, bool>> live;  // list, touched
    live.emplace_back(mPipeline.histogramMethod().parameters(), false);
    if (ScanMethod* scan = mPipeline.scanMethod())
        live.emplace_back(scan->parameters(), false);
    live.emplace_back(mPipeline.toneOperator().parameters(), false);
    for (const Parsed& p : methodSets) {
        bool applied = false;
        for (auto& [list, touched] : live)
            for (const Parameter& parameter : list.items)
                if (parameter.info.key == p.info->key) {
                    parameter.set(p.value);
                    touched = applied = true;
                }
        if (!applied) {
            mPipeline.parkedParameters().store(p.info->key, formatParameterValue(*p.info, p.value));
            // A preset asked for on the command line but kept for an operator not in use would otherwise
            // be ignored without a word (issue 35): say which operator it waits for.
            const std::string_view key = p.info->key;
            if (p.assignment->origin.starts_with("--set") && key.ends_with(".preset")) {
                const std::string owner(key.substr(0, key.find('.')));
                warnings.push_back(p.assignment->origin + ": " + p.info->key + "=" + p.assignment->value +
                                   " is kept for the " + owner + " operator, which is not in use (the operator is " +
                                   std::string(mPipeline.toneOperator().id()) + "; add --operator " + owner + ")");
            }
        }
    }
    for (auto& [list, touched] : live)
        if (touched && list.commit)
            list.commit();
    // An operator key that also sets the histogram (percentile.preset: bins, range, clamp) queued it;
    // it is applied after the batch's pipeline keys, as the Pipeline panel does after ui().
    if (std::optional<HistogramRequest> request = mPipeline.toneOperator().takeHistogramRequest()) {
        PipelineSettings wanted = mPipeline.settings();
        applyHistogramRequest(*request, wanted);
        std::string message;
        mPipeline.applySettings(wanted, &message);
    }
    // Limits between settings (a display min above the max...) may have changed what was asked for.
    for (const Parsed& p : methodSets) {
        const std::string want = formatParameterValue(*p.info, p.value);
        const std::string have = get(p.info->key);
        // A preset refined by the batch's other keys (docs/USAGE.md suggests it) reads "custom": asked for.
        const bool refinedPreset = p.info->key.ends_with(".preset") && have == "custom" && methodSets.size() > 1;
        if (want != have && !refinedPreset)
            warnings.push_back(p.assignment->origin + ": " + p.info->key + ": " + want + " became " + have +
                               " (limits between this operator's settings)");
    }
    return warnings;
}

std::vector<std::string> PipelineParameters::set(std::string_view key,
                                                 std::string_view value,
                                                 const std::string& origin)
{
    return apply({SettingAssignment{std::string(key), std::string(value), origin}});
}

std::string PipelineParameters::get(std::string_view key) const
{
    if (const PipelineKey* k = findPipelineKey(key))
        return formatParameterValue(k->info, k->get(mPipeline.settings()));
    const ParameterInfo* info = findParameter(key);
    if (!info)
        throw std::runtime_error("unknown key '" + std::string(key) + "' (hdrlab settings --list shows every key)");
    std::vector<ParameterList> live;
    live.push_back(mPipeline.histogramMethod().parameters());
    if (ScanMethod* scan = mPipeline.scanMethod())
        live.push_back(scan->parameters());
    live.push_back(mPipeline.toneOperator().parameters());
    for (const ParameterList& list : live)
        for (const Parameter& parameter : list.items)
            if (parameter.info.key == key)
                return formatParameterValue(parameter.info, parameter.get());
    if (const std::string* parked = mPipeline.parkedParameters().find(key))
        return *parked;
    return formatParameterValue(*info, info->defaultValue);
}

std::vector<std::pair<std::string, std::string>> PipelineParameters::values() const
{
    std::vector<std::pair<std::string, std::string>> out;
    for (const ParameterInfo& info : listParameters())
        out.emplace_back(info.key, get(info.key));
    return out;
}

}  // namespace post
