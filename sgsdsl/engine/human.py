"""`sgsdsl play`: a terminal human at a table of heuristic bots.

Every request is shown as a numbered list; the human types a number (or
several, separated by spaces), or just Enter to decline where declining is
allowed. The log scrolls above the prompt.
"""

from __future__ import annotations

import sys

from .agents import Agent
from .heuristic import HeuristicAgent
from .log import GameLog
from .requests import Request
from .view import CardView


class TerminalLog(GameLog):
    """A log that also prints each line as it happens."""

    def __init__(self, out=sys.stdout):
        super().__init__(windows=False, records=False)
        self.out = out
        self.shown = 0

    def flush(self) -> None:
        for line in self.lines[self.shown:]:
            print(line, file=self.out)
        self.shown = len(self.lines)


class HumanAgent(Agent):
    name = "human"
    tracks = False

    def __init__(self, log: TerminalLog, inp=None, out=None):
        self.log = log
        self.inp = inp or sys.stdin
        self.out = out or sys.stdout

    def label(self, g, opt) -> str:
        if isinstance(opt, CardView):
            where = {"hand": "", "equip": " [装备]", "judge": " [判定区]"}.get(opt.zone or "", "")
            if not opt.seen:
                return "一张手牌" if opt.zone == "hand" else "一张牌"
            return opt.label() + where
        if isinstance(opt, tuple) and len(opt) == 2:
            kind, what = opt
            if kind == "card":
                return f"使用 {what.label()}"
            if kind == "viewas":
                return f"发动【{what[0].skill.name}】当{g.rules.cards[what[1].card].name}使用"
            if kind == "active":
                return f"发动【{what[0].skill.name}】"
            if kind == "supply":
                return f"发动【{what[0].skill.name}】使用{g.rules.cards[what[1]].name}"
        if hasattr(opt, "heroes"):
            return f"{opt.name} ({opt.hp}/{opt.max_hp})"
        if hasattr(opt, "skill"):
            return f"【{opt.skill.name}】"
        if opt is True:
            return "是"
        if opt is False:
            return "否"
        if isinstance(opt, str) and opt in g.rules.heroes:
            h = g.rules.heroes[opt]
            return f"{h.name} ({g.rules.enum_names.get(h.kingdom, h.kingdom)} {h.hp_halves / 2:g}) {h.text}"
        return g.show(opt)

    def status(self, g, me) -> None:
        print("", file=self.out)
        for p in g.players:
            tag = "你" if p is me else ("已死亡" if not p.alive else "")
            ident = g.rules.enum_names.get(p.identity, "?") if p.identity is not None else "?"
            eq = " ".join(c.label() for c in p.equips)
            jd = " ".join(c.label() for c in p.judges)
            print(f"  {p.seat + 1}. {p.name} [{ident}] {p.hp}/{p.max_hp} 手牌{len(p.hand)} {eq} {jd} {tag}",
                  file=self.out)
        print("  你的手牌: " + " ".join(c.label() for c in me.hand), file=self.out)

    def decide(self, g, req: Request):
        self.seat = req.player.seat
        self.log.flush()
        if req.kind == "play":
            self.status(g, req.player)
        opts = req.options
        print(f"> {req.prompt or req.kind}", file=self.out)
        for i, o in enumerate(opts, 1):
            print(f"   {i}) {self.label(g, o)}", file=self.out)
        many = req.kind in ("cards", "players")
        can_skip = req.lo == 0 or req.kind == "confirm"
        while True:
            hint = f"选择{req.lo}–{req.hi}个编号" if many else "选择一个编号"
            print(f"  {hint}{'，回车跳过' if can_skip else ''}: ", end="", file=self.out, flush=True)
            line = self.inp.readline()
            if line == "":
                raise SystemExit("input ended")
            words = line.split()
            if not words:
                if req.kind == "confirm":
                    return False
                if req.lo == 0:
                    return [] if many else None
                continue
            try:
                picks = [opts[int(w) - 1] for w in words]
            except (ValueError, IndexError):
                continue
            if many:
                if req.lo <= len(picks) <= req.hi and len(set(map(id, picks))) == len(picks):
                    return picks
                continue
            if len(picks) == 1:
                return picks[0]


def play_human(rules, mode: str, players: int, seed: int, seat: int) -> int:
    from .game import Game

    if mode not in rules.modes:
        print(f"error: unknown mode {mode}", file=sys.stderr)
        return 2
    m = rules.modes[mode]
    if not m.players[0] <= players <= m.players[1] or not 0 <= seat < players:
        print(f"error: mode {mode} takes {m.players[0]}–{m.players[1]} players; seat must be 1–{players}",
              file=sys.stderr)
        return 2
    log = TerminalLog()
    agents = [HumanAgent(log) if i == seat else HeuristicAgent() for i in range(players)]
    g = Game(rules, players=players, seed=seed, agents=agents, mode=m, log=log, hero_pool=rules.hero_pool(m))
    g.build_deck(m.decks)
    g.run()
    log.flush()
    me = g.players[seat]
    won = me.identity in (g.winners or ())
    print("你赢了！" if won else "你输了。")
    return 0
