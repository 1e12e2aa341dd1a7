// Float64.glsl: double-precision helpers that round as the CPU does, for Ward's pcond-compatible
// sampling (WardPcond*.comp), whose histogram bins the darkest sample exactly on the edge between
// bins 0 and 1: one ulp of ln L decides its bin there, so ln must be the correctly rounded value
// (glibc's log, which pcond calls, rounds correctly for all but about 2 in 10^5 arguments).
//
// GLSL promises only that double operations are at least as precise as single ones; what these
// functions assume is what NVIDIA's and llvmpipe's fp64 units do: +, - and * round as IEEE 754 does
// (and `precise` keeps the compiler from fusing them). Division and ln are built on that alone:
//  - f64TwoProduct: Dekker's exact product (a split into 26+27 bits; no fma needed);
//  - f64Divide: the hardware quotient refined by one exact-residual Newton step, then the nearest of
//    three neighbours by exact residuals: the correctly rounded quotient;
//  - f64Log: ln x in double-double (x = m 2^e, m in [sqrt 1/2, sqrt 2), 2 atanh((m-1)/(m+1)) with
//    the first terms in double-double, e ln 2 from a double-double ln 2), error below 2^-100
//    relative, so the final rounding is the correct one;
//  - f64Exp: e^x to about one ulp (not correctly rounded; its uses are not on bin edges);
//  - f64RepeatAdd: k additions of one addend in O(binades) steps, bit for bit what a loop gives.
// Finite, positive, normal arguments are assumed where a function says so; callers check.

