"""`sgsdsl new hero NAME`: a commented skeleton that checks and tests clean as written.

The skeleton is a starting point, not a template language: the designer edits the text.
tests/test_scaffold.py runs `check` and `test` over what it writes.
"""

from __future__ import annotations

import re

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
