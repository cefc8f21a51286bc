"""What the type checker learned about the rules, in one typed home that later stages only read.

The type checker (typecheck.py) writes it, and the intent analysis (intent.py) adds what each choice
means. The code generator reads what each name, field
and call refers to and the type of each expression; the conflict checks read the same to know what a
body does. Nodes are attrs values: a note is found by the node it was made for.
"""

from __future__ import annotations

import attrs


@attrs.frozen
class Ref:
    """A name as the generated code spells it (a local, `self`, a table row …)."""

    py: str


@attrs.frozen
class AttrNote:
    kind: str  # py | mark | pile | tag | each | def:TABLE
    name: str


@attrs.frozen
class CallNote:
    kind: str  # func | flow | quantity
    target: str  # template (func) or id (flow, quantity)
    args: tuple  # func: ((param, node|None, default)...); flow: ((field, node)...); quantity: (node...)


@attrs.frozen
class LocalNote:
    py: str


@attrs.define
class Analysis:
    refs: dict[object, object] = attrs.Factory(dict)  # node -> what it refers to (Ref, AttrNote, CallNote …)
    types: dict[object, str] = attrs.Factory(dict)  # expression -> its type (surface.py's type strings)
    each: dict[object, object] = attrs.Factory(dict)  # `cards.suit` -> the attribute read of one element
    tag_defaults: dict[object, str] = attrs.Factory(dict)  # a read of an attached field -> its default
    option_labels: set[str] = attrs.Factory(set)  # the labels `choose … option from [...]` offers
    choices: dict | None = None  # id(choice node) -> intent.Choice, once intent.analyze has run
    facets: dict | None = None  # id(facet or card) -> what it does to its owner and to its targets

    def type_of(self, e, default: str = "any") -> str:
        return self.types.get(e, default)
