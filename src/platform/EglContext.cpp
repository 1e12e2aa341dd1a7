// EglContext.cpp: headless GL through EGL (device platform on NVIDIA, else Mesa surfaceless).
#include "platform/GlContext.h"

#include "gl/Gl.h"
#include "util/Log.h"

#include <glad/egl.h>

#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace platform {
namespace {

bool hasToken(const char* list, const char* token)
{
    if (!list)
        return false;
    std::string padded = std::string(" ") + list + " ";
    return padded.find(std::string(" ") + token + " ") != std::string::npos;
}

class EglContext final : public GlContext
{
public:
    explicit EglContext(const ContextOptions& options)
    {
        if (!gladLoaderLoadEGL(EGL_NO_DISPLAY))
            throw std::runtime_error("cannot load libEGL (install libegl1 and a driver: libegl-mesa0 or NVIDIA's)");
        const char* clientExtensions = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);

        std::string platformName;
        if (hasToken(clientExtensions, "EGL_EXT_platform_device") && eglQueryDevicesEXT) {
            EGLint count = 0;
            eglQueryDevicesEXT(0, nullptr, &count);
            std::vector<EGLDeviceEXT> devices(std::size_t(std::max(count, 0)));
            if (count > 0)
                eglQueryDevicesEXT(count, devices.data(), &count);
            for (EGLDeviceEXT device : devices) {
                const char* deviceExtensions =
                    eglQueryDeviceStringEXT ? eglQueryDeviceStringEXT(device, EGL_EXTENSIONS) : nullptr;
                if (hasToken(deviceExtensions, "EGL_NV_device_cuda")) {
                    mDisplay = eglGetPlatformDisplayEXT(EGL_PLATFORM_DEVICE_EXT, device, nullptr);
                    platformName = "EGL device (NVIDIA)";
                    break;
                }
            }
        }
        if (mDisplay == EGL_NO_DISPLAY && hasToken(clientExtensions, "EGL_MESA_platform_surfaceless") &&
            eglGetPlatformDisplayEXT) {
            mDisplay = eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
            platformName = "EGL surfaceless (Mesa)";
        }
        if (mDisplay == EGL_NO_DISPLAY) {
            mDisplay = eglGetDisplay(EGL_DEFAULT_DISPLAY);
            platformName = "EGL default display";
        }
        if (mDisplay == EGL_NO_DISPLAY)
            throw std::runtime_error(
                "no EGL display: neither an NVIDIA EGL device nor Mesa's surfaceless platform is available");

        EGLint major = 0, minor = 0;
        if (!eglInitialize(mDisplay, &major, &minor))
            throw std::runtime_error("eglInitialize failed on " + platformName);
        gladLoaderLoadEGL(mDisplay);
        if (!hasToken(eglQueryString(mDisplay, EGL_EXTENSIONS), "EGL_KHR_surfaceless_context"))
            throw std::runtime_error(platformName + " lacks EGL_KHR_surfaceless_context");
        if (!eglBindAPI(EGL_OPENGL_API))
            throw std::runtime_error(platformName + " cannot bind the desktop OpenGL API");

        // Surfaceless platforms have no window surfaces, so ask for pbuffer-capable configs first and
        // for any surface type second.
        EGLConfig config = nullptr;
        EGLint configCount = 0;
        for (EGLint surfaceType : {EGLint(EGL_PBUFFER_BIT), EGLint(EGL_DONT_CARE)}) {
            const EGLint configAttributes[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_SURFACE_TYPE, surfaceType,
                                               EGL_NONE};
            if (eglChooseConfig(mDisplay, configAttributes, &config, 1, &configCount) && configCount > 0)
                break;
        }
        if (configCount == 0)
            throw std::runtime_error(platformName + " offers no OpenGL-renderable EGL config");

        const EGLint contextAttributes[] = {EGL_CONTEXT_MAJOR_VERSION,
                                            4,
                                            EGL_CONTEXT_MINOR_VERSION,
                                            5,
                                            EGL_CONTEXT_OPENGL_PROFILE_MASK,
                                            EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                                            EGL_CONTEXT_OPENGL_DEBUG,
                                            options.debug ? EGL_TRUE : EGL_FALSE,
                                            EGL_NONE};
        mContext = eglCreateContext(mDisplay, config, EGL_NO_CONTEXT, contextAttributes);
        if (mContext == EGL_NO_CONTEXT)
            throw std::runtime_error(platformName + " cannot create an OpenGL 4.5 core context (error 0x" +
                                     std::to_string(eglGetError()) + ")");
        if (!eglMakeCurrent(mDisplay, EGL_NO_SURFACE, EGL_NO_SURFACE, mContext))
            throw std::runtime_error(platformName + ": eglMakeCurrent failed");
        if (!gladLoadGL(reinterpret_cast<GLADloadfunc>(eglGetProcAddress)))
            throw std::runtime_error(platformName + ": cannot load the OpenGL 4.5 entry points");
        queryInfo(platformName);
    }

    ~EglContext() override
    {
        if (mDisplay != EGL_NO_DISPLAY) {
            eglMakeCurrent(mDisplay, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
            if (mContext != EGL_NO_CONTEXT)
                eglDestroyContext(mDisplay, mContext);
            eglTerminate(mDisplay);
        }
    }

    bool isWindow() const override { return false; }

private:
    EGLDisplay mDisplay = EGL_NO_DISPLAY;
    EGLContext mContext = EGL_NO_CONTEXT;
};

}  // namespace

std::unique_ptr<GlContext> createHeadlessContext(const ContextOptions& options)
{
    return std::make_unique<EglContext>(options);
}

}  // namespace platform
