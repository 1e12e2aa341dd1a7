// Test shader: deliberately does not compile (error-message test).
layout(local_size_x = 1) in;
void main() { this is not glsl; }
