"""The game log: readable lines with Chinese names, and the same events as JSON records.

    [第3回合 出牌阶段] 关羽 使用 杀(♥7) → 曹操
    [第3回合 出牌阶段] 曹操 发动 【奸雄】  ‹rules/standard/heroes_wei.sgs:12›
"""

from __future__ import annotations

import json
import math
import re

from .state import VALUE_NAMES, Card, Player, visible_to

_LATER = re.compile("\x00(\\d+)\x00")


class GameLog:
    def __init__(self, windows: bool = False, records: bool = True, seat: int | None = None):
        self.windows = windows  # also log every window opened (the window trace)
        self.keep_records = records
        # Written for one seat (a human at the table): a card that seat does not know reads "一张牌". A line
        # names its cards as the seat knows them once the step that said it is done (the line after it is
        # said, or the log read): "弃置"/"装备" are said just before the card reaches its public zone.
        self.seat = seat
        self._later: list[Card] = []  # cards a seat log has yet to name, marked \x00n\x00 in its lines
        self._settled = 0
        self.lines: list[str] = []
        self.records: list[dict] = []
        self.requests: list[str] = []  # a scenario test's requests and answers, in order (see scenario.py)
        self._display: dict[str, str] | None = None

    # -- formatting
    def display(self, g) -> dict[str, str]:
        if self._display is None:
            r = g.rules
            d = {**VALUE_NAMES, **r.enum_names}
            for table in (r.cards, r.heroes, r.skills):
                for x in table.values():
                    d[x.id] = x.name
            self._display = d
        return self._display

    def show(self, g, v) -> str:
        if isinstance(v, Player):
            return v.name
        if isinstance(v, Card):
            if self.seat is not None:
                self._later.append(v)
                return f"\x00{len(self._later) - 1}\x00"
            return v.label()
        if isinstance(v, (list, tuple)):
            return "、".join(self.show(g, x) for x in v) if v else "无"
        if v is None:
            return "无"
        if v is True:
            return "是"
        if v is False:
            return "否"
        if isinstance(v, str):
            return self.display(g).get(v, v)
        if isinstance(v, int) and v.bit_length() > 10_000:
            # Python refuses to print an integer of more than 4,300 digits: a rule that computes one is
            # wrong, but its log line must not break the game
            return f"{'-' if v < 0 else ''}约10^{int(math.log10(abs(v)))}"
        return str(v)

    def prefix(self, g) -> str:
        if g.turn_no == 0:
            return "[游戏开始]"
        ph = g.rules.phase_names.get(g.phase, "") if g.phase else ""
        return f"[第{g.turn_no}回合{' ' + ph if ph else ''}]"

    def _settle(self) -> None:
        if self._later:
            def name(m: re.Match) -> str:
                c = self._later[int(m.group(1))]
                return c.label() if visible_to(c, self.seat) else "一张牌"

            for i in range(self._settled, len(self.lines)):
                self.lines[i] = _LATER.sub(name, self.lines[i])
        self._settled = len(self.lines)

    def read(self, start: int = 0) -> list[str]:
        """The lines from `start`, every card in them named as this log's seat may know it."""
        if self.seat is not None:
            self._settle()
        return self.lines[start:]

    def _add(self, g, text: str, rec: dict) -> None:
        if self.seat is not None:
            self._settle()
        self.lines.append(f"{self.prefix(g)} {text}")
        if self.keep_records:
            rec.setdefault("parent", g.stack[-1].eid if g.stack else 0)
            rec["turn"] = g.turn_no
            rec["phase"] = g.phase
            rec.setdefault("window", g.windows_open[-1] if g.windows_open else None)
            rec["text"] = text
            self.records.append(rec)

    # -- events
    def request(self, g, text: str) -> None:
        """A decision a scenario test's script made: kept apart, and in the window trace among the lines."""
        self.requests.append(f"{self.prefix(g)} {text}")
        if self.windows:
            self.lines.append(self.requests[-1])

    def say(self, g, parts, loc, choice: bool = False, secret: bool = False) -> None:
        text = "".join(self.show(g, p) for p in parts)
        if choice and self.seat is not None and parts[0].seat != self.seat and (secret or _names_a_secret(g, text)):
            text = f"{parts[0].name} 作出了选择"  # e.g. which face-down hero to reveal, which skills to pre-show
        if loc:
            text += f"  ‹{loc}›"
        rec = {"kind": "say"}
        if loc:
            rec["loc"] = loc
            top = g.stack[-1] if g.stack else None
            rec["skill"] = top.name if top is not None and top.kind == "skill" else None
        self._add(g, text, rec)

    def turn(self, g, p) -> None:
        if self.seat is not None:
            self._settle()
        self.lines.append(f"[第{g.turn_no}回合] ---- {p.name} 的回合 ----")
        if self.keep_records:
            self.records.append({"kind": "turn", "turn": g.turn_no, "player": p.name, "seat": p.seat})

    def phase(self, g) -> None:
        if self.windows:
            self._add(g, f"进入{g.rules.phase_names.get(g.phase, g.phase)}", {"kind": "phase", "phase_id": g.phase})

    def window(self, g, w) -> None:
        self._add(g, f"· {w.name}", {"kind": "window", "window": w.id})

    def frame(self, g, f) -> None:
        if self.keep_records:
            self.records.append({"kind": f.kind, "id": f.eid, "parent": f.parent, "name": f.name, "loc": f.loc,
                                 "turn": g.turn_no, "phase": g.phase, "skill": f.ident if f.kind == "skill" else None,
                                 "window": g.windows_open[-1] if g.windows_open else None})

    def end(self, g, over) -> None:
        winners = "、".join(self.show(g, w) for w in over.winners) or "无"
        self._add(g, f"游戏结束：{over.reason}；胜利者：{winners}", {"kind": "end", "winners": list(over.winners)})

    # -- output
    def text(self) -> str:
        return "\n".join(self.lines) + "\n"

    def jsonl(self) -> str:
        return "".join(json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n" for r in self.records)


def _names_a_secret(g, text: str) -> bool:
    """Whether a choice said aloud names a hero card no seat has face up, or a skill no face-up hero card
    or other source gives (国战's face-down heroes: the choice of main and deputy, pre-shown skills)."""
    public_heroes: set[str] = set()
    public_skills: set[str] = set()
    for p in g.players:
        for h, up in zip(p.heroes, p.shown):
            if up:
                public_heroes.add(h.name)
        for inst in p.skills:
            if inst.slot is None or (inst.slot < len(p.shown) and p.shown[inst.slot]):
                public_skills.add(inst.skill.name)
    for p in g.players:
        for h, up in zip(p.heroes, p.shown):
            if not up and (h.name not in public_heroes and h.name in text
                           or any(g.rules.skills[s].name in text and g.rules.skills[s].name not in public_skills
                                  for s in h.skills)):
                return True
    if g.mode is None or g.mode.table:
        return False
    # a mode whose sides are kingdoms deals its hero cards face down: a dealt hero not yet face up is secret
    return any(g.rules.heroes[h].name in text and g.rules.heroes[h].name not in public_heroes
               for h in g.used_heroes if h in g.rules.heroes)
