// ViewCommand.h: the live mode's command line: hdrlab's own flags (a scene in a window, or headless
// frames and files) and `hdrlab view IMAGE` (the same on an image or a sequence of frames), both
// filling app::AppOptions (app/AppOptions.h), and their run: the live App (app/App.h), or --list.
#pragma once

#include "app/AppOptions.h"
#include "commands/CommandFlags.h"

#include <memory>

namespace app {

/// The live mode on the command line: the constructor adds hdrlab's own flags and --data-dir and
/// --log-level to `cli`; addViewSubcommand() adds `view IMAGE` (after `tonemap`, in the help's order).
/// Once CLI11 has parsed, read() checks the flags and gives the options.
class ViewParser
{
public:
    ViewParser(CLI::App& cli, CommonFlags& common);
    ~ViewParser();
    ViewParser(const ViewParser&) = delete;
    ViewParser& operator=(const ViewParser&) = delete;

    /// Adds `view IMAGE` to `cli`: every live flag falls through to hdrlab's own.
    void addViewSubcommand(CLI::App& cli);
    /// The checked options (`noArguments`: the command line was empty: the demo run without a display);
    /// throws CliError. Sets `standardOutputIsData` when an output is "-".
    AppOptions read(bool noArguments, bool& standardOutputIsData) const;

    struct Flags;  ///< what CLI11 fills (ViewCommand.cpp)

private:
    std::unique_ptr<Flags> mFlags;
};

/// Runs the live mode: --list prints the methods, else the App runs (a window, or headless). Returns
/// the exit code.
int runViewCommand(const AppOptions& options);

}  // namespace app
