// Fixture for ctest layering-detects-violations: a kernel that reaches a GL header through a
// launcher header (rule 3), and reaches ImGui. Never compiled.
#include "cuda/Launcher.h"
