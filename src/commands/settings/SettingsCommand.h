// SettingsCommand.h: `hdrlab settings --list`: every setting's key, type, values and default (the keys
// of --set and --settings, post/PipelineParameters.h). It needs no GL: the command line prints it.
#pragma once

#include "commands/CommandFlags.h"

#include <string>

namespace app {

/// The `settings` subcommand on the command line: the constructor adds it and --list to `cli`.
class SettingsParser
{
public:
    explicit SettingsParser(CLI::App& cli);
    SettingsParser(const SettingsParser&) = delete;  // CLI11 keeps the address of mList
    SettingsParser& operator=(const SettingsParser&) = delete;

    /// Whether the command line named `settings`.
    bool parsed() const;
    /// The text `settings --list` prints; throws CliError without --list.
    std::string read() const;

private:
    CLI::App* mCommand = nullptr;
    bool mList = false;
};

}  // namespace app
