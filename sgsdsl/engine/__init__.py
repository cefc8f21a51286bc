"""The interpreter: a game's state (game, state, zones), the event stack that runs flows and opens windows in
seed 001's order (settlement, turns, play), the primitive actions (primitives, zones), quantities through
their modifiers (quantities), decisions asked of agents through each seat's view (decisions, requests, view),
the history rules query (history), the runtime surface of generated modules (tables, ruleset), the log, and
the guards against runaway rules and broken invariants. It knows no card, skill, hero or mode by name."""
