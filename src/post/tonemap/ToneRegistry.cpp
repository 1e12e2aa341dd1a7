#include "post/tonemap/ToneRegistry.h"

#include "post/tonemap/ToneClahe.h"
#include "post/tonemap/ToneEqualize.h"
#include "post/tonemap/ToneExposure.h"
#include "post/tonemap/TonePercentile.h"
#include "post/tonemap/ToneWard.h"
#include "post/tonemap/ToneWardLocal.h"

#include <algorithm>

namespace post {

namespace {

std::uint64_t registryVersion = 0;

std::vector<ToneOperatorEntry>& entries()
{
    // One line per operator, in display order (its CPU reference: one row in reference/ToneReference.cpp).
    static std::vector<ToneOperatorEntry> table = {
        toneEntry<TonePercentile>(), toneEntry<ToneEqualize>(), toneEntry<ToneWard>(),
        toneEntry<ToneExposure>(),   toneEntry<ToneClahe>(),    toneEntry<ToneWardLocal>(),
    };
    return table;
}

}  // namespace

const std::vector<ToneOperatorEntry>& toneOperatorRegistry()
{
    return entries();
}

std::uint64_t toneOperatorRegistryVersion()
{
    return registryVersion;
}

void registerToneOperator(ToneOperatorEntry entry)
{
    ++registryVersion;
    for (ToneOperatorEntry& existing : entries())
        if (existing.id == entry.id) {
            existing = std::move(entry);
            return;
        }
    entries().push_back(std::move(entry));
}

bool unregisterToneOperator(std::string_view id)
{
    auto& table = entries();
    const auto found = std::find_if(table.begin(), table.end(), [&](const auto& entry) { return entry.id == id; });
    if (found == table.end())
        return false;
    ++registryVersion;
    table.erase(found);
    return true;
}

std::unique_ptr<ToneOperator> createToneOperator(std::string_view id)
{
    for (const ToneOperatorEntry& entry : toneOperatorRegistry())
        if (entry.id == id)
            return entry.create();
    return nullptr;
}

void ToneOperator::resetState()
{
    if (ToneState* s = state())
        s->resetState();
}

void ToneOperator::flushStateReadback()
{
    if (ToneState* s = state())
        s->flushStateReadback();
}

std::string ToneOperator::status() const
{
    const ToneState* s = state();
    return s ? s->status() : std::string();
}

std::vector<std::pair<std::string, float>> ToneOperator::markers() const
{
    const ToneState* s = state();
    return s ? s->markers() : std::vector<std::pair<std::string, float>>{};
}

std::vector<KeyValueSample> ToneOperator::takeKeyValues()
{
    ToneState* s = state();
    return s ? s->takeKeyValues() : std::vector<KeyValueSample>{};
}

std::string_view ToneOperator::keyValueName() const
{
    const ToneState* s = state();
    return s ? s->keyValueName() : std::string_view();
}

}  // namespace post
