// WorkgroupScanCore.glsl: the one-workgroup inclusive scan of compute-scan (WorkgroupScan.comp),
// shared with the curve kernels that scan the histogram in their own dispatch (tonemap/*Fused.comp)
// and the histogram pass's last workgroup (histogram/CurveInLastGroup.glsl).
// SCAN_GROUP_SIZE (default kScanGroupSize, 1024) invocations x SCAN_ELEMENTS_PER_THREAD (default 4)
// elements: each scans its consecutive elements serially, the group's totals are scanned with a
// double-buffered Kogge-Stone (Hillis-Steele) scan in shared memory (no step reads a value written in
// the same step), then each adds its exclusive prefix. The includer defines `uint scanInput(uint
// index)` (called for index < count only, and only for the calling invocation's own elements).

#ifndef SCAN_GROUP_SIZE
#define SCAN_GROUP_SIZE kScanGroupSize
#endif
#ifndef SCAN_ELEMENTS_PER_THREAD
#define SCAN_ELEMENTS_PER_THREAD 4u
#endif

shared uint sScanTotals[2][SCAN_GROUP_SIZE];

/// result[k] = scanInput(0) + ... + scanInput(thread * 4 + k) (0 past count). All invocations call it.
void workgroupInclusiveScan(uint thread, uint count, out uint result[SCAN_ELEMENTS_PER_THREAD])
{
    const uint base = thread * SCAN_ELEMENTS_PER_THREAD;
    uint running = 0u;
    for (uint k = 0u; k < SCAN_ELEMENTS_PER_THREAD; ++k) {
        uint index = base + k;
        running += index < count ? scanInput(index) : 0u;
        result[k] = running;
    }
    sScanTotals[0][thread] = running;
    barrier();

    uint source = 0u;
    for (uint offset = 1u; offset < uint(SCAN_GROUP_SIZE); offset <<= 1u) {
        uint sum = sScanTotals[source][thread];
        if (thread >= offset)
            sum += sScanTotals[source][thread - offset];
        sScanTotals[1u - source][thread] = sum;
        source = 1u - source;
        barrier();
    }

    const uint prefix = thread == 0u ? 0u : sScanTotals[source][thread - 1u];
    for (uint k = 0u; k < SCAN_ELEMENTS_PER_THREAD; ++k)
        result[k] += prefix;
}
