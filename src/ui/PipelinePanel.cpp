#include "ui/PipelinePanel.h"

#include "post/tonemap/EnginePresets.h"
#include "ui/PanelColumns.h"
#include "ui/Widgets.h"

#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <string_view>
#include <utility>

namespace ui {
namespace {

constexpr float kRangeLimit = 40.0f;  // slider bounds of the manual range, log2 luminance

template <typename Registry>
std::vector<PipelinePanel::Entry> listEntries(const Registry& registry, const post::GpuCaps& caps)
{
    std::vector<PipelinePanel::Entry> out;
    for (const auto& registryEntry : registry) {
        auto method = registryEntry.create();
        if (!method)
            continue;
        PipelinePanel::Entry entry{std::string(method->id()), std::string(method->label()),
                                   std::string(method->description())};
        if constexpr (requires { method->availability(caps); }) {
            post::Availability availability = method->availability(caps);
            entry.available = availability.available;
            entry.reason = availability.reason;
        }
        if constexpr (requires { method->needsFusedProducer(); })
            entry.needsFusedProducer = method->needsFusedProducer();
        out.push_back(std::move(entry));
    }
    return out;
}

const PipelinePanel::Entry* findEntry(const std::vector<PipelinePanel::Entry>& list, const std::string& id)
{
    for (const PipelinePanel::Entry& entry : list)
        if (entry.id == id)
            return &entry;
    return nullptr;
}

/// A combo over `list` as wide as the column (the names are long: ui/PanelLayout.h sizes the column
/// for the longest), its label and the method's description as a help marker on the line above;
/// unavailable entries are greyed out with the reason as tooltip. Returns true when the user picked
/// another entry (written to `current`).
bool drawMethodCombo(const char* label,
                     const char* id,
                     const std::vector<PipelinePanel::Entry>& list,
                     std::string& current,
                     std::string_view description)
{
    const PipelinePanel::Entry* selected = findEntry(list, current);
    bool changed = false;
    textUnformatted(label);
    helpMarker(std::string(description).c_str());
    ImGui::SetNextItemWidth(-FLT_MIN);
    std::vector<std::string> names;
    for (const PipelinePanel::Entry& entry : list)
        names.push_back(entry.label);
    if (beginNameCombo(id, selected ? selected->label : current, names)) {
        for (const PipelinePanel::Entry& entry : list) {
            ImGui::BeginDisabled(!entry.available);
            bool isSelected = entry.id == current;
            if (ImGui::Selectable(entry.label.c_str(), isSelected) && !isSelected) {
                current = entry.id;
                changed = true;
            }
            ImGui::EndDisabled();
            std::string tip = entry.id + "\n" + (entry.available ? entry.description : "unavailable: " + entry.reason);
            showTooltipOnHover(tip.c_str());
            if (isSelected)
                ImGui::SetItemDefaultFocus();
        }
        ImGui::EndCombo();
    }
    return changed;
}

/// For a CUDA method: how it reaches the GL frame and buffers (shared memory, or map/unmap and why).
template <typename Method>
void drawCudaInteropLine(const Method& method, const post::GpuCaps& caps)
{
    if (method.backend() != post::Backend::Cuda || caps.cudaInterop.empty())
        return;
    TextDisabledWrapped("interop: " + caps.cudaInterop);
}

/// The method's own widgets inside an ID scope; a change restarts the statistics.
template <typename Method>
void drawMethodUi(Method& method, profiling::Profiler& profiler)
{
    ImGui::PushID(&method);
    {
        // The method's widgets are drawn in post/, without the wrappers: the scope is their net.
        const TextFitPanel scope("Pipeline (" + std::string(method.id()) + " settings)");
        if (method.ui())
            profiler.resetStats();
    }
    ImGui::PopID();
    std::string status = method.status();
    if (!status.empty())
        TextDisabledWrapped(status);
}

}  // namespace

PipelinePanel::PipelinePanel(const post::GpuCaps& caps)
    : mHistogramMethods(listEntries(post::histogramMethodRegistry(), caps)),
      mScanMethods(listEntries(post::scanMethodRegistry(), caps)),
      mToneOperators(listEntries(post::toneOperatorRegistry(), caps))
{
}

namespace {
/// A method's limits in exactly two lines (the whole text on hover), so what follows stays put
/// whichever method is chosen.
void drawLimitsInTwoLines(const std::string& limits)
{
    const float limitsTop = ImGui::GetCursorPosY();
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
    if (!limits.empty())
        textWrappedAtMost("limits: " + limits, 2);
    ImGui::PopStyleColor();
    const float limitsBottom = limitsTop + 2.0f * ImGui::GetTextLineHeightWithSpacing();
    if (const float rest = limitsBottom - ImGui::GetCursorPosY(); rest > ImGui::GetStyle().ItemSpacing.y)
        ImGui::Dummy(ImVec2(1.0f, rest - ImGui::GetStyle().ItemSpacing.y));
}
}  // namespace

bool PipelinePanel::drawMethodCombos(post::PostPipeline& pipeline, post::PipelineSettings& wanted) const
{
    bool changed = false;
    // A fused method is greyed out where this frame's source cannot bin for it (not the scene's
    // deferred lighting: forward lighting, an image, a sequence, split view B).
    std::vector<Entry> methods = mHistogramMethods;
    for (Entry& entry : methods)
        if (entry.available && entry.needsFusedProducer && !pipeline.hasFusedHistogramProducer()) {
            entry.available = false;
            entry.reason = std::string(post::kNeedsFusedProducer);
        }
    changed |= drawMethodCombo("histogram method", "##histogram-method", methods, wanted.histogramMethod,
                               pipeline.histogramMethod().description());
    if (const post::ScanMethod* scan = pipeline.scanMethod()) {
        changed |= drawMethodCombo("scan", "##scan-method", mScanMethods, wanted.scanMethod, scan->description());
    } else {
        // The same height as the scan combo (its names and "built in"), so the operator's stays put.
        textUnformatted("scan");
        helpMarker("The histogram method produces the cumulative histogram itself, so no scan runs.");
        ImGui::SetNextItemWidth(-FLT_MIN);
        std::vector<std::string> names{"built in"};
        for (const Entry& entry : mScanMethods)
            names.push_back(entry.label);
        ImGui::BeginDisabled();
        if (beginNameCombo("##scan-method", "built in", names))
            ImGui::EndCombo();
        ImGui::EndDisabled();
    }
    changed |= drawMethodCombo("tone operator", "##tone-operator", mToneOperators, wanted.toneOperator,
                               pipeline.toneOperator().description());
    return changed;
}

PipelinePanelActions PipelinePanel::draw(post::PostPipeline& pipeline, profiling::Profiler& profiler)
{
    PipelinePanelActions actions;
    const TextFitPanel scope("Pipeline");
    post::PipelineSettings wanted = pipeline.settings();
    bool changed = false;

    // The three method combos first, each as tall as its longest name: a method's own widgets (below,
    // under the stage headers) never move them, whichever method or operator is chosen.
    changed |= drawMethodCombos(pipeline, wanted);

    if (ImGui::CollapsingHeader("Histogram", ImGuiTreeNodeFlags_DefaultOpen)) {
        post::HistogramMethod& method = pipeline.histogramMethod();
        drawLimitsInTwoLines(method.limits());

        int bins = int(wanted.spec.binCount);
        if (ImGui::SliderInt("bins", &bins, 1, int(hd::kMaxHistogramBins), "%d", ImGuiSliderFlags_Logarithmic)) {
            wanted.spec.binCount = std::uint32_t(std::clamp(bins, 1, int(hd::kMaxHistogramBins)));
            changed = true;
        }
        checkFieldFits("bins", std::to_string(hd::kMaxHistogramBins));
        int rangeMode = wanted.rangeMode == post::RangeMode::Auto ? 1 : 0;
        textUnformatted("range");
        ImGui::SameLine();
        changed |= ImGui::RadioButton("manual", &rangeMode, 0);
        checkItemFits("manual");
        ImGui::SameLine();
        changed |= ImGui::RadioButton("auto", &rangeMode, 1);
        checkItemFits("auto");
        helpMarker(
            "Manual: a fixed log2-luminance range. Auto: the frame's min/max log2 luminance, found by a GPU "
            "reduction and smoothed over time; it never leaves the GPU.");
        wanted.rangeMode = rangeMode == 1 ? post::RangeMode::Auto : post::RangeMode::Manual;
        if (wanted.rangeMode == post::RangeMode::Manual) {
            float range[2] = {wanted.logMin, wanted.logMax};
            if (ImGui::DragFloat2("log2 min/max", range, 0.1f, -kRangeLimit, kRangeLimit, "%.1f")) {
                if (range[1] - range[0] >= 0.1f) {
                    wanted.logMin = range[0];
                    wanted.logMax = range[1];
                    changed = true;
                }
            }
            checkItemFits("log2 min/max");
        } else {
            changed |= ImGui::SliderFloat("smoothing 1/s", &wanted.autoRangeSpeed, 0.0f, 20.0f, "%.1f");
            checkFieldFits("smoothing 1/s", "20.0");
            helpMarker("How fast the automatic range follows the frame (0: at once).");
        }
        int policy = wanted.spec.outOfRange == post::OutOfRange::Separate ? 1 : 0;
        const char* policies[] = {"clamp", "apart"};
        checkComboFits(policies);
        if (ImGui::Combo("outside", &policy, policies, 2)) {
            wanted.spec.outOfRange = policy == 1 ? post::OutOfRange::Separate : post::OutOfRange::Clamp;
            changed = true;
        }
        checkItemFits("outside");
        helpMarker(
            "Pixels outside the range: clamp counts them in the end bins; apart counts them separately (the "
            "counters 'below' and 'above' under the histogram).");
        const int factors[] = {1, 2, 4, 8};
        int factorIndex =
            int(std::find(std::begin(factors), std::end(factors), wanted.downsample) - std::begin(factors));
        const char* factorNames[] = {"none", "1/2", "1/4", "1/8"};
        checkComboFits(factorNames);
        if (ImGui::Combo("downsample", &factorIndex, factorNames, 4)) {
            wanted.downsample = factors[std::clamp(factorIndex, 0, 3)];
            changed = true;
        }
        checkItemFits("downsample");
        helpMarker("Build the histogram from a box-downsampled copy of the frame (cheaper, smoother).");
        drawMethodUi(method, profiler);
        drawCudaInteropLine(method, pipeline.caps());
    }

    if (ImGui::CollapsingHeader("Scan", ImGuiTreeNodeFlags_DefaultOpen)) {
        post::ScanMethod* scan = pipeline.scanMethod();
        if (!scan) {
            TextDisabledWrapped("built in: the histogram method makes the cumulative histogram");
        } else {
            drawMethodUi(*scan, profiler);
            drawCudaInteropLine(*scan, pipeline.caps());
            if (scan->fusedIntoCurve()) {
                changed |= ImGui::Checkbox("curve in the histogram pass", &wanted.curveInHistogram);
                checkItemFits("curve in the histogram pass");
                helpMarker(
                    "The histogram's last workgroup scans the bins and builds the curve (percentile, equalize on "
                    "luminance with compute-shared-atomic): no curve dispatch, its time is in the histogram "
                    "row. Off: the curve's own dispatch (tonemap.curve_in_histogram).");
                if (pipeline.lastCurveInHistogram())
                    TextDisabledWrapped("this frame: scan and curve in the histogram pass");
            }
        }
    }

    if (ImGui::CollapsingHeader("Tone operator", ImGuiTreeNodeFlags_DefaultOpen)) {
        post::ToneOperator& tone = pipeline.toneOperator();
        drawMethodUi(tone, profiler);
        if (std::optional<post::HistogramRequest> request = tone.takeHistogramRequest()) {
            // An operator preset (percentile's engine presets) brings the histogram it was tuned for.
            post::applyHistogramRequest(*request, wanted);
            changed = true;
        }

        changed |= ImGui::Checkbox("one pass", &wanted.onePass);
        checkItemFits("one pass");
        helpMarker(
            "The histogram pass also makes the picture with the previous frame's curve: one read of the frame, "
            "one frame of curve latency, as engines run it (tonemap.one_pass; compute-shared-atomic).");
        if (wanted.onePass)
            TextDisabledWrapped(pipeline.lastFrameOnePass()
                                    ? "this frame: one pass"
                                    : "this frame: two passes (the method or settings need them)");

        // The summed-area table behind percentile's local adaptation, shown instead of the frame.
        const bool cudaAvailable = pipeline.caps().cudaAvailable;
        ImGui::BeginDisabled(!cudaAvailable);
        changed |= ImGui::Checkbox("view local mean (SAT)", &wanted.viewLocalMean);
        ImGui::EndDisabled();
        checkItemFits("view local mean (SAT)");
        helpMarker(cudaAvailable ? "Shows the mean log2 luminance around each pixel, from the CUDA summed-area table "
                                   "(Bilgic et al. 2010), as grey over the histogram range."
                                 : ("Unavailable: needs CUDA (" + pipeline.caps().cudaReason + ").").c_str());

        // display.aa: the display image of a rendered scene is anti-aliased after the apply pass.
        bool antiAliased = wanted.antiAliasing == post::AntiAliasing::Fxaa;
        if (ImGui::Checkbox("anti-aliasing", &antiAliased)) {
            wanted.antiAliasing = antiAliased ? post::AntiAliasing::Fxaa : post::AntiAliasing::Off;
            changed = true;
        }
        checkItemFits("anti-aliasing");
        helpMarker(
            "FXAA-style edge smoothing of the tone-mapped display image of a rendered scene (display/aa, "
            "display.aa). The HDR frame, the histogram and --verify are untouched; photos are never smoothed.");

        // display.target / display.peak: HDR10 output (tone/DisplayOutput.h).
        bool hdr10 = wanted.display.hdr();
        if (ImGui::Checkbox("HDR10", &hdr10)) {
            wanted.display.target = hdr10 ? post::DisplayTarget::Hdr10 : post::DisplayTarget::Sdr;
            changed = true;
        }
        checkItemFits("HDR10");
        helpMarker(
            "Forms the picture for an HDR display of the peak below (PQ, BT.2020; screenshots and tonemap "
            "write 16-bit PNGs). The window shows an SDR preview (203 cd/m2 as white); the false-colour "
            "view shows the HDR luminance in cd/m2.");
        if (hdr10) {
            changed |= ImGui::DragFloat("peak cd/m2", &wanted.display.peak, 10.0f, post::kMinDisplayPeak,
                                        post::kMaxDisplayPeak, "%.0f", ImGuiSliderFlags_AlwaysClamp);
            checkItemFits("peak cd/m2");
        }
    }

    if (changed) {
        // Refusals and clamps come back through pipeline.notice(), shown below.
        if (pipeline.applySettings(wanted))
            profiler.resetStats();
    }
    if (!pipeline.notice().empty())
        TextColouredWrapped(kWarningColor, pipeline.notice());

    ImGui::Separator();
    if (ImGui::Button("Verify"))
        actions.verifyRequested = true;
    checkItemFits("Verify");
    helpMarker("Reads the last frame back and compares histogram, CDF and curve with the CPU reference (stalls).");
    ImGui::SameLine();
    if (ImGui::Button("Compare all"))
        actions.compareRequested = true;
    checkItemFits("Compare all");
    showTooltipOnHover(
        "Runs every available histogram method on this frame: difference from the CPU reference, "
        "curve difference and build times (stalls; results in their own window).");
    if (mVerify) {
        textColoured(mVerify->ok ? kOkColor : kErrorColor, "verify: %s", mVerify->ok ? "ok" : "MISMATCH");
        textWrapped(mVerify->text);
    }
    if (ImGui::CollapsingHeader("Settings file", ImGuiTreeNodeFlags_DefaultOpen))
        mSettingsFile.draw(pipeline, profiler);
    return actions;
}

std::vector<std::string> PipelinePanel::comboNames() const
{
    std::vector<std::string> names;
    for (const auto* list : {&mHistogramMethods, &mScanMethods, &mToneOperators})
        for (const Entry& entry : *list)
            names.push_back(entry.label);
    names.emplace_back("built in");
    return names;
}

}  // namespace ui
