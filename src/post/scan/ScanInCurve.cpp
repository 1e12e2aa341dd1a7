#include "post/scan/ScanInCurve.h"

namespace post {

std::string_view ScanInCurve::description() const
{
    return "No scan dispatch: the tone operator's curve kernel scans the bins in shared memory (compute-scan's "
           "one-workgroup Kogge-Stone) and goes on to its curve, so scan and curve are one launch. Operators that "
           "cannot (per-channel equalization, metering masks) get compute-scan's dispatch.";
}

}  // namespace post
