// Test shader: writes shared-header values so a test can compare them with the C++ side.
#include "shared/HostDevice.h"
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer Out { uint values[]; };
void main()
{
    values[0] = kMaxHistogramBins;
    values[1] = kHistogramBufferWords;
    values[2] = uint(hdBinOf(1.0, -4.0, 4.0, 8u, kOutOfRangeClamp));
    values[3] = hdCounterOfCode(kBinAbove);
}
