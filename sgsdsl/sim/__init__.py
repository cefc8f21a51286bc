"""Simulation and its reports: batches of bot games on processes or Ray (batch), featured heroes and
their control seats (seating), what each skill did (skillstats), the figures (stats), the comparison with
a control (balance), the printed and HTML reports (summary, htmlreport), game logs replayed (replay,
logwhere) and the `simulate` command (command)."""
