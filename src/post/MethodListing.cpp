#include "post/MethodListing.h"

#include "post/histogram/HistogramMethod.h"
#include "post/scan/ScanMethod.h"
#include "post/tonemap/ToneOperator.h"

#include <sstream>

namespace post {

namespace {

std::string availabilityText(const Availability& availability)
{
    return availability.available ? "available" : "unavailable: " + availability.reason;
}

}  // namespace

std::string describeAvailableMethods(const GpuCaps& caps)
{
    std::ostringstream out;
    out << "Histogram methods (--histogram-method):\n";
    for (const HistogramMethodEntry& entry : histogramMethodRegistry()) {
        auto method = entry.create();
        out << "  " << method->id() << "  [" << toString(method->backend()) << "] " << method->label() << " - "
            << availabilityText(method->availability(caps)) << "; up to " << method->maxBins(caps) << " bins";
        if (method->producesCumulative())
            out << "; yields the CDF itself";
        if (std::string limits = method->limits(); !limits.empty())
            out << "; " << limits;
        out << "\n";
    }
    out << "Scan methods (--scan):\n";
    for (const ScanMethodEntry& entry : scanMethodRegistry()) {
        auto method = entry.create();
        out << "  " << method->id() << "  [" << toString(method->backend()) << "] " << method->label() << " - "
            << availabilityText(method->availability(caps)) << "; up to " << method->maxLength() << " elements\n";
    }
    out << "Tone operators (--operator):\n";
    if (toneOperatorRegistry().empty())
        out << "  (none registered)\n";
    for (const ToneOperatorEntry& entry : toneOperatorRegistry()) {
        auto op = entry.create();
        out << "  " << op->id() << "  " << op->label() << " - available"
            << (op->usesHistogram() ? "" : "; ignores the histogram") << "\n";
    }
    return out.str();
}

}  // namespace post
