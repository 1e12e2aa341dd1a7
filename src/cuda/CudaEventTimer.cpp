#include "cuda/CudaEventTimer.h"

namespace cuda {

CudaEventTimer::CudaEventTimer(cudaStream_t stream, int slots) : mStream(stream), mSlots(std::size_t(slots))
{
    for (Slot& slot : mSlots) {
        slot.start = Event::create();
        slot.stop = Event::create();
    }
}

int CudaEventTimer::begin()
{
    const int count = int(mSlots.size());
    for (int i = 0; i < count; ++i) {
        const int index = (mNext + i) % count;
        Slot& slot = mSlots[std::size_t(index)];
        if (slot.state != SlotState::Free)
            continue;
        CUDA_CHECK(cudaEventRecord(slot.start.get(), mStream));
        slot.state = SlotState::Started;
        mNext = (index + 1) % count;
        return index;
    }
    return -1;
}

void CudaEventTimer::end(int token)
{
    if (!validToken(token))
        return;
    Slot& slot = mSlots[std::size_t(token)];
    if (slot.state != SlotState::Started)
        return;
    CUDA_CHECK(cudaEventRecord(slot.stop.get(), mStream));
    slot.state = SlotState::Ended;
}

std::optional<double> CudaEventTimer::tryElapsedMs(int token)
{
    if (!validToken(token))
        return std::nullopt;
    Slot& slot = mSlots[std::size_t(token)];
    if (slot.state != SlotState::Ended)
        return std::nullopt;
    const cudaError_t status = cudaEventQuery(slot.stop.get());
    if (status == cudaErrorNotReady)
        return std::nullopt;
    CUDA_CHECK(status);
    float ms = 0.0f;
    CUDA_CHECK(cudaEventElapsedTime(&ms, slot.start.get(), slot.stop.get()));
    return double(ms);
}

void CudaEventTimer::release(int token)
{
    if (validToken(token))
        mSlots[std::size_t(token)].state = SlotState::Free;
}

int CudaEventTimer::slotsInUse() const
{
    int used = 0;
    for (const Slot& slot : mSlots)
        used += slot.state != SlotState::Free ? 1 : 0;
    return used;
}

}  // namespace cuda
