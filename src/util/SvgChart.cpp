#include "util/SvgChart.h"

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <vector>

namespace util {

namespace {

constexpr double kLeftMargin = 72.0;
constexpr double kTopMargin = 44.0;
constexpr double kBottomMargin = 66.0;
constexpr double kLegendWidth = 230.0;
constexpr double kLegendRow = 18.0;
constexpr double kMarkerRadius = 3.5;

constexpr double kNoteLine = 14.0;
constexpr double kNoteCharWidth = 6.0;  // about, for 11 px sans-serif

/// `text` in lines of at most `maxChars` (where it can), broken after "; ".
std::vector<std::string> wrapAtSemicolons(const std::string& text, std::size_t maxChars)
{
    std::vector<std::string> lines;
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.size();
        if (end - start > maxChars) {
            const std::size_t cut = text.rfind("; ", start + maxChars);
            const std::size_t next = cut != std::string::npos && cut > start ? cut : text.find("; ", start + maxChars);
            end = next == std::string::npos ? text.size() : next + 1;  // keep the ';' on the line it ends
        }
        lines.push_back(text.substr(start, end - start));
        start = end;
        while (start < text.size() && text[start] == ' ')
            ++start;
    }
    return lines;
}

std::string number(double value)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.2f", value);
    return text;
}

std::string rgb(ChartColor color)
{
    char text[16];
    std::snprintf(text, sizeof text, "#%02x%02x%02x", color.r, color.g, color.b);
    return text;
}

/// One marker centred on (x, y); `tooltip` becomes its <title> (browsers show it on hover).
void writeMarker(std::ostringstream& out, MarkerShape shape, double x, double y, const std::string& tooltip)
{
    const double r = kMarkerRadius;
    const std::string title = tooltip.empty() ? "" : "<title>" + escapeXml(tooltip) + "</title>";
    switch (shape) {
        case MarkerShape::Circle:
            out << "<circle cx=\"" << number(x) << "\" cy=\"" << number(y) << "\" r=\"" << number(r) << "\">";
            out << title << "</circle>\n";
            return;
        case MarkerShape::Square:
            out << "<rect x=\"" << number(x - r) << "\" y=\"" << number(y - r) << "\" width=\"" << number(2 * r)
                << "\" height=\"" << number(2 * r) << "\">" << title << "</rect>\n";
            return;
        case MarkerShape::Triangle:
            out << "<polygon points=\"" << number(x) << "," << number(y - 1.2 * r) << " " << number(x + 1.1 * r) << ","
                << number(y + 0.8 * r) << " " << number(x - 1.1 * r) << "," << number(y + 0.8 * r) << "\">" << title
                << "</polygon>\n";
            return;
        case MarkerShape::Diamond:
            out << "<polygon points=\"" << number(x) << "," << number(y - 1.3 * r) << " " << number(x + 1.3 * r) << ","
                << number(y) << " " << number(x) << "," << number(y + 1.3 * r) << " " << number(x - 1.3 * r) << ","
                << number(y) << "\">" << title << "</polygon>\n";
            return;
    }
}

std::string pointText(const std::string& name, ChartPoint point)
{
    char text[64];
    std::snprintf(text, sizeof text, ": x %.6g, y %.6g", point.x, point.y);
    return name + text;
}

}  // namespace

PlotRect svgPlotRect(const SvgChartSize& size)
{
    PlotRect rect;
    rect.left = kLeftMargin;
    rect.top = kTopMargin;
    rect.width = std::max(40.0, double(size.width) - kLeftMargin - kLegendWidth);
    rect.height = std::max(40.0, double(size.height) - kTopMargin - kBottomMargin);
    return rect;
}

std::string escapeXml(std::string_view text)
{
    std::string escaped;
    escaped.reserve(text.size());
    for (char c : text) {
        switch (c) {
            case '&':
                escaped += "&amp;";
                break;
            case '<':
                escaped += "&lt;";
                break;
            case '>':
                escaped += "&gt;";
                break;
            case '"':
                escaped += "&quot;";
                break;
            case '\'':
                escaped += "&apos;";
                break;
            default:
                escaped += (static_cast<unsigned char>(c) < 0x20 && c != '\t') ? '?' : c;
        }
    }
    return escaped;
}

