// Fixture: a launcher header that includes a GL wrapper (allowed in src/cuda for host .cpp files,
// but it makes every kernel that includes it see glad). Never compiled.
#pragma once
#include <imgui.h>
#include "gl/Buffer.h"
