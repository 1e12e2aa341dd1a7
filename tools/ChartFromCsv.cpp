// ChartFromCsv.cpp: draws a log-log chart (util::SvgChart, the writer behind `compare --chart`)
// from a CSV file hdrlab wrote earlier, e.g. the GPU runs kept in docs/perf:
//
//   hdrlab_chart_from_csv docs/perf/compare-h200-2026-11-21.csv out.svg --x bins --y median_ms
//       --series method --where width=1024 --title "..."
//
// --series may join columns with '+' (method+variant); --where (repeatable) keeps the rows whose
// column has that exact value. Rows with an empty or non-numeric x or y are left out of the chart,
// which counts them in its note. Limits: RFC 4180 CSV without newlines inside quoted fields.
#include "util/OutputFile.h"
#include "util/SvgChart.h"

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <limits>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

std::vector<std::string> splitCsvLine(const std::string& line)
{
    std::vector<std::string> fields(1);
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted) {
            if (c == '"' && i + 1 < line.size() && line[i + 1] == '"')
                fields.back() += '"', ++i;
            else if (c == '"')
                quoted = false;
            else
                fields.back() += c;
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            fields.emplace_back();
        } else if (c != '\r') {
            fields.back() += c;
        }
    }
    return fields;
}

double toNumber(const std::string& text)
{
    char* end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    return text.empty() || *end != '\0' ? std::numeric_limits<double>::quiet_NaN() : value;
}

struct Options
{
    std::string input, output, x, y, series, title, xLabel, yLabel, note;
    std::vector<std::pair<std::string, std::string>> where;
};

Options parseArguments(int argc, char** argv)
{
    Options options;
    std::vector<std::string> positional;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc)
                throw std::invalid_argument(arg + " needs a value");
            return argv[++i];
        };
        if (arg == "--x")
            options.x = value();
        else if (arg == "--y")
            options.y = value();
        else if (arg == "--series")
            options.series = value();
        else if (arg == "--title")
            options.title = value();
        else if (arg == "--x-label")
            options.xLabel = value();
        else if (arg == "--y-label")
            options.yLabel = value();
        else if (arg == "--note")
            options.note = value();
        else if (arg == "--where") {
            const std::string condition = value();
            const std::size_t equals = condition.find('=');
            if (equals == std::string::npos)
                throw std::invalid_argument("--where '" + condition + "': expected COLUMN=VALUE");
            options.where.emplace_back(condition.substr(0, equals), condition.substr(equals + 1));
        } else if (!arg.empty() && arg[0] == '-')
            throw std::invalid_argument("unknown option " + arg);
        else
            positional.push_back(arg);
    }
    if (positional.size() != 2 || options.x.empty() || options.y.empty() || options.series.empty())
        throw std::invalid_argument(
            "usage: hdrlab_chart_from_csv IN.csv OUT.svg --x COLUMN --y COLUMN --series "
            "COLUMN[+COLUMN...] [--where COLUMN=VALUE]... [--title T] [--x-label L] "
            "[--y-label L] [--note N]");
    options.input = positional[0];
    options.output = positional[1];
    return options;
}

}  // namespace

int main(int argc, char** argv)
{
    try {
        const Options options = parseArguments(argc, argv);
        std::ifstream in(options.input);
        if (!in)
            throw std::runtime_error("cannot read '" + options.input + "'");
        std::string line;
        if (!std::getline(in, line))
            throw std::runtime_error("'" + options.input + "' is empty");
        const std::vector<std::string> header = splitCsvLine(line);
        auto column = [&](const std::string& name) {
            for (std::size_t i = 0; i < header.size(); ++i)
                if (header[i] == name)
                    return i;
            throw std::runtime_error("'" + options.input + "' has no column '" + name + "'");
        };
        const std::size_t xColumn = column(options.x), yColumn = column(options.y);
        std::vector<std::size_t> seriesColumns;
        for (std::size_t start = 0; start <= options.series.size();) {
            const std::size_t plus = std::min(options.series.find('+', start), options.series.size());
            seriesColumns.push_back(column(options.series.substr(start, plus - start)));
            start = plus + 1;
        }
        std::vector<std::pair<std::size_t, std::string>> where;
        for (const auto& [name, value] : options.where)
            where.emplace_back(column(name), value);

        util::ChartData chart;
        chart.title = options.title.empty() ? options.input : options.title;
        chart.xLabel = options.xLabel.empty() ? options.x : options.xLabel;
        chart.yLabel = options.yLabel.empty() ? options.y : options.yLabel;
        chart.note = options.note;
        std::map<std::string, std::size_t> seriesOf;
        std::size_t rows = 0;
        for (int lineNumber = 2; std::getline(in, line); ++lineNumber) {
            if (line.empty())
                continue;
            const std::vector<std::string> fields = splitCsvLine(line);
            if (fields.size() != header.size())
                throw std::runtime_error("'" + options.input + "' line " + std::to_string(lineNumber) + " has " +
                                         std::to_string(fields.size()) + " fields, the header " +
                                         std::to_string(header.size()));
            bool keep = true;
            for (const auto& [index, value] : where)
                keep = keep && fields[index] == value;
            if (!keep)
                continue;
            std::string name;
            for (std::size_t index : seriesColumns)
                name += (name.empty() ? "" : ", ") + fields[index];
            auto [found, added] = seriesOf.emplace(name, chart.series.size());
            if (added)
                chart.series.push_back({name, {}});
            chart.series[found->second].points.push_back({toNumber(fields[xColumn]), toNumber(fields[yColumn])});
            ++rows;
        }
        if (rows == 0)
            throw std::runtime_error("no row of '" + options.input + "' matches the --where conditions");
        util::writeTextOutput(options.output, util::renderSvgChart(chart));
        std::cout << "wrote " << options.output << ": " << chart.series.size() << " series, " << rows << " rows\n";
        return 0;
    } catch (const std::exception& error) {
        std::cerr << "hdrlab_chart_from_csv: " << error.what() << "\n";
        return 1;
    }
}