// Constants as bit patterns: a GLSL compiler may parse a double literal, or fold a division of two,
// with less than double precision (NVIDIA's did: ln 2 came out one ulp low), so every constant that
// is not a small whole number is given exactly (values from scripts' Python, noted beside each).
const double kF64Ln2Hi = packDouble2x32(uvec2(0xfefa39efu, 0x3fe62e42u)); // nearest double to ln 2
const double kF64Ln2Lo = packDouble2x32(uvec2(0x3b39803fu, 0x3c7abc9eu)); // ln 2 - kF64Ln2Hi
const double kF64Sqrt1_2 = packDouble2x32(uvec2(0x667f3bcdu, 0x3fe6a09eu)); // sqrt(1/2)
const double kF64Ln10 = packDouble2x32(uvec2(0xbbb55516u, 0x40026bb1u)); // ln 10
const double kF64Split = packDouble2x32(uvec2(0x02000000u, 0x41a00000u)); // 2^27 + 1
const double kF64Inv3 = packDouble2x32(uvec2(0x55555555u, 0x3fd55555u)); // 1/3
const double kF64Inv5 = packDouble2x32(uvec2(0x9999999au, 0x3fc99999u)); // 1/5
const double kF64Inv7 = packDouble2x32(uvec2(0x92492492u, 0x3fc24924u)); // 1/7
const double kF64Inv9 = packDouble2x32(uvec2(0x1c71c71cu, 0x3fbc71c7u)); // 1/9
const double kF64Inv11 = packDouble2x32(uvec2(0x745d1746u, 0x3fb745d1u)); // 1/11
const double kF64Inv13 = packDouble2x32(uvec2(0x13b13b14u, 0x3fb3b13bu)); // 1/13
const double kF64Inv15 = packDouble2x32(uvec2(0x11111111u, 0x3fb11111u)); // 1/15
const double kF64Inv17 = packDouble2x32(uvec2(0x1e1e1e1eu, 0x3fae1e1eu)); // 1/17
const double kF64Inv19 = packDouble2x32(uvec2(0xbca1af28u, 0x3faaf286u)); // 1/19
const double kF64Inv21 = packDouble2x32(uvec2(0x18618618u, 0x3fa86186u)); // 1/21
const double kF64Inv23 = packDouble2x32(uvec2(0x590b2164u, 0x3fa642c8u)); // 1/23
const double kF64Inv25 = packDouble2x32(uvec2(0x47ae147bu, 0x3fa47ae1u)); // 1/25
const double kF64Inv27 = packDouble2x32(uvec2(0xbda12f68u, 0x3fa2f684u)); // 1/27
const double kF64Inv29 = packDouble2x32(uvec2(0x611a7b96u, 0x3fa1a7b9u)); // 1/29
const double kF64Inv31 = packDouble2x32(uvec2(0x08421084u, 0x3fa08421u)); // 1/31
const double kF64Inv33 = packDouble2x32(uvec2(0xf07c1f08u, 0x3f9f07c1u)); // 1/33
const double kF64Inv35 = packDouble2x32(uvec2(0x1d41d41du, 0x3f9d41d4u)); // 1/35
const double kF64Inv37 = packDouble2x32(uvec2(0x14c1bad0u, 0x3f9bacf9u)); // 1/37
const double kF64Inv39 = packDouble2x32(uvec2(0x1a41a41au, 0x3f9a41a4u)); // 1/39
const double kF64Inv41 = packDouble2x32(uvec2(0x8f9c18fau, 0x3f98f9c1u)); // 1/41
const double kF64InvFact2 = packDouble2x32(uvec2(0x00000000u, 0x3fe00000u)); // 1/2!
const double kF64InvFact3 = packDouble2x32(uvec2(0x55555555u, 0x3fc55555u)); // 1/3!
const double kF64InvFact4 = packDouble2x32(uvec2(0x55555555u, 0x3fa55555u)); // 1/4!
const double kF64InvFact5 = packDouble2x32(uvec2(0x11111111u, 0x3f811111u)); // 1/5!
const double kF64InvFact6 = packDouble2x32(uvec2(0x16c16c17u, 0x3f56c16cu)); // 1/6!
const double kF64InvFact7 = packDouble2x32(uvec2(0x1a01a01au, 0x3f2a01a0u)); // 1/7!
const double kF64InvFact8 = packDouble2x32(uvec2(0x1a01a01au, 0x3efa01a0u)); // 1/8!
const double kF64InvFact9 = packDouble2x32(uvec2(0xa556c734u, 0x3ec71de3u)); // 1/9!
const double kF64InvFact10 = packDouble2x32(uvec2(0xb7789f5cu, 0x3e927e4fu)); // 1/10!
const double kF64InvFact11 = packDouble2x32(uvec2(0x67f544e4u, 0x3e5ae645u)); // 1/11!
const double kF64InvFact12 = packDouble2x32(uvec2(0xeff8d898u, 0x3e21eed8u)); // 1/12!
const double kF64InvFact13 = packDouble2x32(uvec2(0x13a86d09u, 0x3de61246u)); // 1/13!
const double kF64InvFact14 = packDouble2x32(uvec2(0xa8c07c9du, 0x3da93974u)); // 1/14!
const double kF64InvFact15 = packDouble2x32(uvec2(0xe733b81fu, 0x3d6ae7f3u)); // 1/15!
const double kF64InvFact16 = packDouble2x32(uvec2(0xe733b81fu, 0x3d2ae7f3u)); // 1/16!

struct F64Pair // an unevaluated sum hi + lo with |lo| <= ulp(hi) / 2
{
    double hi;
    double lo;
};

F64Pair f64TwoSum(double a, double b)
{
    precise double s = a + b;
    precise double bb = s - a;
    precise double err = (a - (s - bb)) + (b - bb);
    return F64Pair(s, err);
}

F64Pair f64FastTwoSum(double a, double b) // |a| >= |b|
{
    precise double s = a + b;
    precise double err = b - (s - a);
    return F64Pair(s, err);
}

F64Pair f64TwoProduct(double a, double b)
{
    precise double p = a * b;
    precise double ca = kF64Split * a;
    precise double aHi = ca - (ca - a);
    precise double aLo = a - aHi;
    precise double cb = kF64Split * b;
    precise double bHi = cb - (cb - b);
    precise double bLo = b - bHi;
    precise double err = ((aHi * bHi - p) + aHi * bLo + aLo * bHi) + aLo * bLo;
    return F64Pair(p, err);
}

F64Pair f64Add(F64Pair a, F64Pair b)
{
    F64Pair s = f64TwoSum(a.hi, b.hi);
    F64Pair t = f64TwoSum(a.lo, b.lo);
    precise double lo = s.lo + t.hi;
    F64Pair u = f64FastTwoSum(s.hi, lo);
    precise double lo2 = t.lo + u.lo;
    return f64FastTwoSum(u.hi, lo2);
}

