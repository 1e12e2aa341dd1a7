// BevyPeer.cpp: see BevyPeer.h. Two dispatches per frame, as Bevy's auto-exposure node records them.
#include "commands/bench/peers/BevyPeer.h"

#include "gl/Debug.h"
#include "shared/HostDevice.h"
#include "shared/Peers.h"

namespace app {

BevyPeer::BevyPeer(const gl::ShaderLibrary& shaders) : PeerMetering(shaders)
{
}

void BevyPeer::prepareFor(glm::ivec2)
{
    if (mBins.size() == 0) {
        // Bevy clears its bins in the average pass; they start at zero.
        mBins = gl::Buffer("peer.bevy.bins", hd::kBevyBins * sizeof(std::uint32_t));
        mBins.clearUint(0u);
        mMask = gl::Texture("peer.bevy.metering-mask", GL_R8, {1, 1});
        const unsigned char white = 255;
        mMask.upload(GL_RED, GL_UNSIGNED_BYTE, &white);
    }
    program("peers/BevyHistogram.comp");
    program("peers/BevyAverage.comp");
}

void BevyPeer::dispatch(const gl::Texture& frame, bool snap, const std::function<void(int)>& mark)
{
    const glm::ivec2 extent = size();
    {
        gl::DebugGroup group("peer/bevy/histogram");
        const gl::Program& histogram = program("peers/BevyHistogram.comp");
        histogram.use();
        frame.bindUnit(hd::kTextureUnitInput);
        glBindSampler(hd::kTextureUnitInput, 0);
        mMask.bindUnit(hd::kTextureUnitAux);
        glBindSampler(hd::kTextureUnitAux, 0);
        mBins.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingHistogram);
        glDispatchCompute(GLuint((extent.x + int(hd::kBevyGroupSide) - 1) / int(hd::kBevyGroupSide)),
                          GLuint((extent.y + int(hd::kBevyGroupSide) - 1) / int(hd::kBevyGroupSide)), 1);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    }
    mark(0);
    {
        gl::DebugGroup group("peer/bevy/average");
        const gl::Program& average = program("peers/BevyAverage.comp");
        average.use();
        average.set(hd::kPeerUniformSnap, snap ? 1u : 0u);
        average.set(hd::kPeerUniformSeconds, kPeerFrameSeconds);
        glDispatchCompute(1, 1, 1);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    }
    mark(1);
}

}  // namespace app
