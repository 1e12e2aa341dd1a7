// Equalize8Command.h: `hdrlab equalize8 IN.png -o OUT.png`: its options, its command line (the
// subcommand and its flags, commands/equalize8/Equalize8Command.cpp) and its run: Bugetti's CUDA
// histogram equalization of an 8-bit image (commands/equalize8/Equalize8Cuda.cpp; without the CUDA
// backend commands/CudaCommandsFallback.cpp says so).
#pragma once

#include "commands/CommandFlags.h"
#include "commands/CommonOptions.h"

#include <filesystem>
#include <memory>
#include <string>

namespace app {

/// `hdrlab equalize8 IN.png -o OUT.png --scan ID --block 256|512` (Bugetti's CUDA program)
struct Equalize8Options
{
    std::filesystem::path input;
    std::filesystem::path output;
    std::string scan = "cuda-kogge-stone";
    unsigned block = 256;
};

/// The `equalize8` subcommand on the command line: the constructor adds it and its flags to `cli`;
/// once CLI11 has parsed, read() checks the flags and gives the options.
class Equalize8Parser
{
public:
    Equalize8Parser(CLI::App& cli, CommonFlags& common);
    ~Equalize8Parser();
    Equalize8Parser(const Equalize8Parser&) = delete;
    Equalize8Parser& operator=(const Equalize8Parser&) = delete;

    /// Whether the command line named `equalize8`.
    bool parsed() const;
    /// The checked options; throws CliError.
    Equalize8Options read() const;

    struct Flags;  ///< what CLI11 fills (Equalize8Command.cpp)

private:
    std::unique_ptr<Flags> mFlags;
};

/// Runs `equalize8`; returns the exit code (2 without the CUDA backend).
int runEqualize8Command(const CommonOptions& common, const Equalize8Options& options);

}  // namespace app
