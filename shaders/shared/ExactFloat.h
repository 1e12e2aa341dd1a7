// ExactFloat.h: float maths that gives the same bits on the CPU, in GLSL and in CUDA, shared by the
// three languages as HostDevice.h is (which includes it: the binning is defined with hdLog2).
//
// GPU transcendentals and division differ from the CPU's in the last bits, so these are built only
// from operations that IEEE 754 rounds the same way on every device (add, subtract, multiply,
// compare, floor, integer and bit operations), in a fixed order, with one rounding per operation
// (HostDeviceMacros.h: HD_PRECISE, HD_MUL, HD_ADD, HD_SUB):
//  * hdRoundToHalf: a float rounded to the nearest half float, integer operations only;
//  * hdLog2: the exponent from the bits plus a polynomial in the reduced mantissa (the histogram's axis);
//  * hdProductError, hdQuotientResidual, hdReciprocalEstimate: Dekker's exact product and a Newton
//    reciprocal, from which hdDivide (and the binning's hdBinScale) pick the correctly rounded quotient;
//  * hdExp2 (a polynomial), hdLn, hdExp, hdLog10, hdExp10, hdPow and hdDivide (Ward's frame fit).
// Limits: accuracy about 1e-7 relative; arguments as each function states (positive normal finite
// floats for the logarithms). Laid out by hand, not by clang-format (the GLSL compiler reads it).
#ifndef HDRLAB_EXACT_FLOAT_H
#define HDRLAB_EXACT_FLOAT_H

#include "shared/HostDeviceMacros.h"

HD_NAMESPACE_BEGIN

// ---- Half-float rounding -------------------------------------------------------------------------
// A float rounded to the nearest half float (ties to even), denormal halves included, and returned as
// the float of that value; results above 65504 are +Inf (as the IEEE rounding gives them); NaN and
// Inf pass through. The result is exactly a half, so storing it in an RGBA16F texel converts nothing,
// whatever rounding the store uses (GLSL leaves packHalf2x16's and the image store's rounding to the
// implementation: on the H200 they differed). For the fused-lighting pass, which bins the value it
// stores (FusedLighting.glsl). Integer operations only: no float rounding mode or denormal flushing.
HD_FUNC float hdRoundToHalf(float x)
{
    if (HD_IS_NAN(x) || HD_IS_INF(x))
        return x;
    const HD_UINT bits = HD_FLOAT_BITS(x);
    const HD_UINT sign = bits & 0x80000000u;
    const HD_UINT magnitude = bits & 0x7FFFFFFFu;
    if (magnitude < 0x38800000u) { // below 2^-14: a multiple of 2^-24 (a denormal half) or 0
        const int exponent = int(magnitude >> 23u) - 127;
        const int shift = -1 - exponent; // the mantissa with its leading 1 is in units of 2^(exponent - 23)
        if (magnitude < 0x00800000u || shift > 24)
            return HD_BITS_FLOAT(sign); // under half of 2^-24 (float denormals too): 0
        const HD_UINT mantissa = (magnitude & 0x007FFFFFu) | 0x00800000u;
        HD_UINT units = mantissa >> HD_UINT(shift);
        const HD_UINT rest = mantissa & ((1u << HD_UINT(shift)) - 1u);
        const HD_UINT halfUnit = 1u << HD_UINT(shift - 1);
        if (rest > halfUnit || (rest == halfUnit && (units & 1u) != 0u))
            units += 1u;
        return HD_BITS_FLOAT(sign | HD_FLOAT_BITS(float(units) * 5.9604644775390625e-08f)); // x 2^-24, exact
    }
    // Keep 10 of the 23 mantissa bits: add just under half the dropped unit, plus the kept lowest bit
    // (ties to even); a carry moves into the exponent, as it should.
    const HD_UINT rounded = (magnitude + 0x00000FFFu + ((magnitude >> 13u) & 1u)) & 0xFFFFE000u;
    if (rounded > 0x477FE000u) // 65504
        return HD_BITS_FLOAT(sign | 0x7F800000u);
    return HD_BITS_FLOAT(sign | rounded);
}

