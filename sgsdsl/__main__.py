"""`python -m sgsdsl`: the same command as `sgsdsl`."""

from .cli import main

main(prog_name="sgsdsl")
