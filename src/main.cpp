// main.cpp: parses the command line and runs the app or a subcommand (cli/Cli.h). Every failure ends
// with one line "hdrlab: error: ..." on stderr and a nonzero exit code.
#include "cli/Cli.h"
#include "util/Log.h"
#include "util/OutputFile.h"

#include <csignal>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

int main(int argc, char** argv)
{
    // Past a file size limit (ulimit -f) a write then fails with EFBIG and a clear error, instead of
    // the default SIGXFSZ killing the process mid-write.
    std::signal(SIGXFSZ, SIG_IGN);
    std::vector<std::string> args(argv + 1, argv + argc);
    app::ParsedCommandLine parsed = app::parseCommandLine(args);
    util::setLogLevel(parsed.logLevel);
    try {
        if (parsed.standardOutputIsData)
            util::reserveStandardOutputForData();
        return app::runParsedCommandLine(parsed);
    } catch (const std::exception& error) {
        std::cout.flush();
        std::cerr << "hdrlab: error: " << app::oneLine(error.what()) << "\n";
        return 1;
    }
}
