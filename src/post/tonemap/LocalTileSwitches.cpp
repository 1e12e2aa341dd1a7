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
        else
            util::logWarning(
                "HDRLAB_LOCAL_TILES: '{}' ignored (histograms=pass|separate, apply=full|single|weights|legacy)",
                std::string(item));
    }
    util::logInfo("HDRLAB_LOCAL_TILES: tile histograms {}, tiled apply {}",
                  switches.histogramsInPass ? "in the histogram pass" : "a separate pass",
                  switches.applyVariant == 0   ? "full"
                  : switches.applyVariant == 1 ? "single tile (experiment)"
                  : switches.applyVariant == 2 ? "weights only (experiment)"
                                               : "legacy (Apply.comp)");
    return switches;
}

}  // namespace

const LocalTileSwitches& localTileSwitches()
{
    static const LocalTileSwitches switches = readSwitches();
    return switches;
}

}  // namespace post
