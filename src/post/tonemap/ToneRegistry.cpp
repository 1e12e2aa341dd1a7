#include "post/tonemap/ToneRegistry.h"

#include "post/tonemap/ToneEqualize.h"
#include "post/tonemap/ToneExposure.h"
#include "post/tonemap/TonePercentile.h"
#include "post/tonemap/ToneWard.h"

namespace post {

const std::vector<ToneOperatorEntry>& toneOperatorRegistry()
{
    static const std::vector<ToneOperatorEntry> entries = {
        toneEntry<TonePercentile>(),
        toneEntry<ToneEqualize>(),
        toneEntry<ToneWard>(),
        toneEntry<ToneExposure>(),
    };
    return entries;
}

std::unique_ptr<ToneOperator> createToneOperator(std::string_view id)
{
    for (const ToneOperatorEntry& entry : toneOperatorRegistry())
        if (entry.id == id)
            return entry.create();
    return nullptr;
}

}  // namespace post
