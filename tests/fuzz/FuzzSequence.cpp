// FuzzSequence.cpp: the `sequence` fuzz target (issue 39): a sequence of frames with cuts, generated
// from the input's bytes, written as float OpenEXR files, listed (app::listFrameSequence, as a
// printf pattern, a folder or a glob, with a gap or not), decoded ahead on the worker thread
// (app::SequenceDecoder, the real file decoder) and run through the cut logic on the CPU: the
// percentile operator's reference step with footage on (ref::stepPercentile: the histogram's mean
// log2 L against the previous usable frame's, cutThresholdEv) and the flicker figure within shots
// (post::ExposureHistory with markCut). Checked: every file is listed once in number order and a gap
// is one entry; every frame decodes to the size and values written (a gap to an error naming it);
// a jump larger than the threshold by more than a bin is a cut and one smaller by more than a bin is
// not; the figure equals the RMS of the within-shot rates recomputed here, and is "none" when every
// pair crosses a cut.
//
// Input: byte 0 the frame count (2..16), bytes 1 and 2 the size (1..5 each), byte 3 the naming
// (pattern, folder, glob), the number step (1..3), a gap and the threshold (1..4 EV); then one byte per
// frame, its level (byte - 128) / 8 EV (a missing byte repeats the last: a shot), and one pixel of
// each frame (0, 0) brighter by the byte's low 3 bits in EV.
#include "FuzzEntryPoints.h"

