"""`sgsdsl replay LOG --html FILE`: one logged game as a page a designer steps through.

The game is played again from its log's header (the rules are deterministic, so it is the same game;
the records are compared to the log's, and a log these rules no longer play is refused). While it
plays, the table is copied at every log line: seats, heroes, HP, hands, equipment, judgment zones,
piles, marks, the piles of the table, and the stack of what is being settled. A card is kept with the
seats that know it, a hero card with its face and who has seen it, so the page shows the table as any
seat may see it, or everything.

The page is one file: data, script and style inline, no network request. Chinese text is drawn with a
subset of a CJK font embedded in the page when fontTools and such a font are on the machine that writes
it (Noto Sans CJK from Debian's fonts-noto-cjk); otherwise it falls back to a font stack.
"""

from __future__ import annotations

import base64
import glob
import html
import io
import json
import re
import shutil
import subprocess
from pathlib import Path

from ..engine.log import _LATER, GameLog, _names_a_secret
from ..engine.state import KNOWN_TO_ALL, VALUE_NAMES, visible_to
from ..engine.view import mark_labels

_LOC = re.compile(r"\s*‹([^›]+)›$")
ALL = KNOWN_TO_ALL


class TableLog(GameLog):
    """The game's own log (the same records as `simulate --log`), and a copy of the table at each line."""

    def __init__(self):
        super().__init__(windows=False)
        self.steps: list[list] = []
        self._ids: dict[str, int] = {}
        self.parts: list = []  # every distinct piece of a step (a seat's state, the zones, the stack), once
        # Each seat's own wording of a line (GameLog(seat=…)'s: a card that seat does not know is "一张牌",
        # named as the seat knows it once the step is done, that is when the next line is said)
        self._pending: list[tuple[int, int, str]] = []  # (step, seat, its text with \x00n\x00 marks)

    def _part(self, obj) -> int:
        key = json.dumps(obj, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
        k = self._ids.get(key)
        if k is None:
            k = self._ids[key] = len(self.parts)
            self.parts.append(obj)
        return k

    def _add(self, g, text: str, rec: dict) -> None:
        self.settle_seats(g)
        super()._add(g, text, rec)
        self._snap(g, rec.get("loc"))

    def turn(self, g, p) -> None:
        self.settle_seats(g)
        super().turn(g, p)
        self._snap(g, None)

    def say(self, g, parts, loc, choice: bool = False, secret: bool = False) -> None:
        super().say(g, parts, loc, choice, secret)
        if not any(_has_card(x) for x in parts) and not choice:
            return  # no card to hide, no secret choice: every seat reads the line as it is
        step, prefix = len(self.steps) - 1, self.prefix(g) + " "
        for seat in range(len(g.players)):
            self.seat = seat  # show() in a seat log's way: each card a mark, named when the step is done
            try:
                text = "".join(self.show(g, x) for x in parts)
            finally:
                self.seat = None
            if choice and parts[0].seat != seat and (secret or _names_a_secret(g, text)):  # judged as it is said, as GameLog does
                text = f"{parts[0].name} 作出了选择"
            self._pending.append((step, seat, prefix + text))

    def settle_seats(self, g=None) -> None:
        for step, seat, text in self._pending:
            def name(m: re.Match, seat=seat) -> str:
                c = self._later[int(m.group(1))]
                return c.label() if visible_to(c, seat) else "一张牌"

            text = _LATER.sub(name, text)
            if text != self.steps[step][0]:
                if len(self.steps[step]) < 7:
                    self.steps[step].append({})
                self.steps[step][6][str(seat)] = text
        self._pending.clear()
        self._later.clear()

    def _snap(self, g, loc) -> None:
        line = self.lines[-1]
        m = _LOC.search(line)
        text = line[:m.start()] if m else line
        cur = g.current.seat if g.current is not None else -1
        self.steps.append([text, loc, cur, [self._part(seat_state(g, p)) for p in g.players],
                           self._part(zones(g)), self._part(stack(g))])


def _has_card(x) -> bool:
    from ..engine.state import Card

    return isinstance(x, Card) or isinstance(x, (list, tuple)) and any(_has_card(y) for y in x)


def _card(c) -> list:
    """[label, the seats that know it (a bit set)]."""
    if c.uid < 0:
        known = ALL
        for s in c.subcards:
            known &= s.known
        return [c.label(), known]
    return [c.label(), c.known & ALL]


def _name(rules, v) -> str:
    if isinstance(v, str):
        for table in (rules.cards, rules.heroes, rules.skills):
            if v in table:
                return table[v].name
        return rules.enum_names.get(v, VALUE_NAMES.get(v, v))
    return str(v)


def seat_state(g, p) -> dict:
    r = g.rules
    heroes = []
    for i, h in enumerate(p.heroes):
        up = p.shown[i] if i < len(p.shown) else True
        seen = sum(1 << s for s, slot in p.hero_known if slot == i)
        heroes.append([h.name, _name(r, h.kingdom), bool(up), seen])
    skills = []
    for inst in p.skills:
        if inst.equip:
            continue
        up = inst.slot is None or inst.slot >= len(p.shown) or p.shown[inst.slot]
        skills.append([inst.skill.name, bool(up), inst.skill.id in p.armed])
    piles = []
    for pid, cs in p.piles.items():
        if cs:
            d = r.counters.get(pid)
            piles.append([d.name if d is not None else pid, [_card(c) for c in cs]])
    return {"seat": p.seat, "heroes": heroes, "hp": p.hp, "max": p.max_hp, "alive": p.alive,
            "id": _name(r, p.identity) if p.identity is not None else None, "id_up": bool(p.identity_shown),
            "kingdom": _name(r, p.kingdom) if p.kingdom else None,
            "hand": [_card(c) for c in p.hand], "equip": [_card(c) for c in p.equips],
            "judge": [_card(c) for c in p.judges], "piles": piles, "marks": mark_labels(r, p.marks, counters=False),
            "counters": [x for x in mark_labels(r, p.marks) if x not in mark_labels(r, p.marks, counters=False)],
            "flipped": p.flipped, "chained": p.chained, "skills": skills,
            "reserve": [_name(r, h) for h in p.reserve], "fallen": [_name(r, h) for h in p.fallen]}


def zones(g) -> dict:
    return {"draw": len(g.draw_pile), "discard": len(g.discard_pile),
            "top": [_card(c) for c in g.discard_pile[-5:]], "processing": [_card(c) for c in g.processing]}


FRAME_KINDS = {"setup": "模式", "flow": "流程", "skill": "技能", "effect": "牌的效果"}


def stack(g) -> dict:
    r = g.rules
    frames = [[FRAME_KINDS.get(f.kind, f.kind), f.name, f.loc] for f in g.stack]
    windows = [r.windows[w].name if w in r.windows else w for w in g.windows_open]
    return {"frames": frames, "windows": windows}


# ---- the rules text a line links to ---------------------------------------------------------------

def _source_block(root: Path, loc: str, start: int | None, cache: dict) -> dict | None:
    """The rules text of a declaration, from line `start` (the location's own line when None) to the end of
    its braces or its first test, at most 60 lines; `at` is the location's line among them (1 = the first)."""
    path, _, line = loc.rpartition(":")
    if not line.isdigit():
        return None
    if path not in cache:
        f = Path(path) if Path(path).is_absolute() else root / path
        try:
            cache[path] = f.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError):
            cache[path] = None
    lines = cache[path]
    n = int(line)
    first = start if start is not None and start <= n else n
    if lines is None or not 1 <= first <= len(lines):
        return None
    out, depth, opened = [], 0, False
    for k in range(first - 1, min(len(lines), first + 59)):
        if k + 1 > n and depth == 1 and lines[k].strip().startswith("test "):
            break  # the declaration's scenario tests: not what fired
        out.append(lines[k])
        opened = opened or "{" in lines[k]
        depth += lines[k].count("{") - lines[k].count("}")
        if depth <= 0 and (opened or not lines[k].rstrip().endswith(("do", "then", "=", "->"))) and k + 1 >= n:
            break
    return {"first": first, "at": n - first + 1, "lines": out}


