// Fixture: the post layer calling up into a command (rule 2). Never compiled.
#include "app/Commands.h"
