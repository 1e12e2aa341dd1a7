// UnrealPeer.cpp: see UnrealPeer.h. Four dispatches per frame: downsample, histogram, reduce, adaptation.
#include "commands/bench/peers/UnrealPeer.h"

#include "gl/Debug.h"
#include "shared/HostDevice.h"
#include "shared/Peers.h"

namespace app {

UnrealPeer::UnrealPeer(const gl::ShaderLibrary& shaders) : PeerMetering(shaders)
{
}

glm::uvec2 UnrealPeer::histogramGroups(glm::ivec2 half)
{
    const glm::uvec2 tile{hd::kUnrealGroupX * hd::kUnrealLoopX, hd::kUnrealGroupY * hd::kUnrealLoopY};
    return (glm::uvec2(half) + tile - 1u) / tile;
}

void UnrealPeer::prepareFor(glm::ivec2 size)
{
    const glm::ivec2 half = (size + 1) / 2;
    mHalf = gl::Texture("peer.unreal.half-resolution", GL_RGBA16F, half);
    const glm::uvec2 groups = histogramGroups(half);
    mRows =
        gl::Buffer("peer.unreal.histogram-rows", std::size_t(groups.x) * groups.y * hd::kUnrealBins * sizeof(float));
    if (mReduced.size() == 0)
        mReduced = gl::Buffer("peer.unreal.histogram", hd::kUnrealBins * sizeof(float));
    program("peers/UnrealDownsample.comp");
    program("peers/UnrealHistogram.comp");
    program("peers/UnrealReduce.comp");
    program("peers/UnrealEyeAdaptation.comp");
}

void UnrealPeer::dispatch(const gl::Texture& frame, bool snap, const std::function<void(int)>& mark)
{
    const glm::ivec2 half = mHalf.size();
    const glm::uvec2 groups = histogramGroups(half);
    {
        gl::DebugGroup group("peer/unreal/downsample");
        program("peers/UnrealDownsample.comp").use();
        frame.bindUnit(hd::kTextureUnitInput);
        glBindSampler(hd::kTextureUnitInput, 0);
        mHalf.bindImage(0, GL_WRITE_ONLY);
        glDispatchCompute(GLuint((half.x + 7) / 8), GLuint((half.y + 7) / 8), 1);
        glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT);
    }
    mark(0);
    {
        gl::DebugGroup group("peer/unreal/histogram");
        program("peers/UnrealHistogram.comp").use();
        mHalf.bindUnit(hd::kTextureUnitInput);
        mRows.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingScratch0);
        glDispatchCompute(groups.x, groups.y, 1);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    }
    mark(1);
    {
        gl::DebugGroup group("peer/unreal/reduce");
        const gl::Program& reduce = program("peers/UnrealReduce.comp");
        reduce.use();
        reduce.set(hd::kPeerUniformGroups, groups.x * groups.y);
        mReduced.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingScratch1);
        glDispatchCompute(1, 1, 1);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    }
    mark(2);
    {
        gl::DebugGroup group("peer/unreal/eye-adaptation");
        const gl::Program& adaptation = program("peers/UnrealEyeAdaptation.comp");
        adaptation.use();
        adaptation.set(hd::kPeerUniformSnap, snap ? 1u : 0u);
        adaptation.set(hd::kPeerUniformSeconds, kPeerFrameSeconds);
        glDispatchCompute(1, 1, 1);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    }
    mark(3);
}

}  // namespace app
