// Fixture: the base layer reaching up into the pipeline (rule 4). Never compiled.
#pragma once
#include "post/PostPipeline.h"
