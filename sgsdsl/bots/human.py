"""`sgsdsl play`: a terminal human at a table of heuristic bots.

Before every decision the human sees what happened since the last one (the log, written
from their seat: cards they do not know read "一张牌"), the board as their seat sees it,
and the question: numbered options, what a response answers ("> 闪 (响应 曹操 的 杀)"), the
text of a skill that asks "发动？". Answers go through rich's prompt: a number (several,
separated by spaces, where several are asked for), Enter to decline where declining is
allowed, `help` for every hero's skills, `quit` to leave. Every other answer gets a message
saying what is wrong, and the question again.

Like every agent it decides from its SeatView (view.py), never from the Game.
"""

from __future__ import annotations

import re
import select
import sys
import time

from rich.console import Console
from rich.prompt import InvalidResponse, Prompt
from rich.text import Text

from ..engine.log import GameLog
from ..engine.requests import Agent, Request, Resign
from ..engine.view import CardView, PlayerView, SeatView, SkillView
from .heuristic import HeuristicAgent

HELP = ("回答方法：输入选项前的编号；需要选择多个时用空格分开 (如 1 3)；可以不选时直接回车跳过。\n"
        "help 显示各武将的技能，board 再显示一次牌桌，认输 (resign) 认输并结束本局，quit 退出游戏。")


_RULES_AT = re.compile(r" \(([^()\s]+\.sgs:\d+)\)")


def log_line(line: str) -> str:
    """A log line as a person reads it: a rules location in it (a game's end names the win clause) set apart
    as the log sets apart the skill that fired, ‹file:line›, never among the words."""
    return _RULES_AT.sub(r"  ‹\1›", line)


class Quit(Exception):
    """The human typed quit (or the input ended)."""


class Answer(Prompt):
    """One answer to a request, parsed and checked by rich's prompt loop (a message for every bad answer)."""

    prompt_suffix = "："

    def __init__(self, prompt: str, *, console: Console, agent: HumanAgent, view: SeatView, req: Request):
        super().__init__(prompt, console=console)
        self.agent, self.view, self.req = agent, view, req

    @classmethod
    def get_input(cls, console: Console, prompt, password: bool, stream=None) -> str:
        line = console.input(prompt, password=password, stream=stream)  # input() raises EOFError itself
        if stream is not None and not line:
            raise EOFError
        return line

    def process_response(self, value: str):
        words = value.split()
        req, n = self.req, len(self.req.options)
        many = req.kind in ("cards", "players", "options")
        if not words:
            if req.kind == "confirm":
                return False
            if req.lo == 0:
                return [] if many else None
            raise InvalidResponse(f"必须选择{req.lo}个" if many else "必须选择一项，不能跳过")
        if words[0].lower() in ("help", "h", "?", "？", "帮助"):
            self.agent.show_help(self.view)
            raise InvalidResponse("")
        if words[0].lower() in ("board", "b", "牌桌"):
            self.agent.board(self.view)
            raise InvalidResponse("")
        if words[0].lower() in ("quit", "exit", "q", "退出"):
            raise Quit()
        if words[0].lower() in ("resign", "认输"):
            raise Resign()  # the game ends with a result: the other side wins (engine/decisions.py)
        if req.kind == "confirm" and len(words) == 1:
            w = words[0].lower()
            if w in ("y", "yes", "是"):
                return True
            if w in ("n", "no", "否"):
                return False
        picks = []
        for w in words:
            try:
                k = int(w)
            except ValueError:
                raise InvalidResponse(f"“{w}” 不是编号：请输入 1–{n} 之间的编号，或 help") from None
            if not 1 <= k <= n:
                raise InvalidResponse(f"编号 {k} 无效：请输入 1–{n} 之间的编号")
            picks.append(k)
        if len(set(picks)) != len(picks):
            raise InvalidResponse("同一个编号只能选一次")
        if not many:
            if len(picks) > 1:
                raise InvalidResponse("只能选择一个编号")
            return req.options[picks[0] - 1]
        if not req.lo <= len(picks) <= req.hi:
            want = f"{req.lo}" if req.lo == req.hi else f"{req.lo}–{req.hi}"
            raise InvalidResponse(f"需要选择{want}个，你选择了{len(picks)}个")
        return [req.options[k - 1] for k in picks]


def partners_of(rules, hid: str) -> list[str]:
    """珠联璧合: the heroes a hero pairs with, either card naming the other."""
    own = rules.heroes[hid].pairs
    return [p for p in own if p in rules.heroes] + [h.id for h in rules.heroes.values()
                                                    if hid in h.pairs and h.id not in own]


