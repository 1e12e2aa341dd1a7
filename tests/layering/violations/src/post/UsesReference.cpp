// Fixture: the pipeline reaching its CPU reference (post/ and reference/ stay apart). Never compiled.
#include "reference/Histogram.h"
