// Drand48.h: glibc's drand48 as a value type: the 48-bit linear congruential generator
// X(n+1) = (a X(n) + c) mod 2^48 with a = 0x5DEECE66D, c = 0xB, and X(n) / 2^48 as the double.
// glibc starts an unseeded drand48() from X = 0 (its state is a zero-initialised static), so the
// first values are 11 / 2^48 = 3.9079850466805510e-14, 0.00098539467465030839, ... Radiance's
// pcond draws its random point samples from exactly that sequence (frandom() = drand48(), never
// seeded), which is why hdrlab's pcond-compatible Ward sampling replays it (post/tonemap/WardPcond*).
#pragma once

#include <cstdint>

namespace util {

class Drand48
{
public:
    static constexpr std::uint64_t kMultiplier = 0x5DEECE66Dull;
    static constexpr std::uint64_t kIncrement = 0xBull;
    static constexpr std::uint64_t kMask = (std::uint64_t(1) << 48) - 1;

    explicit constexpr Drand48(std::uint64_t state = 0) : mState(state & kMask) {}

    /// The next value in [0, 1): exactly X / 2^48 (48 bits fit a double's mantissa).
    constexpr double next()
    {
        mState = (mState * kMultiplier + kIncrement) & kMask;
        return double(mState) / double(std::uint64_t(1) << 48);
    }

    constexpr std::uint64_t state() const { return mState; }

private:
    std::uint64_t mState;
};

}  // namespace util
