// HostDeviceMacros.h: the macros that let one source compile as C++, CUDA (host and device) and
// GLSL, for the shared headers of shaders/shared/ (HostDevice.h, ExactFloat.h).
//
// HD_FUNC / HD_CONST declare a function or constant in each language; HD_NAMESPACE_BEGIN/END put the
// C++ and CUDA side in namespace hd; HD_UINT is the 32-bit unsigned type. HD_PRECISE, HD_MUL, HD_ADD
// and HD_SUB give one IEEE rounding per operation and no contraction into an FMA (GLSL `precise`,
// CUDA's __fmul_rn and friends on the device, plain operations on the host).
// HD_LOG2_FAST is the platform's fast log2 (GLSL log2, CUDA __log2f: both within 2^-21 absolute on
// [0.5, 2] and 3 ulp elsewhere), for hdBinOfFast. HD_FLOAT_BITS / HD_BITS_FLOAT reinterpret a float's bits. Read by the GLSL compiler too (through
// the shader library's #include), so it is laid out by hand, not by clang-format.
#ifndef HDRLAB_HOST_DEVICE_MACROS_H
#define HDRLAB_HOST_DEVICE_MACROS_H

#if defined(__CUDACC__)
#define HD_FUNC __host__ __device__ inline
#define HD_CONST(type, name, value) constexpr type name = value;
#define HD_NAMESPACE_BEGIN namespace hd {
#define HD_NAMESPACE_END }
#define HD_UINT unsigned // one keyword, so HD_UINT(x) casts compile
#define HD_IS_NAN(x) isnan(x)
#define HD_IS_INF(x) isinf(x)
#define HD_PRECISE
#define HD_FLOOR(x) floorf(x)
#if defined(__CUDA_ARCH__)
#define HD_LOG2_FAST(x) __log2f(x)
#else
#define HD_LOG2_FAST(x) std::log2(x)
#endif
#if defined(__CUDA_ARCH__) // device: explicit IEEE roundings, never contracted into an FMA
#define HD_MUL(a, b) __fmul_rn((a), (b))
#define HD_ADD(a, b) __fadd_rn((a), (b))
#define HD_SUB(a, b) __fsub_rn((a), (b))
#define HD_FLOAT_BITS(x) __float_as_uint(x)
#define HD_BITS_FLOAT(u) __uint_as_float(u)
#else
#define HD_HOST_BIT_CASTS
#endif
#elif defined(__cplusplus)
#include <cmath>
#include <cstdint>
#define HD_FUNC inline
#define HD_CONST(type, name, value) inline constexpr type name = value;
#define HD_NAMESPACE_BEGIN namespace hd {
#define HD_NAMESPACE_END }
#define HD_UINT std::uint32_t
#define HD_IS_NAN(x) std::isnan(x)
#define HD_IS_INF(x) std::isinf(x)
#define HD_PRECISE
#define HD_FLOOR(x) std::floor(x)
#define HD_LOG2_FAST(x) std::log2(x)
#define HD_HOST_BIT_CASTS
#else // GLSL
#define HD_FUNC
#define HD_CONST(type, name, value) const type name = value;
#define HD_NAMESPACE_BEGIN
#define HD_NAMESPACE_END
#define HD_UINT uint
#define HD_IS_NAN(x) isnan(x)
#define HD_IS_INF(x) isinf(x)
// `precise` forbids contracting a * b + c into an FMA, so every rounding happens as written.
#define HD_PRECISE precise
#define HD_FLOOR(x) floor(x)
#define HD_LOG2_FAST(x) log2(x)
#define HD_MUL(a, b) ((a) * (b))
#define HD_ADD(a, b) ((a) + (b))
#define HD_SUB(a, b) ((a) - (b))
#define HD_FLOAT_BITS(x) floatBitsToUint(x)
#define HD_BITS_FLOAT(u) uintBitsToFloat(u)
#endif

#if defined(HD_HOST_BIT_CASTS) // host C++ (also nvcc's host pass): plain IEEE operations, no -ffp-contract
#include <cstring>
#define HD_MUL(a, b) ((a) * (b))
#define HD_ADD(a, b) ((a) + (b))
#define HD_SUB(a, b) ((a) - (b))
#define HD_FLOAT_BITS(x) ::hdHostFloatBits(x)
#define HD_BITS_FLOAT(u) ::hdHostBitsFloat(u)
inline unsigned hdHostFloatBits(float x)
{
    unsigned u;
    std::memcpy(&u, &x, sizeof u);
    return u;
}
inline float hdHostBitsFloat(unsigned u)
{
    float x;
    std::memcpy(&x, &u, sizeof x);
    return x;
}
#endif

#endif // HDRLAB_HOST_DEVICE_MACROS_H
