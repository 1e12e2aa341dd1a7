// Equalize8Command.cpp: `hdrlab equalize8`'s flags (commands/equalize8/Equalize8Command.h); its run is
// CUDA's (Equalize8Cuda.cpp), so this file builds without the CUDA backend too.
#include "commands/equalize8/Equalize8Command.h"

#include <CLI/CLI.hpp>

namespace app {

/// What CLI11 fills: the options it binds directly, and the flags read() checks.
struct Equalize8Parser::Flags
{
    CLI::App* command = nullptr;
    Equalize8Options bound;
    std::string input, output;
    std::string block = std::to_string(Equalize8Options{}.block);
    CLI::Option* outputOption = nullptr;
};

Equalize8Parser::Equalize8Parser(CLI::App& cli, CommonFlags& common) : mFlags(std::make_unique<Flags>())
{
    Flags& f = *mFlags;
    CLI::App& equalize8 = *(f.command = cli.add_subcommand("equalize8",
                                                           "Histogram-equalize an 8-bit image with CUDA (Bugetti's "
                                                           "program): histogram, scan, remap"));
    equalize8.add_option("input", f.input, "Input 8-bit image (PNG, JPEG...)")->required()->type_name("IN.png");
    f.outputOption = equalize8.add_option("-o,--output", f.output, "Output PNG")->required()->type_name("OUT.png");
    equalize8.add_option("--scan", f.bound.scan, "CUDA scan id (default cuda-kogge-stone)")->type_name("ID");
    equalize8.add_option("--block", f.block, "CUDA block size: 256 or 512 (default 256)")->type_name("N");
    addCommonOptions(equalize8, common);
}

Equalize8Parser::~Equalize8Parser() = default;

bool Equalize8Parser::parsed() const
{
    return mFlags->command->parsed();
}

Equalize8Options Equalize8Parser::read() const
{
    const Flags& f = *mFlags;
    Equalize8Options options = f.bound;
    options.input = f.input;
    options.output = f.output;
    const long long block = parseWholeNumber("--block", f.block, 256, 512);
    if (block != 256 && block != 512)
        throw CliError("--block " + f.block + " is neither 256 nor 512");
    options.block = unsigned(block);
    checkOutputFlags({{f.outputOption, &f.output, kBinaryImage, ".png"}});
    return options;
}

}  // namespace app
