"""`sgsdsl new hero NAME`: a commented skeleton that checks and tests clean as written.

The skeleton is a starting point, not a template language: the designer edits the text.
tests/test_scaffold.py runs `check` and `test` over what it writes.
"""

from __future__ import annotations

import re
import unicodedata

ASCII_ID = re.compile(r"[a-z][a-z0-9_]*\Z")

HERO = """\
# {name} ({ident}): a new hero, written by `sgsdsl new hero`.
#   sgsdsl check {file}      errors and rule conflicts, located in this file
#   sgsdsl test {file}       the scenario tests written beside each skill
#   sgsdsl simulate {file}   bot games with {name} in the hero pool
#   sgsdsl fmt {file}        the house layout
# The language is described in docs/language.md; every shipped hero (rules/standard/)
# is an example to copy from. A designer's file sees every shipped window, card and
# quantity without `use`.
package {ident} "新武将：{name}"

# kingdom: 魏 蜀 吴 群; hp: the starting and maximum hit points; skills: the names below
hero {name} {ident} {{ kingdom {kingdom}  hp {hp}  gender {gender}  skills {skill} }}

skill {skill} {ident}_skill {{
  # the official text of the skill, as the game prints it: `check` compares it with the rules
  "结束阶段开始时，若你没有手牌，你可以摸一张牌。"
  # a triggered skill: the window it fires at (时机), a condition (`when`) and an effect (`do`);
  # without `forced` it asks its owner first (可以)
  on 结束阶段开始时 when self.hand_count == 0 do {{ draw(self, 1) }}
  # a scenario test: a table, the answers each seat gives, what must hold afterwards
  test "没有手牌时，结束阶段摸一张牌" {{
    seat {name}
    seat 关羽
    start {name} 结束阶段
    decide {name}: yes
    expect {name}.hand_count == 1
    expect log "{name} 发动 【{skill}】"
  }}
  # `yes?` answers the question only if it is asked: here it must not be
  test "有手牌时不能发动" {{
    seat {name} hand [杀]
    seat 关羽
    start {name} 结束阶段
    decide {name}: yes?
    expect {name}.hand_count == 1
    expect nolog "发动 【{skill}】"
  }}
}}
"""


def hero_skeleton(name: str, ident: str, kingdom: str = "魏", hp: int = 4, gender: str = "男",
                  file: str = "FILE") -> str:
    return HERO.format(name=name, ident=ident, skill=f"{name}之技", kingdom=kingdom, hp=hp, gender=gender, file=file)


def _all_rules():
    """The shipped rules with every variant package: a name any of them declares is taken."""
    from ..engine.ruleset import Ruleset
    from ..lang.loader import shipped

    rules = shipped()
    return Ruleset(rules.all_tables, tuple(t.package for t in rules.all_tables if t.variant))


def _enum(rules, attr: str) -> dict[str, str]:
    """The values a hero's `kingdom`/`gender` takes (the enum its attribute is typed with): name or id -> name."""
    from ..lang.surface import ATTRS

    enum = rules.enums[ATTRS["hero"][attr].type.rstrip("?")]
    return {k: name for ident, name, _ in enum.items for k in (ident, name)}


def _unprintable(text: str) -> str | None:
    """The first character of `text` that would break a line of the skeleton (a line break, a control)."""
    return next((c for c in text if unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp")), None)


def problem(name: str, ident: str, kingdom: str, hp: int, gender: str, file: str) -> str | None:
    """What is wrong with the arguments of `new hero`, or None: every value is checked against what the
    rules declare before any of it is written into the skeleton's text."""
    from ..lang.files import shown, utf8_name
    from ..lang.limits import HP

    if (bad := _unprintable(file)) is not None or not utf8_name(file):
        return (f"the file name {shown(file)!r} has a character that cannot stand in a rules file's comment "
                f"({'not UTF-8' if bad is None else f'U+{ord(bad):04X}'}): choose another name with -o")
    lo, hi = (HP.lo + 1) // 2, HP.hi // 2  # --hp takes whole numbers (a half is written in the file)
    if not lo <= hp <= hi:
        return f"--hp {hp}: a hero's hp is {lo}..{hi}"
    rules = _all_rules()
    for option, value, attr in (("--kingdom", kingdom, "kingdom"), ("--gender", gender, "gender")):
        values = _enum(rules, attr)
        if value not in values:
            return f"{option} {value!r}: it is one of {', '.join(dict.fromkeys(values.values()))}"
    for what, taken in ((name, name), (ident, ident), (f"{name}之技", f"{name}之技"), (f"{ident}_skill", f"{ident}_skill")):
        hit = rules.lookup(taken)
        if hit is not None:
            kind = {"heroes": "hero", "skills": "skill", "cards": "card", "windows": "window", "modes": "mode",
                    "decks": "deck", "flows": "flow", "quantities": "quantity"}[hit[0]]
            return f"'{what}' is taken: the shipped rules have a {kind} {taken} ({hit[1]}); choose another name"
    if ident in {t.package for t in rules.all_tables}:
        return f"'{ident}' is taken: the shipped rules have a package {ident} (the skeleton's package is its id)"
    return None
