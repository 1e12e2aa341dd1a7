// The CUDA-interop plumbing that runs without CUDA (llvmpipe): which objects the app creates through
// the shared-memory allocator (a recording allocator stands in for cuda::SharedAllocator), that the
// pipeline still matches the CPU reference on them, the map/unmap fallback and its status line, and
// GL's refusal to import memory or semaphores where GL_EXT_memory_object_fd / GL_EXT_semaphore_fd
// are missing. The shared path itself is tested on a CUDA device (tests/cuda/SharedInteropCudaTest).
#include "gl/Buffer.h"
#include "gl/ExternalObjects.h"
#include "gl/Texture.h"
#include "post/CudaInterop.h"
#include "post/PostPipeline.h"
#include "reference/Histogram.h"
#include "reference/Scan.h"
#include "scene/Scene.h"
#include "scene/SceneRenderer.h"
#include "support/GlTestEnvironment.h"
#include "support/HistogramTestSupport.h"
#include "verify/PipelineVerify.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <stdexcept>
#include <string>
#include <vector>

namespace ts = testing_support;

namespace {

/// Makes plain GL objects and records the labels it was asked for.
class RecordingAllocator final : public gl::SharedAllocator
{
public:
    gl::Texture createTexture(std::string_view label, GLenum internalFormat, glm::ivec2 size) override
    {
        textures.emplace_back(label);
        return gl::Texture(label, internalFormat, size);
    }
    gl::Buffer createBuffer(std::string_view label, std::size_t bytes) override
    {
        buffers.emplace_back(label);
        return gl::Buffer(label, bytes);
    }
    bool madeTexture(const std::string& label) const
    {
        return std::find(textures.begin(), textures.end(), label) != textures.end();
    }
    bool madeBuffer(const std::string& label) const
    {
        return std::find(buffers.begin(), buffers.end(), label) != buffers.end();
    }
    std::vector<std::string> textures;
    std::vector<std::string> buffers;
};

class CudaInteropGl : public ts::GlTest
{
};

TEST_F(CudaInteropGl, PipelineCreatesWhatCudaTouchesThroughTheAllocator)
{
    RecordingAllocator allocator;
    post::PostPipeline pipeline(ts::shaderLibrary(), ts::testProfiler(), ts::testGpuCaps());
    pipeline.setSharedAllocator(&allocator);
    EXPECT_TRUE(allocator.madeBuffer("post.histogram"));
    EXPECT_TRUE(allocator.madeBuffer("post.cdf"));
    EXPECT_TRUE(allocator.madeBuffer("post.histogram-params"));
    EXPECT_FALSE(allocator.madeBuffer("post.curve")) << "only CUDA-touched outputs need shared memory";

    // The recreated outputs are cleared and wired in: a downsampled run still matches the reference.
    post::PipelineSettings settings = pipeline.settings();
    settings.spec.binCount = 64;
    settings.rangeMode = post::RangeMode::Manual;
    settings.logMin = -6.0f;
    settings.logMax = 9.0f;
    settings.downsample = 2;
    ASSERT_TRUE(pipeline.applySettings(settings));
    ts::TestImage image = ts::randomHdrImage(91, 47, -7.0f, 10.0f, 3);
    gl::Texture texture = ts::uploadImage(image);
    pipeline.run({texture, {91, 47}}, 1.0 / 60.0, 60.0f);
    EXPECT_TRUE(allocator.madeTexture("histogram-input.downsampled"));
    const verify::VerifyReport report = verify::verifyPipeline(pipeline);
    EXPECT_TRUE(report.ok) << report.text;
    EXPECT_EQ(report.gpuTotal, 46u * 24u);

    // Back to plain storage: nothing more is asked of the allocator.
    const std::size_t before = allocator.buffers.size() + allocator.textures.size();
    pipeline.setSharedAllocator(nullptr);
    pipeline.run({texture, {91, 47}}, 1.0 / 60.0, 60.0f);
    EXPECT_EQ(allocator.buffers.size() + allocator.textures.size(), before);
    EXPECT_TRUE(verify::verifyPipeline(pipeline).ok);
}

TEST_F(CudaInteropGl, SceneRendererHdrTargetComesFromTheAllocator)
{
    RecordingAllocator allocator;
    scene::SceneRenderer renderer(ts::shaderLibrary(), scene::defaultScene());
    renderer.setTargetAllocator(&allocator);
    EXPECT_TRUE(allocator.textures.empty()) << "no target yet: nothing to recreate";
    renderer.resize({64, 36});
    ASSERT_EQ(allocator.textures, std::vector<std::string>{"scene.hdrColor"});
    EXPECT_EQ(renderer.hdrTarget().size(), glm::ivec2(64, 36));
    EXPECT_EQ(renderer.hdrTarget().format(), GLenum(GL_RGBA32F));  // the default scene's sun needs float32
    renderer.resize({32, 18});
    EXPECT_EQ(allocator.textures.size(), 2u);
    renderer.setTargetAllocator(nullptr);  // recreated at once, in plain storage
    EXPECT_EQ(allocator.textures.size(), 2u);
    EXPECT_EQ(renderer.hdrTarget().size(), glm::ivec2(32, 18));
}

TEST_F(CudaInteropGl, PlainObjectsWithoutAnAllocator)
{
    gl::Texture texture = gl::createTexture(nullptr, "test.plain", GL_RGBA16F, {5, 3});
    gl::Buffer buffer = gl::createBuffer(nullptr, "test.plain", 12);
    EXPECT_TRUE(texture.valid());
    EXPECT_EQ(texture.size(), glm::ivec2(5, 3));
    EXPECT_FALSE(texture.externalStorage());
    EXPECT_EQ(buffer.size(), 12u);
    EXPECT_FALSE(buffer.externalStorage());
}

TEST_F(CudaInteropGl, WithoutCudaTheStatusSaysMapUnmapAndWhy)
{
    post::GpuCaps caps = ts::testGpuCaps();
    caps.cudaAvailable = false;
    caps.cudaReason = "no CUDA device: test";
    const post::CudaInterop interop = post::chooseCudaInterop(caps, post::CudaInteropMode::Shared);
    EXPECT_FALSE(interop.allocator);
    EXPECT_EQ(interop.status.rfind("map/unmap", 0), 0u) << interop.status;
    EXPECT_NE(interop.status.find("no CUDA device: test"), std::string::npos) << interop.status;
}

/// True when `fd` is no longer open.
bool isClosed(int fd)
{
    return fcntl(fd, F_GETFD) == -1 && errno == EBADF;
}

TEST_F(CudaInteropGl, ImportsAreRefusedWithTheReasonWhereGlLacksTheExtensions)
{
    if (gl::externalObjectsSupported())
        GTEST_SKIP() << "this GL context imports external objects (tested with CUDA in tests/cuda)";
    for (int kind = 0; kind < 2; ++kind) {
        int fds[2] = {-1, -1};
        ASSERT_EQ(pipe(fds), 0);
        try {
            if (kind == 0)
                (void)gl::MemoryObject::importFd(fds[0], 4096, false);
            else
                (void)gl::Semaphore::importFd(fds[0]);
            ADD_FAILURE() << "an import without the extension must throw";
        } catch (const std::runtime_error& error) {
            EXPECT_NE(std::string(error.what()).find(kind == 0 ? "GL_EXT_memory_object_fd" : "GL_EXT_semaphore_fd"),
                      std::string::npos)
                << error.what();
        }
        // The import owns the descriptor, also when it fails: it must not leak.
        EXPECT_TRUE(isClosed(fds[0])) << "kind " << kind;
        close(fds[1]);
    }
}

}  // namespace
