"""Each game's vocabulary as plain constants: symbols, minerals, terrains, suits and ranks, in the
order the rules give them, with their Korean and English names.

Rule engines, card templates and rulebook content all read these, so a name is spelled in one
place; importing them loads no engine.
"""
