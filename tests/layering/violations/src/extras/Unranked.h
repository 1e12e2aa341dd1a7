// Fixture: a folder the rank table does not name. Never compiled.
#pragma once
