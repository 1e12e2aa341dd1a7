// ParkedParameters.h: the settings of histogram methods, scans and tone operators that are not in use.
// The pipeline builds a method anew when it is chosen, so without this a method's settings would be
// lost when another is chosen and reset when it comes back. Values are kept as the text of their
// Parameter (post/Parameter.h), keyed by the parameter's key; a key set while its owner is not in use
// (--set ward.display_max=200 with percentile active) waits here too.
#pragma once

#include "post/Parameter.h"

#include <map>
#include <memory>
#include <string>
#include <string_view>

namespace post {

class ParkedParameters
{
public:
    /// The stored text of `key`, or nullptr when none was stored (the owner's default applies).
    const std::string* find(std::string_view key) const
    {
        auto it = mValues.find(key);
        return it == mValues.end() ? nullptr : &it->second;
    }
    /// `text` must parse for the key's ParameterInfo.
    void store(std::string key, std::string text) { mValues[std::move(key)] = std::move(text); }

    /// Parks `outgoing`'s settings (when there is one) and gives `incoming` its stored ones; returns `incoming`.
    template <typename Method>
    std::unique_ptr<Method> swapIn(const std::unique_ptr<Method>& outgoing, std::unique_ptr<Method> incoming)
    {
        if (outgoing)
            for (const Parameter& p : outgoing->parameters().items)
                store(p.info.key, formatParameterValue(p.info, p.get()));
        restore(incoming->parameters());
        return incoming;
    }

    /// Sets every parameter of `list` that has a stored value, then commits.
    void restore(const ParameterList& list) const
    {
        bool any = false;
        for (const Parameter& p : list.items) {
            const std::string* text = find(p.info.key);
            std::string error;
            if (!text)
                continue;
            if (auto value = parseParameterValue(p.info, *text, error)) {
                p.set(*value);
                any = true;
            }
        }
        if (any && list.commit)
            list.commit();
    }

private:
    std::map<std::string, std::string, std::less<>> mValues;
};

}  // namespace post