class HumanAgent(Agent):
    name = "human"
    tracks = False
    preshows = True  # offered 预亮 / 取消预亮 in the play phase, as 国战 clients do

    def __init__(self, console: Console | None = None, inp=None):
        self.console = console or Console(highlight=False)
        self.inp = inp  # a text stream to read answers from (tests); None: the terminal
        self.log_seen = 0
        self.dealt: list[str] = []  # the hero cards offered to this seat before the first turn (dealt)
        self.timer: tuple[float, float] | None = None  # seconds per action: (play phase, elsewhere); None: no limit

    def say(self, text: str = "", style: str | None = None) -> None:
        self.console.print(text, markup=False, style=style, soft_wrap=True)

    # ---- what the seat sees -----------------------------------------------------------------
    def catch_up(self, view: SeatView) -> None:
        lines = view.log_lines(self.log_seen)
        self.log_seen += len(lines)
        for line in lines:
            self.say(log_line(line))

    def board(self, view: SeatView) -> None:
        self.say()
        me, current = view.me, view.current
        for p in view.players:
            tags = [t for t, on in (("你", p.is_me), ("当前回合", current is not None and p is current and p.alive),
                                    ("已死亡", not p.alive), ("翻面", p.flipped), ("横置", p.chained)) if on]
            ident = view.show(p.identity) if p.identity is not None else "?"
            eq = " ".join(c.label() for c in p.equips)
            jd = " ".join(c.label() for c in p.judges)
            marks = " ".join(p.mark_labels)
            hp = f"体力{p.hp}/{p.max_hp}" if p.heroes else "未选将"
            parts = [f"{p.seat + 1}. {p.name}", f"[{ident}]", hp, f"手牌{p.hand_count}"]
            parts += [x for x in (f"装备 {eq}" if eq else "", f"判定区 {jd}" if jd else "", marks) if x]
            self.say("  " + "  ".join(parts) + (f"  ({'，'.join(tags)})" if tags else ""),
                     style="bold" if p.is_me else None)
        for p in view.players:
            names = lambda ids: "、".join(view.show(h) for h in ids)  # noqa: E731
            if p.reserve or p.fallen:
                self.say(f"     {p.seat + 1}号位" + (f"  备用武将：{names(p.reserve)}" if p.reserve else "")
                         + (f"  阵亡武将：{names(p.fallen)}" if p.fallen else ""))
        self.say("  你的手牌：" + (" ".join(c.label() for c in me.hand) or "无"))
        if any(not up for up in me.shown):
            slots = ("主将", "副将")
            self.say("  你的武将：" + "  ".join(
                f"{slots[i] if i < 2 else ''}{h.name}（{view.show(h.kingdom)}，{'明置' if up else '暗置'}）"
                for i, (h, up) in enumerate(zip(me.heroes, me.shown)) if h is not None))
        skills = "、".join(self.skill_state(view, me, s) for s in me.skills if not s.equip)
        if skills:
            self.say(f"  你的技能：{skills} (help 查看技能说明)")

    @staticmethod
    def skill_state(view: SeatView, me: PlayerView, s: SkillView) -> str:
        """A skill of one's own with what a face-down hero makes of it: 暗置 (no effect until the hero is
        shown), 预亮 (offered when it could fire), 锁定技 (cannot be pre-shown)."""
        name = f"【{s.skill.name}】"
        if s.slot is None or s.slot >= len(me.shown) or me.shown[s.slot]:
            return name
        if s.skill.locked:
            return name + "(暗置，锁定技)"
        return name + ("(暗置，已预亮)" if s.skill.id in me.armed else "(暗置，未生效)")

    def show_help(self, view: SeatView) -> None:
        self.say(HELP)
        for p in view.players:
            hs = [h for h in p.heroes if h is not None]
            if not hs:
                continue
            self.say(f"{p.seat + 1}. {p.name}", style="bold")
            for h in hs:
                for sid in h.skills:
                    s = view.rules.skills.get(sid)
                    if s is not None:
                        self.say(f"   【{s.name}】{s.text}")

    # ---- the question ----------------------------------------------------------------------
    def label(self, view: SeatView, opt) -> str:
        if isinstance(opt, CardView):
            where = {"hand": "", "equip": " [装备区]", "judge": " [判定区]"}.get(opt.zone or "", "")
            if not opt.seen:
                return "一张手牌" if opt.zone == "hand" else "一张牌"
            return opt.label() + where
        if isinstance(opt, tuple) and len(opt) == 2:
            kind, what = opt
            if kind == "card":
                return f"使用 {what.label()}"
            if kind == "recast":
                return f"重铸 {what.label()}"
            if kind == "viewas":
                owner = what[0].owner
                whose = f"{view.show(owner)}的" if owner is not None and owner is not view.me else ""  # (天兵符)
                return f"发动{whose}【{what[0].skill.name}】当{view.show(what[1].card)}使用"
            if kind == "active":
                return f"发动【{what[0].skill.name}】：{what[0].skill.text}"
            if kind == "preshow":
                on = what.skill.id in view.me.armed
                return f"{'取消预亮' if on else '预亮'}【{what.skill.name}】(暗置武将的技能{'，已预亮' if on else ''})"
            if kind == "supply":
                return f"发动【{what[0].skill.name}】使用{view.show(what[1])}"
        if isinstance(opt, PlayerView):
            ident = f" [{view.show(opt.identity)}]" if opt.identity is not None else ""
            return f"{opt.seat + 1}. {opt.name}{ident} 体力{opt.hp}/{opt.max_hp} 手牌{opt.hand_count}"
        if isinstance(opt, SkillView):
            return f"【{opt.skill.name}】{opt.skill.text}"
        if opt is True:
            return "是"
        if opt is False:
            return "否"
        if isinstance(opt, str) and opt in view.rules.heroes:
            return self.hero_label(view, opt, self.dealt)
        return view.show(opt)

    def hero_label(self, view: SeatView, hid: str, offered=()) -> str:
        h = view.rules.heroes[hid]
        skills = "".join(f"\n        【{s.name}】{s.text}" for s in (view.rules.skills.get(x) for x in h.skills)
                         if s is not None)
        pairs = ""
        partners = partners_of(view.rules, hid)
        if partners:
            mine = [p for p in partners if p in offered]
            pairs = ("\n        珠联璧合：" + "、".join(view.rules.heroes[p].name for p in partners)
                     + (f" (可与发给你的 {'、'.join(view.rules.heroes[p].name for p in mine)} 组成)" if mine else ""))
        return f"{h.name} ({view.show(h.kingdom)} 体力{h.hp_halves / 2:g}){skills}{pairs}"

    def what_for(self, view: SeatView, req: Request) -> str:
        """What a response answers: the innermost card effect or skill being settled, and whose it is; or a
        flow that asks about a card on a target (whether to cancel it: 无懈可击's), that card and target."""
        for k, f in enumerate(reversed(view.stack)):
            ev = f.event
            if k == 0 and f.kind == "flow" and ev is not None:
                card, target = getattr(ev, "card", None), getattr(ev, "target", None)
                if isinstance(card, CardView):
                    return f"{f.name}：{card.label()}" + (f"，目标 {target.name}" if isinstance(target, PlayerView)
                                                          else "")
            if f.kind in ("effect", "skill"):
                src = getattr(ev, "source", None) if ev is not None else None
                if f.kind == "effect":
                    who = f"{src.name} 的 " if isinstance(src, PlayerView) else ""
                    return f"响应 {who}{f.name}"
                return f"因【{f.name}】"
        return ""

    def question(self, view: SeatView, req: Request) -> str:
        prompt = req.prompt or req.kind
        if req.kind == "respond":
            why = self.what_for(view, req)
            return f"> {prompt}" + (f" ({why})" if why else "")
        if req.kind == "confirm" and isinstance(req.context, SkillView):
            return f"> {prompt} {req.context.skill.text}"
        return f"> {prompt}"

    def decide(self, view: SeatView, req: Request):
        self.catch_up(view)
        self.board(view)
        heroes = [o for o in list(req.options) + list(req.left_out) if isinstance(o, str) and o in view.rules.heroes]
        if heroes and view.turn_no == 0:
            self.dealt += [h for h in heroes if h not in self.dealt]
            self.say("  发给你的武将牌：" + "  ".join(
                f"{view.rules.heroes[h].name}（{view.show(view.rules.heroes[h].kingdom)}）" for h in self.dealt))
        self.say(self.question(view, req), style="bold")
        for i, o in enumerate(req.options, 1):
            self.say(f"   {i}) {self.label(view, o)}")
        for o in req.left_out:  # what the rules left out of this question, shown so the choice is understood
            self.say(f"   -) {self.label(view, o).splitlines()[0]} (不可选)")
        many = req.kind in ("cards", "players", "options")
        if req.kind == "confirm":
            hint = "1 是，2 否 (y/n)，回车即否"
        else:
            n = len(req.options)
            count = (f"{req.lo}" if req.lo == req.hi else f"{req.lo}–{req.hi}") if many else "一"
            hint = f"选择{count}个编号 (1–{n})" + ("，回车跳过" if req.lo == 0 else "")
        if self.timer is not None:
            return self.timed(view, req, hint)
        try:
            return Answer(Text(f"你的选择 ({hint})"), console=self.console, agent=self, view=view, req=req)(
                stream=self.inp)
        except EOFError:
            raise Quit() from None

    def timed(self, view: SeatView, req: Request, hint: str):
        """An answer within the action's time (seed 003: 15 s an action in the play phase, 5 s elsewhere);
        a timeout passes: ends the play phase, declines, or takes the first option(s) a required choice offers."""
        limit = self.timer[0] if req.kind == "play" else self.timer[1]
        deadline = time.monotonic() + limit
        answer = Answer("", console=self.console, agent=self, view=view, req=req)
        stream = self.inp if self.inp is not None else sys.stdin
        self.console.print(f"你的选择 ({hint}，限时{limit:g}秒)：", end="", markup=False)
        while True:
            ready, _, _ = select.select([stream], [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                self.say("（超时）")
                return self.on_timeout(req)
            line = stream.readline()
            if not line:
                raise Quit()
            try:
                return answer.process_response(line.strip())
            except InvalidResponse as e:
                if e.message:
                    self.say(str(e.message))
                self.console.print("你的选择：", end="", markup=False)

    @staticmethod
    def on_timeout(req: Request):
        many = req.kind in ("cards", "players", "options")
        if req.kind == "confirm":
            return False
        if req.lo == 0:
            return [] if many else None
        return list(req.options[:req.lo]) if many else req.options[0]


BROKEN_TAIL = 20  # log lines shown before the error of a game that broke (a runaway loop may log thousands)


def broken_game(g, e: Exception) -> str:
    """The one error of a game the rules broke: a runaway names its loop (engine/runaway.py), a RulesError
    says what could not apply, anything else says where in the rules it happened."""
    from ..engine.ruleset import RulesError, rules_location

    if isinstance(e, RulesError):
        return f"error: the game broke: {e}"
    loc = rules_location(e.__traceback__)
    stack = " > ".join(g.crash_stack or [])
    return (f"error: the game broke (seed {g.seed}, turn {g.turn_no}): {e.__class__.__name__}: {e}"
            + (f"\n  at {loc}" if loc else "") + (f"\n  stack: {stack}" if stack else ""))


class _Referee:
    """Watches the game for `play` (the engine's observer hook): who is asked to choose among identities
    (a match's 身份选择权 alternates), and the wall clock of a timed game (time up: the mode's turn limit
    becomes 1, and its rules end the game as they say, 1v1 after the 主公's turn, by the seed's tiebreak)."""

    def __init__(self, identities, minutes: float):
        self.identities = set(identities)
        self.deadline = time.monotonic() + minutes * 60 if minutes else None
        self.chooser: int | None = None
        self.timed_out = False

    def on_request(self, g, req) -> None:
        if req.kind == "option" and req.options and all(isinstance(o, str) and o in self.identities
                                                         for o in req.options):
            self.chooser = req.player.seat
        if self.deadline is not None and not self.timed_out and time.monotonic() >= self.deadline:
            self.timed_out = True
            g.turn_limit = 1
            g.say("比赛时间到：按模式的时间规则结束本局")

    def __getattr__(self, name):  # every other observer point: nothing to watch
        return lambda *a, **k: None


def play_human(rules, mode: str, players: int | None, seed: int, seat: int, console: Console | None = None,
               decks: tuple[str, ...] = (), options: dict | None = None, turn_limit: int = 0, inp=None,
               match: int = 1, timer: tuple[float, float] | None = None, minutes: float = 0) -> int:
    """Games with a person at `seat`: one, or a match of `match` games (1v1: 比点 decides the choice of
    identity in odd games, the other seat has it in even ones; the match result is reported). `decks`,
    `options` (checked ids and values) and `turn_limit` as `simulate` takes them; `timer`: seconds per
    action (play phase, elsewhere), a timeout passes; `minutes`: a game's time limit on the clock;
    `inp`: a text stream of answers (tests), else the terminal."""
    m = rules.find_mode(mode)
    if m is None:
        print(f"error: unknown mode {mode}", file=sys.stderr)
        return 2
    rules = rules.for_mode(m)
    m = rules.modes[m.id]
    if players is None:  # the mode's only count, else 5
        players = m.players[0] if m.players[0] == m.players[1] else max(m.players[0], min(5, m.players[1]))
    if not m.players[0] <= players <= m.players[1] or not 0 <= seat < players:
        print(f"error: mode {mode} takes {m.players[0]}–{m.players[1]} players; seat must be 1–{players}",
              file=sys.stderr)
        return 2
    options = dict(options or {})
    chooser_option = next((oid for oid, _, default, _ in m.options if oid == "identity_chooser"), None) \
        if match > 1 else None
    human = HumanAgent(console, inp)
    human.timer = timer
    wins = [0] * players
    last_chooser = None
    for k in range(match):
        game_options = dict(options)
        if chooser_option is not None and k % 2 == 1 and last_chooser is not None:
            game_options[chooser_option] = 2 - last_chooser  # the other seat (seats 1 and 2) chooses
        if match > 1:
            human.say(f"==== 第{k + 1}局 (共{match}局) ====", style="bold")
        code, g, referee = _one_game(rules, m, players, seed + k, seat, human, decks, game_options, turn_limit,
                                     minutes)
        if g is None:
            return code
        last_chooser = referee.chooser
        for q in g.players:
            if q.seat in g.won_seats if g.won_seats is not None else q.identity in (g.winners or ()):
                wins[q.seat] += 1
    if match > 1:
        score = " : ".join(f"{n}" for n in wins)
        best = max(wins)
        leaders = [i for i, n in enumerate(wins) if n == best]
        verdict = "平局" if len(leaders) > 1 else ("你赢得了比赛！" if leaders == [seat] else f"{leaders[0] + 1}号位赢得了比赛。")
        human.say(f"比赛结果 ({'、'.join(f'{i + 1}号位' for i in range(players))})：{score}，{verdict}", style="bold")
    return 0


def _one_game(rules, m, players, seed, seat, human, decks, options, turn_limit, minutes):
    """(exit code, the game or None when the person quit or it broke, its referee)."""
    from ..engine.game import Game

    human.log_seen = 0
    human.dealt = []
    log = GameLog(records=False, seat=seat)  # written from the human's seat: what they may know
    agents = [human if i == seat else HeuristicAgent() for i in range(players)]
    g = Game(rules, players=players, seed=seed, agents=agents, mode=m, log=log, hero_pool=rules.hero_pool(m))
    g.build_deck(list(m.decks) + [d for d in decks if d not in m.decks])
    g.turn_limit = turn_limit
    g.options = dict(options)
    ident = rules.enums.get("identity")  # the language's identity type: a choice among its values
    referee = _Referee([i for i, _, _ in ident.items] if ident is not None else [], minutes)
    g.observer = referee
    settings = [f"{cname} {'是' if v is True else '否' if v is False else v}" for oid, cname, _, _ in m.options
                for k, v in g.options.items() if k == oid]
    settings += [f"加入牌堆 {rules.decks[d].name}" for d in decks if d not in m.decks]
    settings += [f"使用 {rules.packages[v].title or v}" for v in rules.variants if v not in m.variants]
    if turn_limit:
        settings.append(f"时间限制 {turn_limit} 回合")
    human.say(f"sgsdsl play：{m.name}，{players}人，你坐在{seat + 1}号位" + (f"（{'；'.join(settings)}）" if settings
                                                                             else "") + "。输入 help 查看说明。")
    try:
        g.run()
    except Quit:
        human.say("游戏已退出。")
        return 0, None, referee
    except Exception as e:  # the rules broke: named as `simulate` and `test` name them, never a traceback
        for line in log.read(human.log_seen)[-BROKEN_TAIL:]:
            human.say(log_line(line))
        print(broken_game(g, e), file=sys.stderr)
        return 1, None, referee
    for line in log.read(human.log_seen):
        human.say(log_line(line))
    me = g.players[seat]
    won = me.seat in g.won_seats if g.won_seats is not None else me.identity in (g.winners or ())
    human.say("你赢了！" if won else ("平局。" if not g.winners else "你输了。"), style="bold")
    return 0, g, referee
