// GodotPeer.cpp: see GodotPeer.h. One dispatch per reduction step.
#include "commands/bench/peers/GodotPeer.h"

#include "gl/Debug.h"
#include "shared/HostDevice.h"
#include "shared/Peers.h"
#include "util/Log.h"

#include <algorithm>

namespace app {

GodotPeer::GodotPeer(const gl::ShaderLibrary& shaders) : PeerMetering(shaders)
{
}

std::vector<glm::ivec2> GodotPeer::chainSizes(glm::ivec2 frame)
{
    std::vector<glm::ivec2> sizes;
    glm::ivec2 current = frame;
    do {
        current = (current + int(hd::kGodotBlock) - 1) / int(hd::kGodotBlock);
        sizes.push_back(current);
    } while (current.x > 1 || current.y > 1);
    return sizes;
}

std::vector<std::string> GodotPeer::passNames() const
{
    std::vector<std::string> names;
    for (std::size_t i = 0; i < std::max<std::size_t>(mSteps.size(), 1); ++i)
        names.push_back(util::format("reduce-{}", i + 1));
    return names;
}

void GodotPeer::prepareFor(glm::ivec2 size)
{
    mSteps.clear();
    for (glm::ivec2 step : chainSizes(size))
        mSteps.emplace_back(util::format("peer.godot.luminance-{}x{}", step.x, step.y), GL_R32F, step);
}

void GodotPeer::dispatch(const gl::Texture& frame, bool snap, const std::function<void(int)>& mark)
{
    glm::ivec2 source = size();
    for (std::size_t step = 0; step < mSteps.size(); ++step) {
        const bool first = step == 0;
        const bool last = step + 1 == mSteps.size();
        gl::DebugGroup group(util::format("peer/godot/reduce-{}", step + 1));
        const gl::Program& reduce =
            program("peers/GodotReduce.comp", {{"READ_FRAME", first ? "1" : "0"}, {"FINAL_PASS", last ? "1" : "0"}});
        reduce.use();
        if (first) {
            frame.bindUnit(hd::kTextureUnitInput);
            glBindSampler(hd::kTextureUnitInput, 0);
        } else {
            mSteps[step - 1].bindImage(0, GL_READ_ONLY);
        }
        mSteps[step].bindImage(1, GL_WRITE_ONLY);
        glProgramUniform2i(reduce.id(), hd::kPeerUniformSize, source.x, source.y);
        if (last) {
            reduce.set(hd::kPeerUniformSnap, snap ? 1u : 0u);
            reduce.set(hd::kPeerUniformSeconds, kPeerFrameSeconds);
        }
        const glm::ivec2 groups = mSteps[step].size();
        glDispatchCompute(GLuint(groups.x), GLuint(groups.y), 1);
        glMemoryBarrier(GL_SHADER_IMAGE_ACCESS_BARRIER_BIT | GL_SHADER_STORAGE_BARRIER_BIT);
        mark(int(step));
        source = mSteps[step].size();
    }
}

}  // namespace app
