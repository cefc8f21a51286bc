"""Agents: who answers the interpreter's requests. Random and first (counting agents), the heuristic bot
(its guesses of friend and foe in allegiance, its choice of heroes in herochoice) and the terminal human.
Every agent decides from its seat's view (engine/view.py), never from the game."""
