// Gl.h: the one place that includes the generated glad GL loader.
#pragma once
#include <glad/gl.h>