def _skill_at(rules, loc: str):
    """The skill (or card) whose declaration holds a rules location: the nearest one above it in its file."""
    path, _, line = loc.rpartition(":")
    if not line.isdigit():
        return None
    best = None
    for d in list(rules.skills.values()) + list(rules.cards.values()):
        dp, _, dl = (d.loc or "").rpartition(":")
        if dp == path and dl.isdigit() and int(dl) <= int(line) and (best is None or int(dl) > best[0]):
            best = (int(dl), d)
    return best[1] if best else None


def sources(rules, root: Path, steps: list[list]) -> dict:
    """For each rules location the page links to: its file:line, the declaration's name and text, the source."""
    cache: dict = {}
    out = {}
    for s in steps:
        loc = s[1]
        if loc and loc not in out:
            d = _skill_at(rules, loc)
            dl = (d.loc or "").rpartition(":")[2] if d is not None else ""
            block = _source_block(root, loc, int(dl) if dl.isdigit() else None, cache)
            out[loc] = {"name": d.name if d is not None else "", "text": getattr(d, "text", "") or "",
                        "src": block}
    return out


# ---- the font -------------------------------------------------------------------------------------

FONT_STACK = '"SgsReplay", "Noto Sans CJK SC", "Noto Sans SC", "Source Han Sans SC", "PingFang SC", ' \
             '"Microsoft YaHei", "WenQuanYi Micro Hei", sans-serif'


