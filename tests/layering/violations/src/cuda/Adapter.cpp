// Fixture: a post:: adapter left in src/cuda (rule 1). Never compiled.
#include "cuda/Launcher.h"
#include "post/PostTypes.h"
