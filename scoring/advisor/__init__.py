"""Optimal play: exact solitaire tables for the one-column variants, a strong policy
for Würfelspiel's three columns, Würfelpoker's turn policy, and `advise`.

Import what you need from the submodules; importing `scoring` never loads this.
"""
