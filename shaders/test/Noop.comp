// Test shader: does nothing (wrapper lifetime tests).
layout(local_size_x = 1) in;
void main() {}
