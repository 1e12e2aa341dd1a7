// Fence.h: a GL fence sync object (glFenceSync) owned like every other GL object: move-only,
// deleted with its owner. The readback rings insert one after their copies and ask it, without
// waiting, whether the GPU got there; the frame pacer, tools and tests wait on one.
#pragma once

#include "gl/Gl.h"

namespace gl {

class Fence
{
public:
    Fence() = default;
    ~Fence() { reset(); }
    Fence(Fence&& other) noexcept : mSync(other.mSync) { other.mSync = nullptr; }
    Fence& operator=(Fence&& other) noexcept;
    Fence(const Fence&) = delete;
    Fence& operator=(const Fence&) = delete;

    /// A fence after every GL command issued so far.
    static Fence insert();

    /// True while a fence is held (inserted, not yet seen signalled and released).
    bool pending() const { return mSync != nullptr; }
    /// Whether the GPU has passed the fence; never waits, never flushes (timeout 0).
    bool signalled() const;
    /// Flushes and waits until the GPU has passed the fence: the frame pacer's wait for a frame
    /// kFramesInFlight old, and synchronous readbacks in tests and tools (never for this frame's
    /// work in the per-frame path). False when the wait failed or no fence is held.
    bool waitFlushing() const;
    void reset();

private:
    GLsync mSync = nullptr;
};

}  // namespace gl
