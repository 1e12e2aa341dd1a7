// ToneRegistry.h: the explicit table of tone operators lives in ToneRegistry.cpp.
#pragma once

#include "post/tonemap/ToneOperator.h"

namespace post {

template <typename Operator>
ToneOperatorEntry toneEntry()
{
    return {Operator::kId, [] { return std::unique_ptr<ToneOperator>(std::make_unique<Operator>()); }};
}

/// Removes an operator registered at run time (registerToneOperator; tests clean up after
/// themselves); false when no entry has that id.
bool unregisterToneOperator(std::string_view id);

}  // namespace post
