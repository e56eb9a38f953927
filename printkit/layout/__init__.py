"""Layout: card faces and sheets as pure geometry and drawing operations, in millimetres."""