F64Pair f64Multiply(F64Pair a, F64Pair b)
{
    F64Pair p = f64TwoProduct(a.hi, b.hi);
    precise double lo = p.lo + (a.hi * b.lo + a.lo * b.hi);
    return f64FastTwoSum(p.hi, lo);
}

/// a / k for a double-double a and a double k != 0, to double-double accuracy.
F64Pair f64DivideBy(F64Pair a, double k)
{
    precise double q = a.hi / k;
    F64Pair p = f64TwoProduct(q, k);
    precise double r = ((a.hi - p.hi) - p.lo) + a.lo;
    precise double qLo = r / k;
    return f64FastTwoSum(q, qLo);
}

/// |a - q b| exactly enough to compare neighbouring quotients (q within a few ulp of a / b).
double f64Residual(double a, double b, double q)
{
    F64Pair p = f64TwoProduct(q, b);
    precise double r = (a - p.hi) - p.lo;
    return abs(r);
}

/// The neighbour of x (finite, nonzero) one ulp away towards +infinity (up) or -infinity.
double f64Step(double x, bool up)
{
    uvec2 bits = unpackDouble2x32(x); // .x low word, .y high word
    bool awayFromZero = (x > 0.0LF) == up;
    if (awayFromZero) {
        bits.x += 1u;
        if (bits.x == 0u)
            bits.y += 1u;
    } else {
        if (bits.x == 0u)
            bits.y -= 1u;
        bits.x -= 1u;
    }
    return packDouble2x32(bits);
}

/// a / b correctly rounded (finite a, b; b != 0; quotient finite and normal).
double f64Divide(double a, double b)
{
    if (a == 0.0LF)
        return a / b;
    precise double q = a / b;
    F64Pair p = f64TwoProduct(q, b);
    precise double r = (a - p.hi) - p.lo;
    q = q + r / b; // one Newton step with an exact residual: within an ulp
    double best = q;
    double bestResidual = f64Residual(a, b, q);
    double below = f64Step(q, false);
    double above = f64Step(q, true);
    double rb = f64Residual(a, b, below);
    double ra = f64Residual(a, b, above);
    if (rb < bestResidual) {
        best = below;
        bestResidual = rb;
    }
    if (ra < bestResidual)
        best = above;
    return best;
}

/// ln x, correctly rounded (x finite, positive, normal).
double f64Log(double x)
{
    int e;
    double m = frexp(x, e); // x = m 2^e, m in [0.5, 1)
    if (m < kF64Sqrt1_2) {
        m *= 2.0LF;
        e -= 1;
    }
    // s = (m - 1) / (m + 1) in double-double; m - 1 is exact (Sterbenz).
    precise double numerator = m - 1.0LF;
    F64Pair denominator = f64TwoSum(m, 1.0LF);
    precise double sHi = numerator / denominator.hi;
    F64Pair p = f64TwoProduct(sHi, denominator.hi);
    precise double r = ((numerator - p.hi) - p.lo) - sHi * denominator.lo;
    precise double sLo = r / denominator.hi;
    F64Pair s = f64FastTwoSum(sHi, sLo);
    // ln m = 2 s (1 + z/3 + z^2/5 + z^3/7 + z^4/9 + z^5 (1/11 + z/13 + ...)), z = s^2 <= 0.0295: the
    // first five terms in double-double, the rest (below 2^-26 of the sum) in double, to z^20/41.
    F64Pair z = f64Multiply(s, s);
    precise double zd = z.hi;
    precise double tail = kF64Inv41;
    tail = tail * zd + kF64Inv39;
    tail = tail * zd + kF64Inv37;
    tail = tail * zd + kF64Inv35;
    tail = tail * zd + kF64Inv33;
    tail = tail * zd + kF64Inv31;
    tail = tail * zd + kF64Inv29;
    tail = tail * zd + kF64Inv27;
    tail = tail * zd + kF64Inv25;
    tail = tail * zd + kF64Inv23;
    tail = tail * zd + kF64Inv21;
    tail = tail * zd + kF64Inv19;
    tail = tail * zd + kF64Inv17;
    tail = tail * zd + kF64Inv15;
    tail = tail * zd + kF64Inv13;
    tail = tail * zd + kF64Inv11;
    F64Pair z2 = f64Multiply(z, z);
    F64Pair z3 = f64Multiply(z2, z);
    F64Pair z4 = f64Multiply(z2, z2);
    tail = tail * (z4.hi * zd);
    F64Pair series = f64Add(F64Pair(1.0LF, 0.0LF), f64DivideBy(z, 3.0LF));
    series = f64Add(series, f64DivideBy(z2, 5.0LF));
    series = f64Add(series, f64DivideBy(z3, 7.0LF));
    series = f64Add(series, f64DivideBy(z4, 9.0LF));
    series = f64Add(series, F64Pair(tail, 0.0LF));
    F64Pair lnM = f64Multiply(F64Pair(2.0LF * s.hi, 2.0LF * s.lo), series);
    // e ln 2 in double-double.
    precise double ed = double(e);
    F64Pair eLn2 = f64TwoProduct(ed, kF64Ln2Hi);
    eLn2 = f64FastTwoSum(eLn2.hi, eLn2.lo + ed * kF64Ln2Lo);
    F64Pair total = f64Add(eLn2, lnM);
    precise double result = total.hi + total.lo;
    return result;
}

