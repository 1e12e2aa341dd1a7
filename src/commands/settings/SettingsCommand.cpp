// SettingsCommand.cpp: `hdrlab settings --list` (commands/settings/SettingsCommand.h).
#include "commands/settings/SettingsCommand.h"

#include "post/PipelineParameters.h"

#include <CLI/CLI.hpp>

namespace app {

SettingsParser::SettingsParser(CLI::App& cli)
{
    mCommand = cli.add_subcommand("settings", "Every setting's key, type, values and default (--set, --settings)");
    mCommand->add_flag("--list", mList, "List every key with its type, range or choices and default");
}

bool SettingsParser::parsed() const
{
    return mCommand->parsed();
}

std::string SettingsParser::read() const
{
    if (!mList)
        throw CliError("settings needs --list (hdrlab settings --list prints every key)");
    return post::formatParameterTable();
}

}  // namespace app