// ---- log2 ----------------------------------------------------------------------------------------
// log2(1 + x) = x * P(x) on x in [-0.25, 0.5): Chebyshev fit, error below 1e-7 in float.
HD_CONST(float, kLog2P0, 1.4426950216293335f)
HD_CONST(float, kLog2P1, -0.7213484644889832f)
HD_CONST(float, kLog2P2, 0.48090222477912903f)
HD_CONST(float, kLog2P3, -0.3605765700340271f)
HD_CONST(float, kLog2P4, 0.28818631172180176f)
HD_CONST(float, kLog2P5, -0.24270190298557281f)
HD_CONST(float, kLog2P6, 0.21635855734348297f)
HD_CONST(float, kLog2P7, -0.174443781375885f)
HD_CONST(float, kLog2P8, 0.07827980071306229f)

// log2 of a positive, normal, finite float within 1.5e-7, identical on every device: the exponent
// from the bits, the mantissa m reduced to [0.75, 1.5), then the polynomial in x = m - 1 (exact).
HD_FUNC float hdLog2(float L)
{
    HD_UINT bits = HD_FLOAT_BITS(L);
    int exponent = int(bits >> 23u) - 127;
    HD_UINT mantissa = bits & 0x007fffffu;
    HD_UINT reduced = mantissa | 0x3f800000u; // m in [1, 2)
    if (mantissa >= 0x00400000u) {             // m >= 1.5: use m / 2 in [0.75, 1)
        reduced = mantissa | 0x3f000000u;
        exponent += 1;
    }
    HD_PRECISE float x = HD_SUB(HD_BITS_FLOAT(reduced), 1.0f);
    HD_PRECISE float p = kLog2P8;
    p = HD_ADD(HD_MUL(p, x), kLog2P7);
    p = HD_ADD(HD_MUL(p, x), kLog2P6);
    p = HD_ADD(HD_MUL(p, x), kLog2P5);
    p = HD_ADD(HD_MUL(p, x), kLog2P4);
    p = HD_ADD(HD_MUL(p, x), kLog2P3);
    p = HD_ADD(HD_MUL(p, x), kLog2P2);
    p = HD_ADD(HD_MUL(p, x), kLog2P1);
    p = HD_ADD(HD_MUL(p, x), kLog2P0);
    HD_PRECISE float result = HD_ADD(float(exponent), HD_MUL(p, x));
    return result;
}

// ---- Exact products and quotients ----------------------------------------------------------------
// The rounding error of product = a * b (Dekker's exact product, built from multiplications and
// additions alone, so no FMA is needed and every device agrees): a * b == product + error exactly.
HD_FUNC float hdProductError(float a, float b, float product)
{
    HD_PRECISE float aSplit = HD_MUL(4097.0f, a);
    HD_PRECISE float aHigh = HD_SUB(aSplit, HD_SUB(aSplit, a));
    HD_PRECISE float aLow = HD_SUB(a, aHigh);
    HD_PRECISE float bSplit = HD_MUL(4097.0f, b);
    HD_PRECISE float bHigh = HD_SUB(bSplit, HD_SUB(bSplit, b));
    HD_PRECISE float bLow = HD_SUB(b, bHigh);
    HD_PRECISE float error = HD_SUB(HD_MUL(aHigh, bHigh), product);
    error = HD_ADD(error, HD_MUL(aHigh, bLow));
    error = HD_ADD(error, HD_MUL(aLow, bHigh));
    error = HD_ADD(error, HD_MUL(aLow, bLow));
    return error;
}

// |numerator - quotient * denominator|, with the product taken exactly.
HD_FUNC float hdQuotientResidual(float numerator, float denominator, float quotient)
{
    HD_PRECISE float product = HD_MUL(quotient, denominator);
    HD_PRECISE float residual = HD_SUB(HD_SUB(numerator, product), hdProductError(quotient, denominator, product));
    return residual < 0.0f ? -residual : residual;
}

// 1/d within a few ulp for a positive normal d: a bit-trick guess refined by three Newton steps.
HD_FUNC float hdReciprocalEstimate(float d)
{
    HD_PRECISE float r = HD_BITS_FLOAT(0x7ef311c3u - HD_FLOAT_BITS(d));
    r = HD_MUL(r, HD_SUB(2.0f, HD_MUL(d, r)));
    r = HD_MUL(r, HD_SUB(2.0f, HD_MUL(d, r)));
    r = HD_MUL(r, HD_SUB(2.0f, HD_MUL(d, r)));
    return r;
}

