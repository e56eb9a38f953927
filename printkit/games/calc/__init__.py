"""Calc: everything the game is (words, engine, faces, rulebook content, report facts, icons)."""
