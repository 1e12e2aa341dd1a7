#include "post/HistogramCsv.h"

#include "shared/HostDevice.h"
#include "util/Log.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <numbers>
#include <sstream>
#include <stdexcept>

namespace post {

namespace {

std::string_view trim(std::string_view text)
{
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
        text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r'))
        text.remove_suffix(1);
    return text;
}

std::vector<std::string_view> splitFields(std::string_view line)
{
    std::vector<std::string_view> fields;
    std::size_t start = 0;
    for (;;) {
        const std::size_t comma = line.find(',', start);
        fields.push_back(
            trim(line.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start)));
        if (comma == std::string_view::npos)
            return fields;
        start = comma + 1;
    }
}

struct Line
{
    int number = 0;
    std::vector<std::string_view> fields;
};

class Parser
{
public:
    Parser(std::string_view text, const std::string& name) : mName(name)
    {
        int number = 0;
        std::size_t start = 0;
        while (start <= text.size()) {
            const std::size_t end = text.find('\n', start);
            const std::string_view line =
                trim(text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
            ++number;
            if (line.empty()) {
                if (!mSections.empty() && !mSections.back().empty())
                    mSections.emplace_back();
            } else if (line.front() != '#') {
                if (mSections.empty())
                    mSections.emplace_back();
                mSections.back().push_back({number, splitFields(line)});
            }
            if (end == std::string_view::npos)
                break;
            start = end + 1;
        }
        if (!mSections.empty() && mSections.back().empty())
            mSections.pop_back();
    }

    [[noreturn]] void fail(int line, const std::string& what) const
    {
        throw std::invalid_argument(util::format("histogram file '{}': line {}: {}", mName, line, what));
    }
    [[noreturn]] void fail(const std::string& what) const
    {
        throw std::invalid_argument(util::format("histogram file '{}': {}", mName, what));
    }

    double number(const Line& line, std::size_t field, std::string_view what) const
    {
        const std::string_view text = line.fields[field];
        double value = 0.0;
        const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (text.empty() || error != std::errc() || end != text.data() + text.size())
            fail(line.number, util::format("{} '{}' is not a number", what, text));
        if (!std::isfinite(value))
            fail(line.number, util::format("{} '{}' is not finite", what, text));
        return value;
    }

    HistogramFile parse() const
    {
        if (mSections.empty())
            fail("no histogram rows (expected log2_lower,log2_upper,count)");
        HistogramFile file;
        bool haveTable = false;
        std::vector<double> wardBins;
        std::vector<std::pair<std::string, double>> wardKeys;
        std::string wardFit;
        int wardKeysLine = 0;
        for (const std::vector<Line>& section : mSections) {
            const Line& head = section.front();
            const std::string header = joined(head);
            if (header == "bin,log2_lower,log2_upper,count" || header == "log2_lower,log2_upper,count") {
                readTable(section, 1, header.starts_with("bin,") ? 1 : 0, file);
                haveTable = true;
            } else if (header == "counter,count") {
                continue;  // the NaN/Inf/... counters are not part of any curve
            } else if (header == "ward_bin,log2_lower,log2_upper,count") {
                for (std::size_t i = 1; i < section.size(); ++i) {
                    expectColumns(section[i], 4);
                    const double count = number(section[i], 3, "count");
                    if (count < 0.0)
                        fail(section[i].number, "negative count");
                    wardBins.push_back(count);
                }
            } else if (header == "ward,value") {
                wardKeysLine = head.number;
                for (std::size_t i = 1; i < section.size(); ++i) {
                    expectColumns(section[i], 2);
                    const std::string key(section[i].fields[0]);
                    if (key == "fit")
                        wardFit = std::string(section[i].fields[1]);
                    else
                        wardKeys.emplace_back(key, number(section[i], 1, key));
                }
            } else if (!haveTable && head.fields.size() == 3 && looksNumeric(head.fields[0])) {
                readTable(section, 0, 0, file);  // a plain table without its header line
                haveTable = true;
            } else {
                fail(head.number, util::format("unexpected line '{}' (expected the header "
                                               "log2_lower,log2_upper,count or bin,log2_lower,log2_upper,count)",
                                               header));
            }
        }
        if (!haveTable)
            fail("no histogram rows (expected log2_lower,log2_upper,count)");
        if (!wardBins.empty() || !wardKeys.empty() || !wardFit.empty())
            file.ward = readWard(wardBins, wardKeys, wardFit, wardKeysLine);
        return file;
    }

private:
    static std::string joined(const Line& line)
    {
        std::string text;
        for (std::string_view field : line.fields)
            text += (text.empty() ? "" : ",") + std::string(field);
        return text;
    }

    static bool looksNumeric(std::string_view text)
    {
        double value = 0.0;
        const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
        return error == std::errc() && end == text.data() + text.size();
    }

    void expectColumns(const Line& line, std::size_t columns) const
    {
        if (line.fields.size() != columns)
            fail(line.number, util::format("{} columns, expected {}", line.fields.size(), columns));
    }

    void readTable(const std::vector<Line>& section, std::size_t first, std::size_t skip, HistogramFile& file) const
    {
        const std::size_t columns = 3 + skip;
        std::vector<double> lower, upper, count;
        for (std::size_t i = first; i < section.size(); ++i) {
            const Line& line = section[i];
            expectColumns(line, columns);
            lower.push_back(number(line, skip, "log2_lower"));
            upper.push_back(number(line, skip + 1, "log2_upper"));
            count.push_back(number(line, skip + 2, "count"));
            if (!(upper.back() > lower.back()))
                fail(line.number, util::format("edges not increasing: log2_upper {} is not above log2_lower {}",
                                               upper.back(), lower.back()));
            if (count.back() < 0.0)
                fail(line.number, util::format("negative count {}", count.back()));
            if (lower.size() > 1) {
                const double width = upper[0] - lower[0];
                const double previousUpper = upper[upper.size() - 2];
                if (std::abs(lower.back() - previousUpper) > 1e-4 * width)
                    fail(line.number,
                         util::format("edges not contiguous and increasing: log2_lower {} after log2_upper {}",
                                      lower.back(), previousUpper));
                if (std::abs((upper.back() - lower.back()) - width) > 1e-4 * width)
                    fail(line.number, util::format("bin width {} differs from the first bin's {} (bins must be equal)",
                                                   upper.back() - lower.back(), width));
            }
        }
        if (count.empty())
            fail(section.front().number, "no histogram rows after the header");
        if (count.size() > hd::kMaxHistogramBins)
            fail(util::format("{} bins; at most {}", count.size(), hd::kMaxHistogramBins));
        double total = 0.0;
        bool integers = true;
        for (double c : count) {
            total += c;
            integers = integers && c == std::floor(c);
        }
        if (!(total > 0.0))
            fail("the counts add up to zero");
        FedHistogram& h = file.histogram;
        h.logMin = float(lower.front());
        h.logMax = float(upper.back());
        if (!(h.logMax > h.logMin) || !std::isfinite(h.logMin) || !std::isfinite(h.logMax))
            fail(util::format("range [{}, {}] is empty or beyond float", lower.front(), upper.back()));
        // The GPU histogram is 32-bit integers whose total must fit too: integer counts that do are
        // kept; others are scaled by one power of two (so ratios stay as exact as rounding allows).
        constexpr double kMaxTotal = 4294967295.0;
        h.scaleLog2 = 0;
        if (!integers || total > kMaxTotal) {
            int exponent = 0;
            std::frexp(total, &exponent);
            h.scaleLog2 = 31 - exponent;  // total * 2^scaleLog2 lies in [2^30, 2^31)
        }
        h.counts.clear();
        for (double c : count)
            h.counts.push_back(std::uint32_t(std::llround(std::ldexp(c, h.scaleLog2))));
        file.lowerEdges.clear();
        for (std::size_t i = 0; i < count.size(); ++i)
            file.lowerEdges.emplace_back(lower[i], count[i]);
    }

    WardFedHistogram readWard(const std::vector<double>& bins,
                              const std::vector<std::pair<std::string, double>>& keys,
                              const std::string& fit,
                              int line) const
    {
        WardFedHistogram ward;
        if (fit == "frame")
            ward.fit = WardSampling::Frame;
        else if (fit == "pcond")
            ward.fit = WardSampling::Pcond;
        else
            fail(line, util::format("ward section: fit '{}' (expected frame or pcond)", fit));
        if (bins.size() < 2 || bins.size() > kWardMaxBins)
            fail(line, util::format("ward section: {} bins (expected 2..{})", bins.size(), kWardMaxBins));
        ward.bins = bins;
        const auto value = [&](const char* key) {
            for (const auto& [name, v] : keys)
                if (name == key)
                    return v;
            fail(line, util::format("ward section: no '{}'", key));
        };
        ward.bwmin = value("bwmin_ln");
        ward.bwmax = value("bwmax_ln");
        ward.bwavg = value("bwavg_ln");
        ward.histot = value("histot");
        ward.lwmin = value("lwmin");
        ward.lwmax = value("lwmax");
        ward.duplicated = value("duplicated") != 0.0;
        ward.valid = value("valid") != 0.0;
        if (ward.valid && !(ward.bwmax > ward.bwmin))
            fail(line, "ward section: bwmax_ln is not above bwmin_ln");
        if (ward.fit == WardSampling::Frame)
            for (double b : ward.bins)
                if (b != std::floor(b) || b > 4294967295.0)
                    fail(line, "ward section: the frame fit's bins are whole counts");
        return ward;
    }

    std::string mName;
    std::vector<std::vector<Line>> mSections;
};

}  // namespace

WardFedHistogram wardFedHistogramOf(const ref::PcondHistogram& histogram)
{
    WardFedHistogram ward;
    ward.fit = WardSampling::Pcond;
    ward.bins = histogram.bins;
    ward.bwmin = histogram.bwmin;
    ward.bwmax = histogram.bwmax;
    ward.bwavg = histogram.bwavg;
    ward.histot = histogram.histot;
    ward.lwmin = histogram.lwmin;
    ward.lwmax = histogram.lwmax;
    ward.duplicated = histogram.duplicated;
    ward.valid = histogram.valid;
    return ward;
}

HistogramFile parseHistogramCsv(std::string_view text, const std::string& name)
{
    return Parser(text, name).parse();
}

HistogramFile readHistogramCsv(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw std::invalid_argument(util::format("histogram file '{}': cannot be read", path.string()));
    std::ostringstream text;
    text << in.rdbuf();
    if (text.str().size() > (64u << 20))
        throw std::invalid_argument(util::format("histogram file '{}': larger than 64 MiB", path.string()));
    return parseHistogramCsv(text.str(), path.string());
}

std::string wardHistogramCsvSection(const WardFedHistogram& ward, double sceneScale)
{
    std::ostringstream csv;
    csv.precision(17);
    const double lnScale = std::log(sceneScale);
    const std::size_t n = ward.bins.size();
    const double width = n > 0 ? (ward.bwmax - ward.bwmin) / double(n) : 0.0;
    csv << "\nward_bin,log2_lower,log2_upper,count\n";
    for (std::size_t i = 0; i < n; ++i)
        csv << i << "," << (ward.bwmin + double(i) * width - lnScale) / std::numbers::ln2 << ","
            << (ward.bwmin + double(i + 1) * width - lnScale) / std::numbers::ln2 << "," << ward.bins[i] << "\n";
    csv << "\nward,value\n";
    csv << "fit," << (ward.fit == WardSampling::Frame ? "frame" : "pcond") << "\n";
    csv << "bwmin_ln," << ward.bwmin << "\n";
    csv << "bwmax_ln," << ward.bwmax << "\n";
    csv << "bwavg_ln," << ward.bwavg << "\n";
    csv << "histot," << ward.histot << "\n";
    csv << "lwmin," << ward.lwmin << "\n";
    csv << "lwmax," << ward.lwmax << "\n";
    csv << "duplicated," << (ward.duplicated ? 1 : 0) << "\n";
    csv << "valid," << (ward.valid ? 1 : 0) << "\n";
    return csv.str();
}

}  // namespace post
