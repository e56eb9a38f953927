"""The build, floor by floor: the names of a deck's files and its PDFs' titles (:mod:`.names`),
the manifest transaction (:mod:`.manifest`), the laid-out faces (:mod:`.faces`), what a build
runs with (:mod:`.context`), the producers of its outputs, each saying what it needs
(:mod:`.producers`), the decks listed again unchanged (:mod:`.replay`) and the orchestrator
(:mod:`.build`). ``check``, ``proof`` and ``export`` take names from :mod:`.names`, not the build."""
