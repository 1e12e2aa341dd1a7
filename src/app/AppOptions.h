// AppOptions.h: what the live/headless application was asked to do, as parsed from the command line
// (cli/Cli.cpp). Values are already validated; absent optionals mean "the default".
#pragma once

#include <glm/vec2.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace app {

/// The log-luminance range of the histogram: fixed [min, max] in log2 units (EV), or automatic.
struct RangeOption
{
    bool automatic = false;
    float logMin = -10.0f;
    float logMax = 20.0f;
};

struct AppOptions
{
    std::optional<std::filesystem::path> sceneFile;         ///< --scene (default: the built-in scene)
    std::optional<std::filesystem::path> viewImage;         ///< `view IMAGE`: an image file instead of a scene
    std::string exrPart;                                    ///< `view --part`: the OpenEXR part, view or layer
    std::optional<glm::ivec2> size;                         ///< --size WxH (window size or headless frame size)
    bool headless = false;                                  ///< --headless
    std::optional<int> frames;                              ///< --frames N (headless default kDefaultHeadlessFrames)
    std::optional<std::filesystem::path> screenshot;        ///< --screenshot OUT.png (display image)
    std::optional<std::filesystem::path> screenshotExr;     ///< --screenshot-exr OUT.exr (HDR frame)
    std::optional<std::filesystem::path> windowScreenshot;  ///< --window-screenshot OUT.png (the window)
    std::optional<std::filesystem::path> capture;           ///< --capture OUT.json (trace events)
    std::optional<std::filesystem::path> captureCsv;        ///< --capture-csv OUT.csv
    std::optional<int> captureFrames;            ///< --capture-frames N: the recording ring keeps the last N frames
    bool ui = false;                             ///< --ui: draw the panels into headless output too
    bool hideUi = false;                         ///< --hide-ui: start a window with the panels hidden (Tab toggles)
    std::optional<float> uiScale;                ///< --ui-scale S: the panels' scale (default: the monitor's)
    bool fixedStep = false;                      ///< --fixed-step: a window follows the headless time step and path
    bool list = false;                           ///< --list
    bool verify = false;                         ///< --verify
    std::optional<std::string> histogramMethod;  ///< --histogram-method ID
    std::optional<std::string> scanMethod;       ///< --scan ID
    std::optional<std::string> toneOperator;     ///< --operator ID
    std::optional<unsigned> bins;                ///< --bins N
    std::optional<RangeOption> range;            ///< --range MIN:MAX|auto
    std::optional<std::string> outOfRange;       ///< --out-of-range clamp|separate
    std::optional<int> downsample;               ///< --downsample 1|2|4|8
    bool vsync = true;                           ///< --vsync on|off
    bool cudaInteropShared = false;              ///< --cuda-interop shared (default map)
    std::optional<std::string> lighting;         ///< --lighting forward|deferred (default: the renderer's)
    std::optional<std::string>
        frameFormat;                  ///< --frame-format auto|rgba32f|rgba16f (default scene::kDefaultFrameFormat)
    std::optional<std::string> view;  ///< --view tonemapped|false-colour
    std::vector<glm::ivec2> probes;   ///< --probe X,Y: pixels from the top-left (at most hd::kMaxProbes)
    std::optional<std::filesystem::path> dataDir;  ///< --data-dir DIR
    std::optional<int> resourceReport;             ///< --resource-report N: resource line every N frames
    std::optional<int> resizeStorm;                ///< --resize-storm STEPS (window robustness test)
    // settings as data (post/PipelineParameters.h)
    std::optional<std::filesystem::path> settingsFile;  ///< --settings FILE.json
    std::vector<std::string> settingAssignments;        ///< --set KEY=VALUE, in command-line order (keys checked)
    // split view (app/SplitView.h): pipeline B on the same frame
    std::optional<std::string> split;                    ///< --split side-by-side|difference|off
    std::optional<float> splitPosition;                  ///< --split-at F: the divider, 0..1 of the frame
    std::optional<float> splitGain;                      ///< --split-gain G: the difference view's gain
    std::optional<std::filesystem::path> settingsFileB;  ///< --settings-b FILE.json (on top of A's settings)
    std::vector<std::string> settingAssignmentsB;        ///< --set-b KEY=VALUE, in command-line order
    // sequences (frames/SequenceSource.h): `view IMAGE` where IMAGE is a folder, glob or %d pattern of frames
    std::optional<double> sequenceFps;          ///< --fps F (default kDefaultSequenceFps)
    std::optional<std::string> badFramePolicy;  ///< --on-bad-frame stop|skip (default stop)
    /// A sequence's cuts found by another run (bench flicker: the percentile operator's), as frame
    /// numbers: an operator that finds none itself still gets its flicker figure within shots.
    std::vector<long long> knownCuts;
    std::optional<std::filesystem::path> hdrSequenceOut;      ///< --hdr-sequence-out F.%04d.exr: each HDR frame
    std::optional<std::filesystem::path> displaySequenceOut;  ///< each display image as PNG (tonemap on a sequence)
    // the tev display server (frames/TevFrameSource.h): images streamed by renderers over tev's protocol
    std::optional<std::string> listen;         ///< --listen [HOST:]PORT ("" the default 127.0.0.1:14158)
    std::optional<double> listenTimeout;       ///< --listen-timeout S: headless, the wait for the first image
    std::optional<bool> watchShaders;          ///< --watch-shaders on|off (default: on in a window, off headless)
    std::vector<std::string> settingDefaults;  ///< KEY=VALUE applied before --settings (a command's own defaults)
    /// No argument at all was given: without a display this becomes the demo run (kDemo* outputs).
    bool noArguments = false;
};

inline constexpr int kDefaultHeadlessFrames = 300;

/// The demo run (no arguments, no display): what it renders. On a GPU, kDefaultHeadlessFrames frames at
/// the default size. On a software renderer (llvmpipe: about 0.85 s for a 1280x720 frame of the default
/// interior on 2 cores, most of it the deferred lighting pass) fewer, smaller frames, so that the first
/// run ends within a minute of its first frame; the exposure still settles (ward adapts within a few
/// frames, percentile's 3 EV/s over frames of 0.3 s and more).
struct DemoRun
{
    int frames = kDefaultHeadlessFrames;
    int width = 1280;
    int height = 720;
};
inline constexpr DemoRun demoRunFor(bool softwareRenderer)
{
    return softwareRenderer ? DemoRun{60, 960, 540} : DemoRun{};
}
inline constexpr int kMaxFrameSize = 16384;
inline constexpr double kDefaultListenTimeout = 30.0;  ///< seconds headless --listen waits for an image
inline constexpr double kMaxListenTimeout = 3600.0;
inline constexpr const char* kDemoScreenshot = "hdrlab-screenshot.png";
inline constexpr const char* kDemoCapture = "hdrlab-capture.json";

}  // namespace app
