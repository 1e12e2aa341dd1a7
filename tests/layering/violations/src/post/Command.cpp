// Fixture: the post layer calling up into a command (folder ranks). Never compiled.
#include "cli/Commands.h"
