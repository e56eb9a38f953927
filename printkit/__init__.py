"""printkit: YAML deck specifications to print-ready cards, rulebooks and checked rules."""

__version__ = "0.1.0"
