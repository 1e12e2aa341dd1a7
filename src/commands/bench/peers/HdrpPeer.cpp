// HdrpPeer.cpp: see HdrpPeer.h. The clear and two dispatches per frame.
#include "commands/bench/peers/HdrpPeer.h"

#include "gl/Debug.h"
#include "shared/HostDevice.h"
#include "shared/Peers.h"

namespace app {

HdrpPeer::HdrpPeer(const gl::ShaderLibrary& shaders) : PeerMetering(shaders)
{
}

void HdrpPeer::prepareFor(glm::ivec2)
{
    if (mBins.size() == 0)
        mBins = gl::Buffer("peer.unity-hdrp.bins", hd::kHdrpBins * sizeof(std::uint32_t));
    program("peers/HdrpHistogram.comp");
    program("peers/HdrpReduce.comp");
}

void HdrpPeer::dispatch(const gl::Texture& frame, bool snap, const std::function<void(int)>& mark)
{
    const glm::ivec2 grid = (size() + 1) / 2;
    {
        gl::DebugGroup group("peer/unity-hdrp/clear");
        mBins.clearUint(0u);
    }
    mark(0);
    {
        gl::DebugGroup group("peer/unity-hdrp/histogram");
        program("peers/HdrpHistogram.comp").use();
        frame.bindUnit(hd::kTextureUnitInput);
        glBindSampler(hd::kTextureUnitInput, 0);
        mBins.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingHistogram);
        glDispatchCompute(GLuint((grid.x + int(hd::kHdrpGroupX) - 1) / int(hd::kHdrpGroupX)),
                          GLuint((grid.y + int(hd::kHdrpGroupY) - 1) / int(hd::kHdrpGroupY)), 1);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    }
    mark(1);
    {
        gl::DebugGroup group("peer/unity-hdrp/reduce");
        const gl::Program& reduce = program("peers/HdrpReduce.comp");
        reduce.use();
        reduce.set(hd::kPeerUniformSnap, snap ? 1u : 0u);
        reduce.set(hd::kPeerUniformSeconds, kPeerFrameSeconds);
        glDispatchCompute(1, 1, 1);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    }
    mark(2);
}

}  // namespace app
