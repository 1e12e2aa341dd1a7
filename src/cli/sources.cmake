# The command line: flags, subcommands, dispatch.
target_sources(hdrlab_core PRIVATE cli/Cli.cpp)
