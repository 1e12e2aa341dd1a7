// main.cpp: parses the command line and runs the app or a subcommand. Every failure ends with one line
// "hdrlab: error: ..." on stderr and a nonzero exit code.
#include "app/App.h"
#include "cli/Cli.h"
#include "cli/Commands.h"
#include "util/Log.h"
#include "util/OutputFile.h"

#include <csignal>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

namespace {

/// Messages from deeper layers may span lines (e.g. the places searched for data); keep one line.
std::string oneLine(std::string text)
{
    while (!text.empty() && (text.back() == '\n' || text.back() == ' '))
        text.pop_back();
    for (std::size_t at = text.find('\n'); at != std::string::npos; at = text.find('\n', at))
        text.replace(at, 1, "; ");
    return text;
}

int runParsed(const app::ParsedCommandLine& parsed)
{
    switch (parsed.kind) {
        case app::CommandKind::Exit:
            if (!parsed.output.empty())
                std::cout << parsed.output;
            if (!parsed.error.empty())
                std::cerr << "hdrlab: error: " << oneLine(parsed.error) << " (see hdrlab --help)\n";
            return parsed.exitCode;
        case app::CommandKind::Tonemap:
            return app::runTonemapCommand(parsed.common, parsed.tonemap);
        case app::CommandKind::Compare:
            return app::runCompareCommand(parsed.common, parsed.compare);
        case app::CommandKind::Equalize8:
            return app::runEqualize8Command(parsed.common, parsed.equalize8);
        case app::CommandKind::Bench:
            return app::runBenchCommand(parsed.common, parsed.bench);
        case app::CommandKind::Run:
            if (parsed.app.list)
                return app::listMethods(parsed.app);
            return app::App(parsed.app).run();
    }
    return 1;
}

}  // namespace

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
        return runParsed(parsed);
    } catch (const std::exception& error) {
        std::cout.flush();
        std::cerr << "hdrlab: error: " << oneLine(error.what()) << "\n";
        return 1;
    }
}
