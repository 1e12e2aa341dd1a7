// Fixture: the base layer reaching up into the pipeline (folder ranks). Never compiled.
#pragma once
#include "post/PostPipeline.h"
