// Fixture: the pipeline reaching the scene and the window (post/ stays apart from both). Never compiled.
#include "platform/GlContext.h"
#include "scene/JsonReader.h"
