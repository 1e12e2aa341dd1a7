// ClaheCommand.h: `hdrlab clahe IN.png -o OUT.png`: OpenCV's CLAHE (cv::createCLAHE(clipLimit,
// tileGridSize)->apply, bit for bit) on a single-channel 8-bit or 16-bit image with a chosen backend
// (commands/clahe/ClaheBackends.h: gl, cuda, cpu); its options, its command line (the subcommand and
// its flags) and its run (ClaheCommand.cpp). The output has the input's bit depth; an image of several
// channels is refused unless --per-channel (then R, G and B, or grey, each on its own; alpha kept).
#pragma once

#include "commands/CommandFlags.h"
#include "commands/CommonOptions.h"

#include <filesystem>
#include <memory>
#include <string>

namespace app {

/// `hdrlab clahe IN.png -o OUT.png [--clip-limit 40] [--tile-grid 8x8] [--backend gl|cuda|cpu]
/// [--per-channel] [--verify] [--runs N]`, OpenCV's parameter names and defaults.
struct ClaheOptions
{
    std::filesystem::path input;
    std::filesystem::path output;
    double clipLimit = 40.0;  ///< OpenCV's clipLimit: 0 no clipping; the limit is clipLimit x tile area / bins
    int tilesX = 8, tilesY = 8;
    std::string backend = "gl";
    bool perChannel = false;  ///< process each colour channel of an RGB(A) or grey + alpha image
    bool verify = false;      ///< also run the CPU reference and count the samples that differ
    int runs = 10;            ///< timed runs after the first (the median per pass is printed)
};

/// The `clahe` subcommand on the command line: the constructor adds it and its flags to `cli`; once
/// CLI11 has parsed, read() checks the flags and gives the options.
class ClaheParser
{
public:
    ClaheParser(CLI::App& cli, CommonFlags& common);
    ~ClaheParser();
    ClaheParser(const ClaheParser&) = delete;
    ClaheParser& operator=(const ClaheParser&) = delete;

    /// Whether the command line named `clahe`.
    bool parsed() const;
    /// The checked options; throws CliError.
    ClaheOptions read() const;

    struct Flags;  ///< what CLI11 fills (ClaheCommand.cpp)

private:
    std::unique_ptr<Flags> mFlags;
};

/// "WxH" of 1..64 tiles each (--tile-grid); throws CliError.
void parseTileGrid(std::string_view text, int& tilesX, int& tilesY);

/// Runs `clahe`: 0 done, 1 the image could not be read, processed or written, or --verify found a
/// difference, 2 the backend is unavailable here.
int runClaheCommand(const CommonOptions& common, const ClaheOptions& options);

}  // namespace app