#include "frames/FrameSequence.h"
#include "frames/SequenceDecoder.h"
#include "image/ImageIo.h"
#include "post/ExposureHistory.h"
#include "reference/Histogram.h"
#include "reference/Scan.h"
#include "reference/TonePercentileRef.h"

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace fuzz {
namespace {

namespace fs = std::filesystem;

void require(bool condition, const std::string& what)
{
    if (!condition)
        throw FuzzInvariantError("sequence: " + what);
}

constexpr float kLogMin = -24.0f, kLogMax = 24.0f;  // every level fits: no clamped histogram
constexpr std::uint32_t kBins = 256;
constexpr double kBinWidth = double(kLogMax - kLogMin) / kBins;
constexpr double kDt = 1.0 / 24.0;

struct Plan
{
    int frames = 2, width = 1, height = 1;
    int naming = 0;  ///< 0 pattern, 1 folder, 2 glob
    int step = 1;    ///< between frame numbers
    int gapAt = -1;  ///< a frame not written (its number is a gap), or -1
    float thresholdEv = 2.0f;
    std::vector<float> levelEv;      ///< per frame
    std::vector<float> highlightEv;  ///< pixel (0, 0): the level plus this
};

Plan planOf(Bytes input)
{
    Plan p;
    p.frames = 2 + input[0] % 15;
    p.width = 1 + input[1] % 5;
    p.height = 1 + input[2] % 5;
    const std::uint8_t flags = input[3];
    p.naming = flags % 3;
    p.step = 1 + (flags >> 2) % 3;
    // A gap needs a pair at the plain step left beside it (the listing finds gaps at the smallest
    // step), so 4 frames at least; never the first or the last.
    if ((flags >> 4) & 1 && p.frames >= 4)
        p.gapAt = 1 + int(input[0] / 15) % (p.frames - 2);
    p.thresholdEv = float(1 + ((flags >> 5) & 3));
    std::uint8_t last = 128;
    for (int i = 0; i < p.frames; ++i) {
        if (std::size_t(4 + i) < input.size())
            last = input[std::size_t(4 + i)];
        p.levelEv.push_back((float(last) - 128.0f) / 8.0f);
        p.highlightEv.push_back(float(last & 7));
    }
    return p;
}

image::ImageF frameImage(const Plan& p, int i)
{
    image::ImageF image(p.width, p.height);
    for (int y = 0; y < p.height; ++y)
        for (int x = 0; x < p.width; ++x) {
            const float ev = p.levelEv[std::size_t(i)] + (x == 0 && y == 0 ? p.highlightEv[std::size_t(i)] : 0.0f);
            float* px = image.at(x, y);
            px[0] = px[1] = px[2] = std::exp2(ev);
            px[3] = 1.0f;
        }
    return image;
}

/// Writes the plan's frames into a fresh folder; returns the name the sequence is given by.
fs::path writeSequence(const Plan& p, const fs::path& dir)
{
    fs::remove_all(dir);
    fs::create_directories(dir);
    for (int i = 0; i < p.frames; ++i) {
        if (i == p.gapAt)
            continue;
        char name[64];
        std::snprintf(name, sizeof name, "f.%04d.exr", 10 + i * p.step);
        image::writeExr(dir / name, frameImage(p, i), image::ExrPixelType::Float);
    }
    switch (p.naming) {
        case 0:
            return dir / "f.%04d.exr";
        case 1:
            return dir;
        default:
            return dir / "f.*.exr";
    }
}

/// Frame i's mean log2 L as written (the histogram's is within half a bin of it).
double writtenMeanLog2(const Plan& p, int i)
{
    return double(p.levelEv[std::size_t(i)]) + double(p.highlightEv[std::size_t(i)]) / double(p.width * p.height);
}

/// The frame's histogram, as the pipeline bins it, as an inclusive CDF.
std::vector<std::uint32_t> cdfOf(const image::ImageF& image)
{
    const ref::Histogram h = ref::buildHistogram(image.pixels.data(), image.width, image.height, kLogMin, kLogMax,
                                                 kBins, ref::OutOfRange::Clamp);
    return ref::inclusiveScan(h.bins);
}

}  // namespace

void runSequence(Bytes input)
{
    if (input.size() < 4)
        return;
    const Plan p = planOf(input);
    static const fs::path dir = fs::temp_directory_path() / ("hdrlab-fuzz-sequence-" + std::to_string(::getpid()));
    const fs::path name = writeSequence(p, dir);

    // Listing: every file once, in number order, a gap as one entry.
    const app::FrameSequence sequence = app::listFrameSequence(name);
    require(sequence.fileCount() == std::size_t(p.frames - (p.gapAt >= 0 ? 1 : 0)), "a file is missing or doubled");
    require(sequence.frames.size() == std::size_t(p.frames), "the gap is not one entry, or entries are missing");
    for (std::size_t i = 0; i < sequence.frames.size(); ++i) {
        const app::SequenceFrame& f = sequence.frames[i];
        require(f.number && *f.number == 10 + long(i) * p.step, "frame " + std::to_string(i) + " has the wrong number");
        require(f.missing() == (int(i) == p.gapAt), "frame " + std::to_string(i) + ": gap where none is, or none");
    }

    // Decoding on the worker thread, in order; then the cut logic frame by frame.
    app::SequenceDecoder decoder(sequence.frames, app::fileFrameDecoder(""), false, 2);
    post::PercentileSettings settings;
    settings.cutThresholdEv = p.thresholdEv;
    ref::PercentileState state;
    post::ExposureHistory history(1e9, 1u << 16);
    std::optional<double> previousMean, previousWritten;
    std::vector<std::optional<double>> keys(std::size_t(p.frames));
    std::vector<bool> cutAt(std::size_t(p.frames), false);
    int taken = 0;
    while (std::optional<app::DecodedFrame> frame = decoder.take()) {
        const int i = int(frame->index);
        require(i == taken, "frames decoded out of order");
        ++taken;
        history.addFrame(std::uint64_t(i), i * kDt, kDt * 1000.0);
        if (i == p.gapAt) {
            require(!frame->ok() && frame->error.find("f.") != std::string::npos, "the gap decoded or is not named");
            continue;
        }
        require(frame->ok(), "frame " + std::to_string(i) + " did not decode: " + frame->error);
        require(frame->image.width == p.width && frame->image.height == p.height, "a frame decoded at another size");
        const image::ImageF written = frameImage(p, i);
        // Rows come back bottom-up: the same pixels, with (0, 0) at the last row.
        for (int y = 0; y < p.height; ++y)
            for (int x = 0; x < p.width; ++x)
                require(frame->image.at(x, p.height - 1 - y)[1] == written.at(x, y)[1],
                        "frame " + std::to_string(i) + " decoded other values");
        const std::vector<std::uint32_t> cdf = cdfOf(frame->image);
        const double mean = *ref::histogramMeanLog2(cdf, kLogMin, kLogMax);
        state = ref::stepPercentile(state, cdf, kLogMin, kLogMax, kDt, settings, true);
        require(std::isfinite(state.exposureEv), "a non-finite exposure");
        if (previousMean) {
            // The frames' own jump (as written) decides, within the histogram's quantisation.
            const double written = std::fabs(writtenMeanLog2(p, i) - *previousWritten);
            require(!(written > p.thresholdEv + kBinWidth) || state.cut, "a jump beyond the threshold is no cut");
            require(!(written < p.thresholdEv - kBinWidth) || !state.cut, "a jump within the threshold is a cut");
            require(!state.cut || std::fabs(state.cutDistanceEv - std::fabs(mean - *previousMean)) < 1e-4,
                    "the cut distance is not the histogram means' move");
        } else {
            require(!state.cut, "the first frame is a cut");
        }
        previousMean = mean;
        previousWritten = writtenMeanLog2(p, i);
        keys[std::size_t(i)] = -state.exposureEv;
        history.setKeyValue(std::uint64_t(i), float(-state.exposureEv));
        if (state.cut) {
            cutAt[std::size_t(i)] = true;
            history.markCut(std::uint64_t(i));
        }
    }
    require(taken == p.frames, "the decoder stopped early or ran on");

    // The flicker figure within shots, recomputed: RMS of the rate over consecutive frames that both
    // have a key value, the second no cut.
    double sum = 0.0;
    std::size_t pairs = 0;
    for (int i = 0; i + 1 < p.frames; ++i) {
        const auto& a = keys[std::size_t(i)];
        const auto& b = keys[std::size_t(i + 1)];
        if (!a || !b || cutAt[std::size_t(i + 1)])
            continue;
        const double rate = (double(float(*b)) - double(float(*a))) / kDt;
        sum += rate * rate;
        ++pairs;
    }
    const std::optional<double> figure = history.flickerEvPerSecond();
    require(history.flickerPairs() == pairs, "the figure counts other pairs than the shots hold");
    require(figure.has_value() == (pairs > 0), "a figure without pairs, or none with pairs");
    if (figure) {
        const double expected = std::sqrt(sum / double(pairs));
        require(std::isfinite(*figure) && std::fabs(*figure - expected) <= 1e-6 * (1.0 + expected),
                "the figure is not the within-shot RMS");
    }
    fs::remove_all(dir);
}

}  // namespace fuzz
