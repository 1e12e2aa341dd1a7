#include "commands/tonemap/TonemapAll.h"
#include "commands/tonemap/TonemapCore.h"

#include "image/HdrPng.h"
#include "image/ImageIo.h"
#include "platform/GlContext.h"
#include "post/CudaProbe.h"
#include "post/Equalize8.h"
#include "post/HistogramCsv.h"
#include "post/PictureInfo.h"
#include "post/PipelineParameters.h"
#include "post/PostPipeline.h"
#include "post/SettingsFile.h"
#include "post/scan/ScanMethod.h"
#include "post/tonemap/LocalTileCurves.h"
#include "post/tonemap/ToneOperator.h"
#include "post/tonemap/ToneShaders.h"
#include "profiling/Profiler.h"
#include "reference/Equalize8.h"
#include "util/Log.h"
#include "util/OutputFile.h"
#include "util/Paths.h"
#include "verify/PipelineVerify.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <iostream>
#include <numbers>
#include <sstream>
#include <stdexcept>

namespace app {

namespace {

constexpr std::string_view kPrefix = "hdrlab tonemap: ";

float parseFloat(std::string_view text, std::string_view what)
{
    std::string copy(text);
    std::size_t used = 0;
    float value = 0.0f;
    try {
        value = std::stof(copy, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (copy.empty() || used != copy.size())
        throw CliError(util::format("--range: {} '{}' is not a number", what, copy));
    if (!std::isfinite(value))
        throw CliError(util::format("--range: {} '{}' is not finite", what, copy));
    return value;
}

std::string toneOperatorIds()
{
    std::string ids;
    for (const post::ToneOperatorEntry& entry : post::toneOperatorRegistry())
        ids += (ids.empty() ? "" : ", ") + std::string(entry.id);
    return ids.empty() ? "none registered" : ids;
}

void writeText(const std::filesystem::path& path, const std::string& text)
{
    util::writeTextOutput(path, text);
}

std::string curveCsv(const std::vector<float>& curve, float histogramLogMin, float histogramLogMax)
{
    std::ostringstream csv;
    csv.precision(9);
    const int channels = int(curve[hd::kCurveChannels]) == 3 ? 3 : 1;
    if (curve[hd::kCurveMode] == hd::kCurveModeLinearScale) {
        // A straight line Ld = scale * Lw: sampled over the histogram range.
        const double scale = curve[hd::kCurveScale];
        constexpr int kSamples = 256;
        csv << "log2_Lw,Ld\n";
        for (int i = 0; i < kSamples; ++i) {
            double logL = histogramLogMin + (i + 0.5) * (double(histogramLogMax) - histogramLogMin) / kSamples;
            csv << logL << "," << scale * std::exp2(logL) << "\n";
        }
        return csv.str();
    }
    const int samples = std::clamp(int(curve[hd::kCurveSampleCount]), 1, int(hd::kMaxCurveSamples));
    const double logMin = curve[hd::kCurveLogMin];
    const double logMax = curve[hd::kCurveLogMax];
    csv << (channels == 3 ? "log2_Lw,Ld_r,Ld_g,Ld_b\n" : "log2_Lw,Ld\n");
    for (int i = 0; i < samples; ++i) {
        csv << logMin + (i + 0.5) * (logMax - logMin) / samples;
        for (int c = 0; c < channels; ++c)
            csv << "," << curve[hd::kCurveHeaderWords + std::size_t(c) * hd::kMaxCurveSamples + std::size_t(i)];
        csv << "\n";
    }
    return csv.str();
}

}  // namespace

std::string histogramCsv(const std::vector<std::uint32_t>& words,
                         const std::vector<std::uint32_t>& params,
                         bool countersValid)
{
    const float logMin = std::bit_cast<float>(params[hd::kParamLogMin]);
    const float logMax = std::bit_cast<float>(params[hd::kParamLogMax]);
    const std::uint32_t bins = std::clamp(params[hd::kParamBinCount], 1u, hd::kMaxHistogramBins);
    std::ostringstream csv;
    csv.precision(9);
    csv << "bin,log2_lower,log2_upper,count\n";
    const double width = (double(logMax) - logMin) / bins;
    for (std::uint32_t i = 0; i < bins; ++i)
        csv << i << "," << logMin + i * width << "," << logMin + (i + 1) * width << "," << words[i] << "\n";
    csv << "\ncounter,count\n";
    const char* names[] = {"nan", "inf", "non_positive", "below", "above"};
    for (std::uint32_t i = 0; i < 5; ++i) {
        csv << names[i] << ",";
        if (countersValid)
            csv << words[hd::kHistogramCountersOffset + i];
        csv << "\n";
    }
    return csv.str();
}

namespace {

/// The exact 8-bit path: an 8-bit grey PNG with the equalize operator.
int equalizeGreyPng(const TonemapOptions& options,
                    const image::Image8& grey,
                    gl::ShaderLibrary& shaders,
                    const post::GpuCaps& caps,
                    std::ostream& out)
{
    std::unique_ptr<post::ScanMethod> scan = post::createScanMethod(options.scanMethod);
    if (!scan)
        throw std::invalid_argument("unknown scan method '" + options.scanMethod + "'");
    if (post::Availability a = scan->availability(caps); !a.available)
        throw std::invalid_argument("scan method '" + options.scanMethod + "' is unavailable: " + a.reason);
    std::vector<std::uint8_t> levels(std::size_t(grey.width) * std::size_t(grey.height));
    for (std::size_t i = 0; i < levels.size(); ++i)
        levels[i] = grey.pixels[i * std::size_t(grey.channels)];

    profiling::Profiler profiler(caps.glTimersUseful);
    post::PassContext ctx{shaders, profiler, caps, 0};
    post::Equalize8 equalize;
    std::vector<std::uint8_t> result = equalize.run(ctx, *scan, levels.data(), levels.size());

    image::Image8 output(grey.width, grey.height, 1);
    output.pixels = std::move(result);
    image::writePng(options.output, output);
    const auto histogram = equalize.histogram().readAll<std::uint32_t>(post::Equalize8::kLevels);
    if (options.histogramOut) {
        std::ostringstream csv;
        csv << "level,count\n";
        for (std::uint32_t i = 0; i < post::Equalize8::kLevels; ++i)
            csv << i << "," << histogram[i] << "\n";
        writeText(*options.histogramOut, csv.str());
    }
    if (options.curveOut) {
        // The level mapping, read off the image (levels with no pixel are not mapped).
        std::vector<int> mapping(post::Equalize8::kLevels, -1);
        for (std::size_t i = 0; i < levels.size(); ++i)
            mapping[levels[i]] = output.pixels[i];
        std::ostringstream csv;
        csv << "level,equalized\n";
        for (std::uint32_t i = 0; i < post::Equalize8::kLevels; ++i)
            if (mapping[i] >= 0)
                csv << i << "," << mapping[i] << "\n";
        writeText(*options.curveOut, csv.str());
    }
    out << "equalized 8-bit grey " << grey.width << "x" << grey.height << " (" << scan->id() << ") -> "
        << options.output.string() << "\n";
    if (options.verify) {
        // The exact 8-bit path's check: every pixel against the CPU reference (reference/Equalize8.h).
        const std::vector<std::uint8_t> expected = ref::equalize8(levels.data(), levels.size());
        std::size_t mismatches = 0;
        for (std::size_t i = 0; i < levels.size(); ++i)
            mismatches += expected[i] != output.pixels[i] ? 1 : 0;
        out << "verify (8-bit equalization, " << levels.size() << " pixels against the CPU reference): "
            << (mismatches == 0 ? "ok, every pixel equal" : std::to_string(mismatches) + " pixels differ") << "\n";
        if (mismatches != 0)
            throw std::runtime_error("verification failed");
    }
    return 0;
}

/// --settings FILE, then the dedicated flags given (so they win over the file), then each --set.
void applySettingsOptions(post::PostPipeline& pipeline, const TonemapOptions& options, std::ostream& err)
{
    post::PipelineParameters parameters(pipeline);
    std::vector<std::string> warnings;
    if (options.settingsFile) {
        warnings = post::loadSettingsFile(*options.settingsFile, parameters);
        if (options.histogramMethod) {  // --histogram-method, typed; it was applied (and checked) before the file
            post::PipelineSettings wanted = pipeline.settings();
            wanted.histogramMethod = *options.histogramMethod;
            pipeline.applySettings(wanted);
        }
        std::vector<post::SettingAssignment> flags;
        for (const std::string& text : options.flagAssignments)
            flags.push_back(post::parseAssignment(text, "command line"));
        for (std::string& warning : parameters.apply(flags))
            warnings.push_back(std::move(warning));
    }
    std::vector<post::SettingAssignment> sets;
    for (const std::string& text : options.settingAssignments)
        sets.push_back(post::parseAssignment(text, "--set"));
    for (std::string& warning : parameters.apply(sets))
        warnings.push_back(std::move(warning));
    for (const std::string& warning : warnings)
        err << kPrefix << "warning: " << warning << "\n";
}

/// What tonemapToFrame keeps of the pipeline after its one frame, instead of writing files.
void keepFrame(post::PostPipeline& pipeline, image::Image8&& picture, TonemapFrame& frame)
{
    frame.toneOperator = std::string(pipeline.toneOperator().id());
    frame.toneOperatorLabel = std::string(pipeline.toneOperator().label());
    frame.histogramMethod = std::string(pipeline.histogramMethod().id());
    frame.picture = std::move(picture);
    frame.curve = pipeline.curveBuffer().readAll<float>(hd::kCurveBufferWords);
    frame.histogram = pipeline.histogramBuffer().readAll<std::uint32_t>(hd::kHistogramBufferWords);
    frame.params = pipeline.paramsBuffer().readAll<std::uint32_t>(hd::kHistogramParamsWords);
    frame.countersValid = pipeline.histogramMethod().fillsCounters();
    frame.keyValueName = std::string(pipeline.toneOperator().keyValueName());
    glFinish();  // once, after the only frame: the operator's state readback is there to take
    for (const post::KeyValueSample& sample : pipeline.toneOperator().takeKeyValues())
        frame.keyValueEv = sample.ev;
}

/// `frame`: null to write the files and print the summary; else the frame is kept there instead.
int tonemapHdr(const TonemapOptions& options,
               gl::ShaderLibrary& shaders,
               const post::GpuCaps& caps,
               std::ostream& out,
               std::ostream& err,
               TonemapFrame* frame = nullptr)
{
    const auto range = options.range ? parseTonemapRange(*options.range) : std::nullopt;
    image::ImageF hdr = image::loadHdrImage(options.input, options.exrPart);
    if (hdr.empty())
        throw std::invalid_argument("'" + options.input.string() + "' has no pixels");
    if (hdr.width > caps.maxTextureSize || hdr.height > caps.maxTextureSize)
        throw std::invalid_argument(util::format("'{}' is {}x{}; this GPU takes textures up to {} pixels a side",
                                                 options.input.string(), hdr.width, hdr.height, caps.maxTextureSize));

    gl::Texture texture("tonemap.input", GL_RGBA32F, {hdr.width, hdr.height});
    texture.upload(GL_RGBA, GL_FLOAT, hdr.pixels.data());

    profiling::Profiler profiler(caps.glTimersUseful);
    post::PostPipeline pipeline(shaders, profiler, caps);
    post::PipelineSettings settings = pipeline.settings();
    if (options.histogramMethod)
        settings.histogramMethod = *options.histogramMethod;
    settings.scanMethod = options.scanMethod;
    if (!post::toneOperatorRegistry().empty())
        settings.toneOperator = options.toneOperator;
    else
        err << kPrefix << "warning: no tone operator is registered; using the unit-scale placeholder curve\n";
    settings.spec.binCount = options.bins;
    settings.rangeMode = range ? post::RangeMode::Manual : post::RangeMode::Auto;
    if (range) {
        settings.logMin = range->first;
        settings.logMax = range->second;
    }
    settings.autoRangeSpeed = 0.0f;  // a still image: no temporal smoothing
    std::string message;
    pipeline.applySettings(settings, &message);
    const post::PipelineSettings& applied = pipeline.settings();
    if (applied.histogramMethod != settings.histogramMethod || applied.scanMethod != settings.scanMethod ||
        applied.toneOperator != settings.toneOperator) {
        std::string text = message;
        if (applied.toneOperator != settings.toneOperator)
            text += " (operators: " + toneOperatorIds() + ")";
        throw std::invalid_argument(text);
    }
    if (!message.empty())
        err << kPrefix << "note: " << message << "\n";
    applySettingsOptions(pipeline, options, err);
    pipeline.setViewMode(*post::parseViewMode(options.view), true);
    pipeline.setTopDownRows(true);  // the image is uploaded as read: row 0 at the top
    std::optional<post::HistogramFile> fed;
    if (options.histogramIn) {
        fed = post::readHistogramCsv(*options.histogramIn);
        pipeline.setFedHistogram(fed->histogram);
        if (fed->histogram.scaleLog2 != 0)
            err << kPrefix << "note: --histogram-in: counts scaled by 2^" << fed->histogram.scaleLog2
                << " and rounded to whole numbers for the GPU histogram\n";
        if (post::ToneFileHooks* hooks = pipeline.toneOperator().fileHooks())
            hooks->feedHistogramFile(*fed);  // e.g. Ward: the histogram its curve was made from
    }
    pipeline.setInputRadiance(hdr.radiance);                     // a Radiance picture's units (post/LuminanceUnits.h)
    pipeline.setPictureInfo(post::pictureInfoOf(hdr.radiance));  // a still picture: its view (Ward's pcond sampling)
    for (const glm::ivec2 point : options.probes)
        if (point.x < 0 || point.y < 0 || point.x >= hdr.width || point.y >= hdr.height)
            throw std::invalid_argument(util::format("--probe {},{} is outside the {}x{} image (X 0..{}, Y 0..{})",
                                                     point.x, point.y, hdr.width, hdr.height, hdr.width - 1,
                                                     hdr.height - 1));
    pipeline.setProbePoints(options.probes);

    pipeline.toneOperator().resetState();
    profiler.beginFrame();
    const gl::Texture& display = pipeline.run(post::ImageInput{texture, {hdr.width, hdr.height}}, 1.0 / 60.0, 60.0f);
    profiler.endFrame();
    if (const post::ToneFileHooks* hooks = pipeline.toneOperator().fileHooks())
        if (const std::string note = hooks->runNote(); !note.empty())
            err << kPrefix << "note: " << note << "\n";

    const std::vector<unsigned char> rgba = display.readRgba8();
    image::Image8 png(hdr.width, hdr.height, 3);
    for (std::size_t i = 0, n = std::size_t(hdr.width) * std::size_t(hdr.height); i < n; ++i)
        for (int c = 0; c < 3; ++c)
            png.pixels[i * 3 + std::size_t(c)] = rgba[i * 4 + std::size_t(c)];
    if (frame) {
        keepFrame(pipeline, std::move(png), *frame);
        return 0;
    }
    const gl::Texture* hdrOut = pipeline.hdrOutputTexture();
    if (hdrOut && pipeline.viewMode() == post::ViewMode::ToneMapped) {
        // HDR10: the 16-bit PQ PNG (cICP, mDCV, cLLI) of the display light; row 0 is the top.
        image::ImageF nits(hdr.width, hdr.height);
        nits.pixels = hdrOut->readRgbaFloat();
        const image::Hdr10Metadata metadata = image::contentLightLevels(nits, pipeline.lastRun().display.peak);
        image::writeHdr10Png(options.output, nits, metadata);
        if (options.hdrExr)
            image::writeExr(*options.hdrExr, nits, image::ExrPixelType::Float);
        out << "HDR10 (PQ, BT.2020, peak " << pipeline.lastRun().display.peak << " cd/m^2): MaxCLL "
            << metadata.maxContentLightLevel << ", MaxFALL " << metadata.maxFrameAverageLightLevel << " cd/m^2\n";
    } else {
        if (options.hdrExr)
            throw CliError("--hdr-exr needs --set display.target=hdr10 (the display light of an HDR10 picture)");
        image::writePng(options.output, png);
    }

    const auto params = pipeline.paramsBuffer().readAll<std::uint32_t>(hd::kHistogramParamsWords);
    if (options.curveOut) {
        const post::ToneFileHooks* hooks = pipeline.toneOperator().fileHooks();
        if (const std::optional<std::string> own = hooks ? hooks->curveCsv() : std::nullopt) {
            writeText(*options.curveOut, *own);  // e.g. Ward's pcond sampling: pcond -x's pairs
        } else {
            const auto curve = pipeline.curveBuffer().readAll<float>(hd::kCurveBufferWords);
            writeText(*options.curveOut, curveCsv(curve, std::bit_cast<float>(params[hd::kParamLogMin]),
                                                  std::bit_cast<float>(params[hd::kParamLogMax])));
        }
    }
    if (options.histogramOut) {
        const auto words = pipeline.histogramBuffer().readAll<std::uint32_t>(hd::kHistogramBufferWords);
        std::string csv = histogramCsv(words, params, pipeline.histogramMethod().fillsCounters() && !fed);
        // Ward's curve comes from its own adaptation histogram: appended, so --histogram-in gives it back.
        if (const post::ToneFileHooks* hooks = pipeline.toneOperator().fileHooks())
            csv += hooks->histogramCsvSection();
        writeText(*options.histogramOut, csv);
    }
    out << "tone-mapped " << hdr.width << "x" << hdr.height << " with " << pipeline.toneOperator().id() << " ("
        << pipeline.histogramMethod().id() << ", " << params[hd::kParamBinCount]  // the bins binned (a fed file's own)
        << " bins, log2 L [" << std::bit_cast<float>(params[hd::kParamLogMin]) << ", "
        << std::bit_cast<float>(params[hd::kParamLogMax]) << "]"
        << (fed ? ", histogram from " + options.histogramIn->string() : std::string()) << ") -> "
        << options.output.string()
        << (pipeline.viewMode() == post::ViewMode::FalseColour ? " (false-colour EV view)"
            : pipeline.viewMode() == post::ViewMode::Metering  ? " (metering weights view)"
                                                               : "")
        << "; units: " << pipeline.luminanceUnits().describe() << "\n";
    if (!options.probes.empty()) {
        glFinish();  // once, after the only frame: its probe records are there to take
        pipeline.pollProbe();
        if (const auto probe = pipeline.latestProbe())
            for (const post::ProbeSample& sample : probe->samples)
                out << "probe " << &sample - probe->samples.data() + 1 << " at "
                    << post::describeProbeSample(sample, pipeline.luminanceUnits().probeNote())
                    << post::describeProbeTiles(sample, pipeline.toneOperator())
                    << pipeline.describeLocalExposureProbe(std::size_t(&sample - probe->samples.data())) << "\n";
    }
    if (options.verify) {
        verify::VerifyReport report = verify::verifyPipeline(pipeline);
        out << report.text;
        if (!report.ok)
            throw std::runtime_error("verification failed");
    }
    return 0;
}

}  // namespace

std::optional<std::pair<float, float>> parseTonemapRange(std::string_view text)
{
    if (text == "auto")
        return std::nullopt;
    std::size_t colon = text.find(':');
    if (colon == std::string_view::npos || text.find(':', colon + 1) != std::string_view::npos)
        throw CliError(util::format("--range '{}': expected MIN:MAX (log2 units) or auto", text));
    float logMin = parseFloat(text.substr(0, colon), "MIN");
    float logMax = parseFloat(text.substr(colon + 1), "MAX");
    if (!(logMin < logMax))
        throw CliError(util::format("--range '{}': MIN must be below MAX", text));
    return std::make_pair(logMin, logMax);
}

int tonemapImage(const TonemapOptions& options,
                 gl::ShaderLibrary& shaders,
                 const post::GpuCaps& caps,
                 std::ostream& out,
                 std::ostream& err)
{
    try {
        if (options.bins < 1 || options.bins > hd::kMaxHistogramBins)
            throw CliError(util::format("--bins {}: must be 1..{}", options.bins, hd::kMaxHistogramBins));
        if (options.range)
            parseTonemapRange(*options.range);  // reports a bad range before any file is read
        if (!post::parseViewMode(options.view))
            throw CliError("--view '" + options.view + "': expected tonemapped, false-colour or metering");
        if (options.probes.size() > hd::kMaxProbes)
            throw CliError(util::format("{} probes; at most {}", options.probes.size(), hd::kMaxProbes));
        if (options.output.empty())
            throw CliError("no output file (-o OUT.png)");
        if (options.histogramIn && options.verify)
            throw CliError("--verify compares with the picture's own histogram; not with --histogram-in");
        if (options.histogramIn)
            post::readHistogramCsv(*options.histogramIn);  // a bad file is reported before the image is read
        if (isTonemapSelection(options))                   // --operator all, --preset: commands/tonemap/TonemapAll.h
            return tonemapSelection(options, shaders, caps, out, err);
        // The exact 8-bit path has no probe and no false-colour view: those go through the HDR path.
        if (options.toneOperator == "equalize" && options.view == "tonemapped" && options.probes.empty() &&
            !options.histogramIn && image::detectFileKind(options.input) == image::FileKind::Png) {
            image::Image8 source = image::loadImage8(options.input);
            if (source.channels <= 2)
                return equalizeGreyPng(options, source, shaders, caps, out);
        }
        return tonemapHdr(options, shaders, caps, out, err);
    } catch (const std::exception& error) {
        return reportCommandError(err, error);
    }
}

void tonemapToFrame(const TonemapOptions& options,
                    gl::ShaderLibrary& shaders,
                    const post::GpuCaps& caps,
                    std::ostream& err,
                    TonemapFrame& frame)
{
    std::ostringstream unused;
    tonemapHdr(options, shaders, caps, unused, err, &frame);
}

int runTonemapCommand(const CommonOptions& common, const TonemapOptions& options)
{
    if (usesSequenceOptions(options))
        return runTonemapSequence(common, options);
    try {
        if (options.range)
            parseTonemapRange(*options.range);
        const std::filesystem::path shaderRoot = util::findDataRoot(common.dataDir) / "shaders";
        platform::ContextOptions contextOptions;
        contextOptions.debug = common.verbose;
        std::unique_ptr<platform::GlContext> context = platform::createHeadlessContext(contextOptions);
        gl::ShaderLibrary shaders(shaderRoot);
        post::GpuCaps caps = post::queryGpuCaps(context->info());
        cuda::probeCudaForGl(caps);  // CUDA methods run in the tonemap pipeline too, where a CUDA GPU drives GL
        return tonemapImage(options, shaders, caps, std::cout, std::cerr);
    } catch (const std::exception& error) {
        return reportCommandError(std::cerr, error);
    }
}

}  // namespace app