std::string renderSvgChart(const ChartData& data, const SvgChartSize& size)
{
    const ChartLayout layout = layOutChart(data);
    const PlotRect plot = svgPlotRect(size);
    // No text measuring: about 7 px per character of 12 px sans-serif is enough to keep names inside.
    std::size_t longestName = 0;
    for (const ChartSeries& series : layout.series)
        longestName = std::max(longestName, series.name.size() + (series.points.empty() ? 12 : 0));
    const double width = plot.left + plot.width + std::max(kLegendWidth, 48.0 + 7.0 * double(longestName));
    const std::vector<std::string> noteLines =
        wrapAtSemicolons(layout.note, std::size_t(std::max(20.0, (width - plot.left) / kNoteCharWidth)));
    const double legendBottom = plot.top + kLegendRow * double(layout.series.size());
    const double height = std::max(
        plot.top + plot.height + kBottomMargin + kNoteLine * double(std::max<std::size_t>(noteLines.size(), 1) - 1),
        legendBottom + kLegendRow);
    const double right = plot.left + plot.width;
    const double bottom = plot.top + plot.height;

    std::ostringstream out;
    out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    out << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << number(width) << "\" height=\"" << number(height)
        << "\" viewBox=\"0 0 " << number(width) << " " << number(height)
        << "\" font-family=\"sans-serif\" font-size=\"12\">\n";
    out << "<title>" << escapeXml(data.title) << "</title>\n";
    out << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
    out << "<text x=\"" << number(plot.left) << "\" y=\"24\" font-size=\"15\">" << escapeXml(data.title) << "</text>\n";

    // Grid and ticks: minor lines light, decades darker and labelled.
    out << "<g class=\"grid\" stroke-width=\"1\">\n";
    for (double tick : layout.x.minorTicks()) {
        const double x = plot.left + layout.x.fraction(tick) * plot.width;
        out << "<line x1=\"" << number(x) << "\" y1=\"" << number(plot.top) << "\" x2=\"" << number(x) << "\" y2=\""
            << number(bottom) << "\" stroke=\"#eeeeee\"/>\n";
    }
    for (double tick : layout.y.minorTicks()) {
        const double y = plot.top + (1.0 - layout.y.fraction(tick)) * plot.height;
        out << "<line x1=\"" << number(plot.left) << "\" y1=\"" << number(y) << "\" x2=\"" << number(right)
            << "\" y2=\"" << number(y) << "\" stroke=\"#eeeeee\"/>\n";
    }
    for (double tick : layout.x.majorTicks()) {
        const double x = plot.left + layout.x.fraction(tick) * plot.width;
        out << "<line x1=\"" << number(x) << "\" y1=\"" << number(plot.top) << "\" x2=\"" << number(x) << "\" y2=\""
            << number(bottom) << "\" stroke=\"#cccccc\"/>\n";
    }
    for (double tick : layout.y.majorTicks()) {
        const double y = plot.top + (1.0 - layout.y.fraction(tick)) * plot.height;
        out << "<line x1=\"" << number(plot.left) << "\" y1=\"" << number(y) << "\" x2=\"" << number(right)
            << "\" y2=\"" << number(y) << "\" stroke=\"#cccccc\"/>\n";
    }
    out << "</g>\n";
    out << "<rect class=\"frame\" x=\"" << number(plot.left) << "\" y=\"" << number(plot.top) << "\" width=\""
        << number(plot.width) << "\" height=\"" << number(plot.height) << "\" fill=\"none\" stroke=\"#333333\"/>\n";
    out << "<g class=\"x-ticks\" text-anchor=\"middle\">\n";
    for (double tick : layout.x.majorTicks())
        out << "<text x=\"" << number(plot.left + layout.x.fraction(tick) * plot.width) << "\" y=\""
            << number(bottom + 16) << "\">" << formatDecade(tick) << "</text>\n";
    out << "</g>\n<g class=\"y-ticks\" text-anchor=\"end\">\n";
    for (double tick : layout.y.majorTicks())
        out << "<text x=\"" << number(plot.left - 6) << "\" y=\""
            << number(plot.top + (1.0 - layout.y.fraction(tick)) * plot.height + 4) << "\">" << formatDecade(tick)
            << "</text>\n";
    out << "</g>\n";
    out << "<text class=\"x-label\" x=\"" << number(plot.left + plot.width / 2) << "\" y=\"" << number(bottom + 36)
        << "\" text-anchor=\"middle\">" << escapeXml(data.xLabel) << "</text>\n";
    out << "<text class=\"y-label\" transform=\"translate(16," << number(plot.top + plot.height / 2)
        << ") rotate(-90)\" text-anchor=\"middle\">" << escapeXml(data.yLabel) << "</text>\n";

    for (std::size_t i = 0; i < layout.series.size(); ++i) {
        const ChartSeries& series = layout.series[i];
        const std::string color = rgb(seriesColor(i));
        out << "<g class=\"series\" fill=\"" << color << "\" stroke=\"" << color << "\">\n";
        out << "<title>" << escapeXml(series.name) << "</title>\n";
        if (series.points.size() > 1) {
            out << "<polyline fill=\"none\" stroke-width=\"1.6\" points=\"";
            for (std::size_t p = 0; p < series.points.size(); ++p) {
                const ChartPoint at = plotPosition(layout, plot, series.points[p]);
                out << (p ? " " : "") << number(at.x) << "," << number(at.y);
            }
            out << "\"/>\n";
        }
        for (const ChartPoint& point : series.points) {
            const ChartPoint at = plotPosition(layout, plot, point);
            writeMarker(out, seriesMarker(i), at.x, at.y, pointText(series.name, point));
        }
        out << "</g>\n";
    }

    out << "<g class=\"legend\">\n";
    for (std::size_t i = 0; i < layout.series.size(); ++i) {
        const std::string color = rgb(seriesColor(i));
        const double y = plot.top + 8 + kLegendRow * double(i);
        const double x = right + 14;
        out << "<g fill=\"" << color << "\" stroke=\"" << color << "\"><line x1=\"" << number(x) << "\" y1=\""
            << number(y) << "\" x2=\"" << number(x + 22) << "\" y2=\"" << number(y) << "\" stroke-width=\"1.6\"/>";
        writeMarker(out, seriesMarker(i), x + 11, y, "");
        out << "</g>\n<text x=\"" << number(x + 28) << "\" y=\"" << number(y + 4) << "\""
            << (layout.series[i].points.empty() ? " fill=\"#888888\"" : "") << ">" << escapeXml(layout.series[i].name)
            << (layout.series[i].points.empty() ? " (no points)" : "") << "</text>\n";
    }
    out << "</g>\n";
    for (std::size_t line = 0; line < noteLines.size(); ++line)
        out << "<text class=\"note\" x=\"" << number(plot.left) << "\" y=\""
            << number(bottom + 56 + kNoteLine * double(line)) << "\" font-size=\"11\" fill=\"#555555\">"
            << escapeXml(noteLines[line]) << "</text>\n";
    out << "</svg>\n";
    return out.str();
}

}  // namespace util