def cjk_font() -> tuple[str, int] | None:
    """A CJK font file on this machine and the index of its Simplified Chinese face: fontconfig's choice,
    else Debian's Noto Sans CJK."""
    if shutil.which("fc-match"):
        try:
            out = subprocess.run(["fc-match", "-f", "%{file}\t%{index}", "sans-serif:lang=zh-cn"],
                                 capture_output=True, text=True, timeout=10).stdout
            path, _, index = out.partition("\t")
            if path and Path(path).is_file() and re.search(r"(?i)cjk|han|hei|wqy|sc", Path(path).name):
                return path, int(index or 0)
        except (OSError, subprocess.SubprocessError, ValueError):
            pass
    for f in sorted(glob.glob("/usr/share/fonts/**/NotoSansCJK-Regular.ttc", recursive=True)):
        return f, 2  # the collection's order: JP, KR, SC, TC, HK
    return None


def font_face(text: str) -> tuple[str, str | None]:
    """(the @font-face rule of a subset holding every character of `text`, or "", why not)."""
    try:
        from fontTools import subset
        from fontTools.ttLib import TTFont
    except ImportError:
        return "", "fontTools is not installed (pip install 'sgsdsl[replay]')"
    found = cjk_font()
    if found is None:
        return "", "no CJK font on this machine (apt-get install fonts-noto-cjk)"
    path, index = found
    chars = {ord(c) for c in text if ord(c) > 0x2000}
    try:
        font = TTFont(path, fontNumber=index, lazy=True) if path.endswith((".ttc", ".otc")) else TTFont(path, lazy=True)
        opts = subset.Options()
        opts.flavor = "woff"
        opts.name_IDs = [0, 1, 2, 3, 4, 5, 6]  # the names and its license notice go with the glyphs
        opts.hinting = False
        opts.layout_features = []
        sub = subset.Subsetter(opts)
        sub.populate(unicodes=chars)
        sub.subset(font)
        buf = io.BytesIO()
        font.flavor = "woff"
        font.save(buf)
    except Exception as e:  # noqa: BLE001 - a font that cannot be subset: the page still works with the stack
        return "", f"the font {path} could not be subset ({e.__class__.__name__}: {e})"
    data = base64.b64encode(buf.getvalue()).decode("ascii")
    return (f'@font-face {{ font-family: "SgsReplay"; src: url(data:font/woff;base64,{data}) format("woff"); '
            f"font-display: block; }}"), None


# ---- the page -------------------------------------------------------------------------------------

def page_data(rules, root: Path, header: dict, log: TableLog, g, seat) -> dict:
    log.settle_seats(g)
    names = [f"{p.seat + 1}号位" for p in g.players]
    return {"header": {k: header.get(k) for k in ("mode", "players", "seed", "game", "agent")},
            "mode": g.mode.name if g.mode is not None else header["mode"],
            "names": names, "steps": log.steps, "parts": log.parts, "sources": sources(rules, root, log.steps),
            "seat": seat, "end": g.end_reason}


def render(data: dict, embed_font: bool = True) -> tuple[str, str | None]:
    """The page, and why no font was embedded (None when one was)."""
    import jinja2

    env = jinja2.Environment(loader=jinja2.FileSystemLoader(Path(__file__).parent / "templates"), autoescape=True,
                             undefined=jinja2.StrictUndefined)
    blob = json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
    tpl = env.get_template("replay.html.j2")
    bare = tpl.render(data_json=blob, font_face="", font_stack=FONT_STACK, title=_title(data))
    face, why = font_face(html.unescape(bare)) if embed_font else ("", "not asked for")
    if not face:
        return bare, why
    return tpl.render(data_json=blob, font_face=face, font_stack=FONT_STACK, title=_title(data)), None


def _title(data: dict) -> str:
    h = data["header"]
    return f"sgsdsl replay · {data['mode']} · seed {h['seed']}"
