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

const double kF64Ln2Hi = 0.6931471805599452862268LF; // nearest double to ln 2
const double kF64Ln2Lo = 2.319046813846299558e-17LF; // ln 2 - kF64Ln2Hi
const double kF64Split = 134217729.0LF;              // 2^27 + 1
const double kF64Sqrt1_2 = 0.70710678118654752440LF;

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
    precise double tail = 1.0LF / 41.0LF;
    tail = tail * zd + 1.0LF / 39.0LF;
    tail = tail * zd + 1.0LF / 37.0LF;
    tail = tail * zd + 1.0LF / 35.0LF;
    tail = tail * zd + 1.0LF / 33.0LF;
    tail = tail * zd + 1.0LF / 31.0LF;
    tail = tail * zd + 1.0LF / 29.0LF;
    tail = tail * zd + 1.0LF / 27.0LF;
    tail = tail * zd + 1.0LF / 25.0LF;
    tail = tail * zd + 1.0LF / 23.0LF;
    tail = tail * zd + 1.0LF / 21.0LF;
    tail = tail * zd + 1.0LF / 19.0LF;
    tail = tail * zd + 1.0LF / 17.0LF;
    tail = tail * zd + 1.0LF / 15.0LF;
    tail = tail * zd + 1.0LF / 13.0LF;
    tail = tail * zd + 1.0LF / 11.0LF;
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
    precise double t = 1.0LF / 20922789888000.0LF;  // 1/16!
    t = t * r + 1.0LF / 1307674368000.0LF; // 1/15!
    t = t * r + 1.0LF / 87178291200.0LF;
    t = t * r + 1.0LF / 6227020800.0LF;
    t = t * r + 1.0LF / 479001600.0LF;
    t = t * r + 1.0LF / 39916800.0LF;
    t = t * r + 1.0LF / 3628800.0LF;
    t = t * r + 1.0LF / 362880.0LF;
    t = t * r + 1.0LF / 40320.0LF;
    t = t * r + 1.0LF / 5040.0LF;
    t = t * r + 1.0LF / 720.0LF;
    t = t * r + 1.0LF / 120.0LF;
    t = t * r + 1.0LF / 24.0LF;
    t = t * r + 1.0LF / 6.0LF;
    t = t * r + 0.5LF;
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
    return f64Divide(f64Log(x), 2.30258509299404568402LF);
}

/// a^b for a > 0.
double f64Pow(double a, double b)
{
    return f64Exp(b * f64Log(a));
}
