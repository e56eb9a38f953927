"""What a build is made of, below the build itself: the names of its files (:mod:`.names`), the
manifest's entries and warnings (:mod:`.manifest`) and the laid-out faces (:mod:`.faces`).
``check``, ``proof`` and the rebuild records use these without importing the build."""
