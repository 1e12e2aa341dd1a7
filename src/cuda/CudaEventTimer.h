// CudaEventTimer.h: profiling::TimerBackend on CUDA events. A ring of event pairs recorded on the
// CUDA context's stream; results are read with cudaEventQuery and never waited for, so timing the
// frame never stalls it. Tokens are slot indices; a slot is reused only after release().
#pragma once

#include "cuda/CudaRaii.h"
#include "profiling/Profiler.h"

#include <vector>

namespace cuda {

class CudaEventTimer final : public profiling::TimerBackend
{
public:
    /// `slots` event pairs; begin() returns -1 (and the other calls ignore it) when all are in use.
    CudaEventTimer(cudaStream_t stream, int slots = 512);

    std::string_view name() const override { return "CUDA events"; }
    int begin() override;
    void end(int token) override;
    std::optional<double> tryElapsedMs(int token) override;
    void release(int token) override;

    /// Slots currently handed out (for tests).
    int slotsInUse() const;

private:
    enum class SlotState { Free, Started, Ended };
    struct Slot
    {
        Event start;
        Event stop;
        SlotState state = SlotState::Free;
    };
    bool validToken(int token) const { return token >= 0 && token < int(mSlots.size()); }

    cudaStream_t mStream = nullptr;
    std::vector<Slot> mSlots;
    int mNext = 0;
};

}  // namespace cuda
