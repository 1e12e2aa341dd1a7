#include "post/tonemap/LocalTileSwitches.h"

#include "util/Log.h"

#include <algorithm>
#include <cstdlib>
#include <string>
#include <string_view>

namespace post {

namespace {

LocalTileSwitches readSwitches()
{
    LocalTileSwitches switches;
    const char* text = std::getenv("HDRLAB_LOCAL_TILES");
    if (!text || !*text)
        return switches;
    std::string_view rest(text);
    while (!rest.empty()) {
        const std::string_view item = rest.substr(0, rest.find(','));
        rest.remove_prefix(std::min(rest.size(), item.size() + 1));
        if (item == "histograms=pass")
            switches.histogramsInPass = true;
        else if (item == "histograms=separate")
            switches.histogramsInPass = false;
        else if (item == "apply=full")
            switches.applyVariant = 0;
        else if (item == "apply=single")
            switches.applyVariant = 1;
        else if (item == "apply=weights")
            switches.applyVariant = 2;
        else if (item == "fits=serial" || item == "fits=batch")
            continue;  // ward-local's tile fits: read by WardCurveDispatch.cpp
        else if (item == "apply=legacy")
            switches.applyVariant = LocalTileSwitches::kApplyLegacy;
        else if (item == "apply=unstaged")
            switches.applyVariant = LocalTileSwitches::kApplyUnstaged;
        else if (item.starts_with("stage=") && item.size() > 6 && item.size() < 12 &&
                 item.find_first_not_of("0123456789", 6) == std::string_view::npos)
            switches.stageFloats =
                std::min<std::uint32_t>(std::uint32_t(std::stoul(std::string(item.substr(6)))), 8192u);
        else
            util::logWarning(
                "HDRLAB_LOCAL_TILES: '{}' ignored (histograms=pass|separate, "
                "apply=full|single|weights|legacy|unstaged, stage=<floats>)",
                std::string(item));
    }
    util::logInfo("HDRLAB_LOCAL_TILES: tile histograms {}, tiled apply {}, {} LUT floats staged per workgroup",
                  switches.histogramsInPass ? "in the histogram pass" : "a separate pass",
                  switches.applyVariant == 0   ? "full"
                  : switches.applyVariant == 1 ? "single tile (experiment)"
                  : switches.applyVariant == 2 ? "weights only (experiment)"
                  : switches.applyVariant == 3 ? "legacy (Apply.comp)"
                                               : "unstaged LUTs",
                  switches.stageFloats);
    return switches;
}

LocalTileSwitches& mutableSwitches()
{
    static LocalTileSwitches switches = readSwitches();
    return switches;
}

}  // namespace

const LocalTileSwitches& localTileSwitches()
{
    return mutableSwitches();
}

void setLocalTileApplyVariant(std::uint32_t variant)
{
    mutableSwitches().applyVariant = variant;
}

}  // namespace post
