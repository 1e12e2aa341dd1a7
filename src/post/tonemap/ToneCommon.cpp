#include "post/tonemap/ToneCommon.h"

#include "util/Log.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <string>

namespace post {

StateReadback::StateReadback(std::string_view label, std::size_t bytes) : mBytes(bytes)
{
    for (int i = 0; i < kSlots; ++i)
        mSlots[std::size_t(i)].buffer = gl::Buffer(std::string(label) + ".readback" + std::to_string(i), bytes);
}

StateReadback::~StateReadback() = default;

void StateReadback::request(const gl::Buffer& source, std::size_t offsetBytes, std::uint64_t frameIndex)
{
    request({Part{source, offsetBytes, mBytes}}, frameIndex);
}

void StateReadback::request(std::initializer_list<Part> parts, std::uint64_t frameIndex)
{
    mRequested.clear();
    for (const Part& part : parts)
        mRequested.push_back(part);
    mRequestedFrame = frameIndex;
}

void StateReadback::flush()
{
    if (mRequested.empty())
        return;
    captureParts(mRequested, mRequestedFrame);
    mRequested.clear();
}

void StateReadback::captureParts(std::span<const Part> parts, std::uint64_t frameIndex)
{
    Slot& slot = mSlots[std::size_t(mNext)];
    if (slot.fence.pending())
        return;  // every slot in flight: skip this frame rather than wait
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    std::size_t at = 0;
    for (const Part& part : parts) {
        const std::size_t bytes = std::min(part.bytes, mBytes - at);
        part.source.copyTo(slot.buffer, part.offsetBytes, at, bytes);
        at += bytes;
    }
    slot.fence = gl::Fence::insert();
    slot.sequence = ++mSequence;
    slot.frameIndex = frameIndex;
    mNext = (mNext + 1) % kSlots;
}

std::vector<StateReadback::Arrival> StateReadback::takeArrived()
{
    poll();
    std::vector<Arrival> out = std::move(mArrived);
    mArrived.clear();
    std::sort(out.begin(), out.end(), [](const Arrival& a, const Arrival& b) { return a.frameIndex < b.frameIndex; });
    return out;
}

bool StateReadback::poll()
{
    bool arrived = false;
    for (Slot& slot : mSlots) {
        if (!slot.fence.signalled())
            continue;
        slot.fence.reset();
        Arrival arrival{slot.frameIndex, std::vector<float>(mBytes / sizeof(float))};
        slot.buffer.read(0, mBytes, arrival.words.data());
        if (slot.sequence > mLatestSequence) {
            mLatest = arrival.words;
            mLatestSequence = slot.sequence;
            arrived = true;
        }
        if (mArrived.size() >= kMaxArrived)
            mArrived.erase(mArrived.begin());
        mArrived.push_back(std::move(arrival));
    }
    return arrived;
}

bool displayCurveUi(DisplayCurveSettings& settings)
{
    bool changed = false;
    const char* names[] = {"Clamp", "Reinhard", "Hable", "ACES fit", "AgX", "AgX punchy", "PBR Neutral"};
    static_assert(std::size(names) == kDisplayCurveCount);
    int current = int(settings.curve);
    if (ImGui::Combo("Display curve", &current, names, kDisplayCurveCount)) {
        settings.curve = DisplayCurve(current);
        changed = true;
    }
    helpMarker(
        "Maps exposed luminance x to display luminance. Clamp: min(x, 1). Reinhard 2002: x / (1 + x), "
        "or x (1 + x/W^2) / (1 + x) with a white W. Hable: John Hable's Uncharted 2 curve, white 11.2. "
        "ACES fit: Krzysztof Narkowicz's 2015 rational fit of the ACES RRT + ODT. AgX (Troy Sobotka, Blender's "
        "default; punchy: its CDL look) and Khronos PBR Neutral act on each pixel's exposed RGB, not on "
        "luminance alone.");
    if (settings.curve == DisplayCurve::Reinhard) {
        changed |= ImGui::DragFloat("Reinhard white", &settings.reinhardWhite, 0.05f, 0.0f, 1000.0f, "%.2f");
        helpMarker("Exposed luminance shown as white; 0 = none (plain x / (1 + x)).");
    }
    return changed;
}

std::string formatEv(double ev)
{
    char text[32];
    std::snprintf(text, sizeof(text), "%+.1f", ev);
    return text;
}

void appendDisplayCurveParameters(std::vector<Parameter>& out,
                                  const std::string& prefix,
                                  DisplayCurveSettings& settings)
{
    const DisplayCurveSettings d;
    out.push_back(enumParameter(prefix + ".display_curve", "Display curve", settings.curve,
                                {"clamp", "reinhard", "hable", "aces-fit", "agx", "agx-punchy", "pbr-neutral"},
                                d.curve));
    out.push_back(floatParameter(prefix + ".reinhard_white", "Reinhard white", settings.reinhardWhite, 0.0f, 1e6f,
                                 d.reinhardWhite));
}

}  // namespace post