// ---- exp2, ln, exp, log10, pow, division (Ward's frame fit) --------------------------------------
// exp2, ln, exp, log10, pow and a correctly rounded division built from +, -, *, floor and bit
// operations in a fixed order, so the CPU, GLSL and CUDA compute the same float, as hdLog2 does (GPU
// transcendentals and division differ from the CPU's in the last bits). Accuracy about 1e-7
// relative. Ward's frame-sampling fit (tonemap/WardCurve.comp) uses them, so its CPU reference
// (reference/ToneWardExact) agrees with it bit for bit.

// 2^f on [0, 1): least-squares fit of the relative error, degree 6, error below 1.1e-7 in float.
HD_CONST(float, kExp2P1, 0.6931470036506653f)
HD_CONST(float, kExp2P2, 0.2402298003435135f)
HD_CONST(float, kExp2P3, 0.05548352375626564f)
HD_CONST(float, kExp2P4, 0.009678472764790058f)
HD_CONST(float, kExp2P5, 0.0012443081941455603f)
HD_CONST(float, kExp2P6, 0.00021690608991775662f)
HD_CONST(float, kLn2f, 0.693147182f)       // the float nearest ln 2
HD_CONST(float, kInvLn2f, 1.44269502f)     // the float nearest 1 / ln 2
HD_CONST(float, kLog10Of2f, 0.301029995f)  // the float nearest log10 2
HD_CONST(float, kLog2Of10f, 3.32192802f)   // the float nearest log2 10

// 2^x: 0 below -126 (and for NaN), 2^127 at most.
HD_FUNC float hdExp2(float x)
{
    if (!(x > -126.0f))
        return 0.0f;
    if (x > 127.0f)
        x = 127.0f;
    float n = HD_FLOOR(x);
    HD_PRECISE float f = HD_SUB(x, n); // exact: 0 <= f < 1
    HD_PRECISE float p = kExp2P6;
    p = HD_ADD(HD_MUL(p, f), kExp2P5);
    p = HD_ADD(HD_MUL(p, f), kExp2P4);
    p = HD_ADD(HD_MUL(p, f), kExp2P3);
    p = HD_ADD(HD_MUL(p, f), kExp2P2);
    p = HD_ADD(HD_MUL(p, f), kExp2P1);
    p = HD_ADD(HD_MUL(p, f), 1.0f);
    HD_PRECISE float result = HD_MUL(p, HD_BITS_FLOAT(HD_UINT(int(n) + 127) << 23u));
    return result;
}

// ln x for a positive normal finite x.
HD_FUNC float hdLn(float x)
{
    HD_PRECISE float result = HD_MUL(hdLog2(x), kLn2f);
    return result;
}

// Every argument handed on is a `precise` variable first: GLSL's `precise` covers the operations that
// compute a precise variable, and an expression passed straight into a call could be contracted.
HD_FUNC float hdExp(float x)
{
    HD_PRECISE float y = HD_MUL(x, kInvLn2f);
    return hdExp2(y);
}

HD_FUNC float hdLog10(float x)
{
    HD_PRECISE float result = HD_MUL(hdLog2(x), kLog10Of2f);
    return result;
}

HD_FUNC float hdExp10(float x)
{
    HD_PRECISE float y = HD_MUL(x, kLog2Of10f);
    return hdExp2(y);
}

// a^b for a positive normal a.
HD_FUNC float hdPow(float a, float b)
{
    HD_PRECISE float y = HD_MUL(b, hdLog2(a));
    return hdExp2(y);
}

// a / b correctly rounded, for a >= 0 and a positive normal b with a normal quotient (0 for a <= 0):
// a product with the reciprocal estimate, then the nearest of its neighbours by exact residuals.
HD_FUNC float hdDivide(float a, float b)
{
    if (!(a > 0.0f))
        return 0.0f;
    HD_PRECISE float estimate = HD_MUL(a, hdReciprocalEstimate(b));
    HD_UINT best = HD_FLOAT_BITS(estimate);
    float bestResidual = hdQuotientResidual(a, b, estimate);
    for (int step = -3; step <= 3; ++step) {
        HD_UINT candidate = HD_UINT(int(HD_FLOAT_BITS(estimate)) + step);
        float residual = hdQuotientResidual(a, b, HD_BITS_FLOAT(candidate));
        if (residual < bestResidual) {
            bestResidual = residual;
            best = candidate;
        }
    }
    return HD_BITS_FLOAT(best);
}

HD_NAMESPACE_END

#endif // HDRLAB_EXACT_FLOAT_H
