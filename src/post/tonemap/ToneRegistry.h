// ToneRegistry.h: the explicit table of tone operators lives in ToneRegistry.cpp.
#pragma once

#include "post/tonemap/ToneOperator.h"

namespace post {

template <typename Operator>
ToneOperatorEntry toneEntry()
{
    return {Operator::kId, [] { return std::unique_ptr<ToneOperator>(std::make_unique<Operator>()); }};
}

}  // namespace post
