// Float64.comp (tests): runs tonemap/Float64.glsl's functions on a list of arguments, so the tests can
// compare them with the CPU's correctly rounded results. Per case, inputs (a, b, k) and outputs
// (ln a, a / b, e^b, a + b added k times).
#include "tonemap/Float64.glsl"

layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer Inputs { double inputs[]; };
layout(std430, binding = 1) writeonly buffer Outputs { double outputs[]; };
layout(location = 0) uniform uint uCount;

void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i >= uCount)
        return;
    double a = inputs[3u * i];
    double b = inputs[3u * i + 1u];
    uint k = uint(inputs[3u * i + 2u]);
    outputs[4u * i] = a > 0.0LF ? f64Log(a) : 0.0LF;
    outputs[4u * i + 1u] = b != 0.0LF ? f64Divide(a, b) : 0.0LF;
    outputs[4u * i + 2u] = abs(b) < 700.0LF ? f64Exp(b) : 0.0LF;
    outputs[4u * i + 3u] = f64RepeatAdd(abs(a), abs(b), k);
}