/// e^x to about one ulp (|x| < 700).
double f64Exp(double x)
{
    precise double n = floor(x / kF64Ln2Hi + 0.5LF);
    // r = x - n ln 2 in double-double: n ln2hi is exact only approximately, so take its error too.
    F64Pair nl = f64TwoProduct(n, kF64Ln2Hi);
    precise double rHi = x - nl.hi; // exact for |r| small relative to x (Sterbenz) or x small
    precise double r = (rHi - nl.lo) - n * kF64Ln2Lo;
    // e^r, |r| <= 0.35: Taylor to r^16/16! (< 1e-20).
    precise double t = kF64InvFact16;  // 1/16!
    t = t * r + kF64InvFact15; // 1/15!
    t = t * r + kF64InvFact14;
    t = t * r + kF64InvFact13;
    t = t * r + kF64InvFact12;
    t = t * r + kF64InvFact11;
    t = t * r + kF64InvFact10;
    t = t * r + kF64InvFact9;
    t = t * r + kF64InvFact8;
    t = t * r + kF64InvFact7;
    t = t * r + kF64InvFact6;
    t = t * r + kF64InvFact5;
    t = t * r + kF64InvFact4;
    t = t * r + kF64InvFact3;
    t = t * r + kF64InvFact2;
    t = t * r * r + r; // e^r - 1, the small part added last
    precise double result = 1.0LF + t;
    return ldexp(result, int(n));
}

/// `v += w`, k times, rounded after every addition as a loop would (v >= 0, w >= 0): inside one binade of v every addition of the same w adds the
/// same multiple of the binade's ulp (unless w is an exact half-ulp tie), so whole runs are added at
/// once and single additions are made where v nears the binade's top.
double f64RepeatAdd(double v, double w, uint k)
{
    precise double value = v;
    while (k > 0u) {
        if (value <= 0.0LF || w <= 0.0LF) {
            value = value + w;
            --k;
            continue;
        }
        int e;
        frexp(value, e); // value in [2^(e-1), 2^e)
        double ulp = ldexp(1.0LF, e - 53);
        double top = ldexp(1.0LF, e);
        double q = ldexp(w, 53 - e); // w / ulp, exact
        double whole = floor(q);
        double fraction = q - whole;
        if (fraction == 0.5LF) { // a tie rounds to even: add one at a time
            value = value + w;
            --k;
            continue;
        }
        precise double step = (fraction < 0.5LF ? whole : whole + 1.0LF) * ulp;
        if (step == 0.0LF)
            return value; // w below half an ulp: no addition changes v any more
        // Runs of t additions keep v + w below top - ulp / 2, so each rounds to v + step.
        double t = floor((top - ulp - w - value) / step) - 1.0LF;
        if (t >= 1.0LF) {
            uint run = t >= double(k) ? k : uint(t);
            value = value + double(run) * step;
            k -= run;
        } else {
            value = value + w;
            --k;
        }
    }
    return value;
}

/// log10 x (x finite, positive).
double f64Log10(double x)
{
    return f64Divide(f64Log(x), kF64Ln10);
}

/// a^b for a > 0.
double f64Pow(double a, double b)
{
    return f64Exp(b * f64Log(a));
}
