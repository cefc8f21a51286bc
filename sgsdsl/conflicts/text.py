"""Family 7: the official text and the rules disagree.

SGS361: a sentence of the text kept beside a skill (or an equipment card) opens with a timing
(受到伤害后, 判定牌生效前, 准备阶段, 摸牌阶段, 出牌阶段, 结束阶段 …) that its rules do not use.
SGS362: the text states a use limit (出牌阶段限一次, 每阶段限一次, 每回合限一次) or a type (锁定技,
主公技, 限定技, 觉醒技) that the rules do not have (锁定技 is also met by rules whose every trigger is
`forced`, with nothing to activate or convert).
SGS363: the rules give the skill a type that its text does not state.

Only the opening clause of each sentence is read for the timing (up to the first '，'): that is
where the official wording puts it; later clauses describe the effect (跳过弃牌阶段 …). The
clause is read for its meaning, not matched word for word: whatever qualifies the damage between
受到/造成 and 伤害后 (受到【杀】造成的伤害后, 受到火焰伤害后, 受到其他角色造成的伤害后, 受到一次伤害后)
still names the after-damage window. SGS361 points at the trigger that fires elsewhere.
"""

from __future__ import annotations

import re

from ..lang import ast
from ..lang.diagnostics import Note
from ..lang.tree import conjuncts, is_name, walk
from .facts import Facts
from .findings import NO_PRINCIPLE_TEXT
from .findings import finding as make

# Timings named verbatim by a window.
EXACT = ("受到伤害后", "受到伤害时", "造成伤害后", "造成伤害时", "判定牌生效前", "判定牌生效后",
         "指定目标时", "指定目标后", "成为目标时", "成为目标后")
# Phases: the text names the phase, a window inside or around it carries its name.
PHASES = {"准备阶段": ("准备阶段", "回合开始阶段"), "判定阶段": ("判定阶段",), "摸牌阶段": ("摸牌阶段",),
          "出牌阶段": ("出牌阶段",), "弃牌阶段": ("弃牌阶段",), "结束阶段": ("结束阶段", "回合结束阶段")}
# A use limit, however the text words it (出牌阶段限一次, 每阶段限一次; 每回合限一次, 一回合只能使用一次该技能).
LIMITS = {"出牌阶段限一次": (re.compile(r"(出牌阶段|每阶段|每个出牌阶段)各?(限|只能(使用|发动)?)一次"), "phase", 1),
          # 每回合各限一次: each of its timings once per turn
          "每回合限一次": (re.compile(r"(每|一)回合各?(限|只能(使用|发动)?)一次"), "turn", 1)}
TYPES = {"锁定技": "locked", "主公技": "lord", "限定技": "limited", "觉醒技": "awaken", "阵法技": "formation"}
# What stands between the verb and 伤害后/时 qualifies the damage (its card, nature, source or amount);
# 受到 is read first, so the 造成 inside 受到其他角色造成的伤害后 stays part of the qualifier.
_NORMAL = [(re.compile(r"受到[^，。；：]{0,16}?伤害([后时])"), r"受到伤害\1"),
           # 当其他角色对你造成伤害后: the owner is the one damaged
           (re.compile(r"对你造成[^，。；：]{0,16}?伤害([后时])"), r"受到伤害\1"),
           (re.compile(r"造成[^，。；：]{0,16}?伤害([后时])"), r"造成伤害\1"),
           # 指定一名角色为目标后, 成为【杀】的目标时: the card and whom it aims at qualify the timing
           (re.compile(r"指定[^，。；：]{0,12}?目标([后时])"), r"指定目标\1"),
           (re.compile(r"成为[^，。；：]{0,12}?目标([后时])"), r"成为目标\1")]


def _sentences(text: str) -> list[str]:
    return [s for s in re.split(r"[；。]", text) if s.strip()]


# A skill-type label at the head of a sentence, whichever mode uses it: 锁定技，主公技，限定技，觉醒技 (the
# language's types), 阵法技，主将技，副将技 (国战), 君主技 …; several may stand together (主将技，阵法技，…).
_LABEL = re.compile(r"^(?:[\u4e00-\u9fff]{2}技，)+")
# What a label says of the rules, beside the types: it works only on the main (or deputy) hero card, or
# only in a formation or siege (the builtins that read them).
LABEL_NEEDS = {"主将技": ("its owner's main hero", "heroes[0]"),
               "副将技": ("its owner's deputy hero", "heroes[1]"),
               "阵法技": ("a formation or a siege", "formation|besieged|besiegers")}
# A duration the text gives an effect, and the scope the rules must keep it for.
DURATIONS = {"turn": re.compile(r"本回合|直到回合结束|此回合"), "phase": re.compile(r"本阶段|直到(此)?阶段结束")}


def _opening(sentence: str) -> str:
    return _LABEL.sub("", sentence.strip()).split("，")[0]


def _labels(sentence: str) -> list[str]:
    got = _LABEL.match(sentence.strip())
    return [x for x in got.group().split("，") if x] if got else []


# After a phase's name, what makes it a timing (准备阶段开始时, 摸牌阶段，…) rather than a limit (出牌阶段限一次)
# or a place (于出牌阶段内, 弃牌阶段外).
_PHASE_TIMING = ("", "开始时", "结束时", "开始前", "结束后", "时", "摸牌时")


def _names_phase(head: str, names: tuple) -> bool:
    for n in names:
        i = head.find(n)
        while i >= 0:
            before, after = head[:i], head[i + len(n):]
            if after in _PHASE_TIMING and not before.endswith(("于", "在")):
                return True
            i = head.find(n, i + 1)
    return False


def _normal(s: str) -> str:
    for rx, rep in _NORMAL:
        s = rx.sub(rep, s)
    return s


def _facets(decl) -> list:
    return [f for f in decl.facets if isinstance(f, (ast.Trigger, ast.Active, ast.ViewAs, ast.Modify))]


def _window_names(facts: Facts, decl) -> list[str]:
    out = []
    for f in decl.facets:
        if isinstance(f, ast.Trigger):
            for w in f.windows:
                wd = facts.m.windows.get(w.text)
                if wd is not None:
                    out.append(wd.name.text)
    return out


def _uses_phase(facts: Facts, decl, phase: str, names: tuple) -> bool:
    windows = _window_names(facts, decl)
    if any(n in w for w in windows for n in names):
        return True
    if phase == "出牌阶段":
        # active skills act in the play phase; status skills (modify) state what holds there; a view-as
        # skill's card is used there (奇策: 出牌阶段限一次，你可以将所有手牌当…使用)
        return any(isinstance(f, (ast.Active, ast.Modify, ast.ViewAs)) for f in decl.facets)
    return False


def _has_limit(facts: Facts, decl, scope: str, n: int) -> bool:
    """A `limit n per scope`, or a counter of the skill's own with that scope that a `when` reads (the way
    to share one use between facets)."""
    for f in decl.facets:
        lim = getattr(f, "limit", None)
        if lim is not None and lim.scope == scope and isinstance(lim.count, ast.IntLit) and lim.count.value == n:
            return True
    own = {f"mark:{c.id.text}" for c in getattr(decl, "counters", ()) if getattr(c, "scope", None) == scope}
    if any(own & facts.az.state_reads(f.when) for f in decl.facets if getattr(f, "when", None) is not None):
        return True
    # every facet's `when` asks that the skill was not used yet in that scope (奇策's nine view-as share one use)
    facets = _facets(decl)
    return n == 1 and bool(facets) and all(_unused_in(facts, f.when, decl, scope) for f in facets
                                           if not isinstance(f, ast.Modify))


def _unused_in(facts: Facts, when, decl, scope: str) -> bool:
    """A conjunct `count(used(self, S) where it.skill == <the skill>) == 0` (or history(S)) with S the scope."""
    want = ("const", repr(scope))
    for c in conjuncts(when) if when is not None else ():
        if not (isinstance(c, ast.Compare) and c.op == "==" and isinstance(c.right, ast.IntLit) and c.right.value == 0
                and isinstance(c.left, ast.Call) and is_name(c.left.func, "count") and c.left.args):
            continue
        e = c.left.args[0].value
        if not isinstance(e, ast.Filter) or not isinstance(e.source, ast.Call) or not e.source.args:
            continue
        scoped = any(facts.cond.const(a.value) == want for a in e.source.args)
        names = any(isinstance(x, ast.Compare) and x.op in ("==", "is") and isinstance(x.left, ast.Attr)
                    and x.left.name.text == "skill" and isinstance(x.right, ast.NameRef)
                    and x.right.text in (decl.name.text, decl.id.text) for x in conjuncts(e.pred))
        if scoped and names:
            return True
    return False


def _has_type(decl, t: str) -> bool:
    if isinstance(decl, ast.SkillDecl) and t in decl.types:
        return True
    if t == "locked":  # locked in effect: every trigger forced, nothing to activate or convert
        return all(f.forced for f in decl.facets if isinstance(f, ast.Trigger)) and \
            not any(isinstance(f, (ast.Active, ast.ViewAs)) for f in decl.facets)
    return False


def _locked_part(decl, text: str, word: str) -> bool:
    """屯田: 「……；锁定技，你与其他角色的距离-X」: a later sentence opening with 锁定技 types only that
    part, met by a `modify` or `filter`, which holds without asking in any case."""
    return word == "锁定技" and not text.startswith(word) and \
        any(isinstance(f, (ast.Modify, ast.CardFilter)) for f in decl.facets)


def check(facts: Facts) -> list:
    m = facts.m
    out = []
    decls = list(m.unique(m.skills)) + [c for c in m.unique(m.cards) if c.kind == "equipment" and c.facets]
    for d in decls:
        text = "".join(d.texts)
        if not text or not _facets(d):
            continue
        what = "skill" if isinstance(d, ast.SkillDecl) else "card"
        windows = _window_names(facts, d)
        missing: list[str] = []
        for sentence in _sentences(text):
            head = _normal(_opening(sentence))
            for t in EXACT:
                if t in head and t in m.windows and t not in windows and t not in missing:
                    missing.append(t)
            for phase, names in PHASES.items():
                if _names_phase(head, names) and not any(x in head for x in EXACT) \
                        and not _uses_phase(facts, d, phase, names) and phase not in missing:
                    missing.append(phase)
        at = _own(d, next((f.span for f in d.facets if isinstance(f, ast.Trigger)), None) or
                  next((f.span for f in _facets(d)), d.span))
        for t in missing:
            fired = "、".join(windows) if windows else "no window"
            out.append(make("SGS361", f"the text of {what} {d.name.text} names {t}, but its rules fire at {fired}",
                            at, "the text is what players read: a rule that fires at another timing than the "
                            "text says plays differently from the card on the table", NO_PRINCIPLE_TEXT,
                            notes=[Note(d.span, f"the text is that of {what} {d.name.text}")]))
        for phrase, (rx, scope, n) in LIMITS.items():
            said = rx.search(text)
            if said is not None and not _has_limit(facts, d, scope, n):
                phrase = said.group()
                out.append(make("SGS362", f"the text of {what} {d.name.text} says {phrase}, but no rule of it has "
                                f"`limit {n} per {scope}`", d.span,
                                "without the limit the skill can be used again and again", NO_PRINCIPLE_TEXT))
        for word, t in TYPES.items():
            if re.search(rf"(^|[；。]){word}", text) and not _has_type(d, t) and not _locked_part(d, text, word):
                out.append(make("SGS362", f"the text of {what} {d.name.text} says {word}, but the rules do not "
                                f"make it `{t}`", d.span, f"a {word} plays differently: "
                                + {"locked": "it fires by itself, without asking",
                                   "lord": "only the lord has it",
                                   "limited": "it works once per game",
                                   "awaken": "it wakes once and changes the hero",
                                   "formation": "阵法召唤 calls players to its array only when the skill is `阵法技 队列` or `阵法技 围攻`"}[t],
                                NO_PRINCIPLE_TEXT))
        out.extend(_label_meanings(facts, d, text, what))
        out.extend(_durations(facts, d, text, what))
        if isinstance(d, ast.SkillDecl):
            for word, t in TYPES.items():
                if t in d.types and word not in text:
                    out.append(make("SGS363", f"{d.name.text} is `{t}` in the rules, but its text does not say "
                                    f"{word}", d.span, "players read the text: a type they are not told about "
                                    "surprises them at the table", NO_PRINCIPLE_TEXT))
        out.extend(_others(d, text, what))
        out.extend(_quiet_limits(d, text, what))
    return out


def _label_meanings(facts: Facts, d, text: str, what: str) -> list:
    """SGS362: a label the text gives (主将技, 副将技, 阵法技) that no rule of the skill reads."""
    said = {x for s in _sentences(text) for x in _labels(s)}
    rules = " ".join(_source_of(facts, f) for f in _facets(d))
    out = []
    for word, (needs, pattern) in LABEL_NEEDS.items():
        if word in said and not any(x in rules for x in pattern.split("|")):
            out.append(make("SGS362", f"the text of {what} {d.name.text} says {word}, but no rule of it reads {needs}",
                            d.span, f"a {word} works only with {needs}: without the check the skill works always "
                            f"(write `{pattern.split('|')[0]}` into its `when`)", NO_PRINCIPLE_TEXT))
    for t, needs, pattern in (("queue", "a 队列", "formation"), ("siege", "a 围攻", "besieged|besiegers")):
        if t in getattr(d, "types", ()) and not any(x in rules for x in pattern.split("|")):
            out.append(make("SGS362", f"{d.name.text} is `阵法技 {'队列' if t == 'queue' else '围攻'}`, but no rule "
                            f"of it reads {needs}", d.span, f"阵法召唤 calls on players to form {needs} for it: read "
                            f"`{pattern.split('|')[0]}` in its rules, or name the array it does form", NO_PRINCIPLE_TEXT))
    return out


def _durations(facts: Facts, d, text: str, what: str) -> list:
    """SGS362: an effect the text gives a duration (本回合, 直到回合结束; 本阶段) that the rules keep for no such
    scope: no counter, limit, `until` or history of that scope."""
    out = []
    for scope, rx in DURATIONS.items():
        said = rx.search(text)
        if said is None or _scoped(facts, d, scope):
            continue
        out.append(make("SGS362", f"the text of {what} {d.name.text} says {said.group()}, but nothing in its rules "
                        f"lasts for the {scope} only", d.span, f"an effect the text ends with the {scope} must end "
                        f"then: keep it in a `counter … per {scope}`, or give it `until` that scope", NO_PRINCIPLE_TEXT))
    return out


def _scoped(facts: Facts, d, scope: str) -> bool:
    if any(getattr(c, "scope", None) == scope for c in getattr(d, "counters", ())):
        return True
    if any(getattr(getattr(f, "limit", None), "scope", None) == scope for f in d.facets):
        return True
    want = ("const", repr(scope))
    for n in walk(d):
        if isinstance(n, ast.NameRef) and facts.cond.const(n) == want:
            return True
        note = facts.m.analysis.refs.get(n) if isinstance(n, ast.Attr) else None
        if getattr(note, "kind", None) == "mark":  # a counter of that scope, its own or another skill's
            c = facts.m.counters.get(note.name)
            if c is not None and c.scope == scope:
                return True
    return False


def _source_of(facts: Facts, f) -> str:
    text = facts.m.sources.get(f.span.file) or ""
    lines = text.split("\n")[f.span.line - 1:f.span.end_line]
    return "\n".join(lines)


def _own(d, span):
    """Where a finding on a skill's rules stands: for a skill that takes another's (`rules of`), that line of its
    own, beside its text, as a copy of them would stand."""
    shared = getattr(d, "rules_of", ())
    return shared[0].span if shared else span


def _others(d, text: str, what: str) -> list:
    """SGS364: the text says 其他角色 (其他蜀势力角色 …) but the rules may take the owner: no rule keeps
    the owner out anywhere (no `it != self`, `others(self)` or `… != self`), or, when the text speaks of
    no one but others, a `target` or a choice of players that may take the owner. Status skills
    (`modify` only) name others to say whom they measure (马术: 你计算与其他角色的距离): not read."""
    said = _OTHERS.search(text)
    facets = _facets(d)
    if said is None or all(isinstance(f, ast.Modify) for f in facets):
        return []
    where = None
    chosen = [n for n in walk(d) if (isinstance(n, ast.TargetSpec) and n.kind == "some")
              or (isinstance(n, ast.Choose) and n.kind in ("player", "players"))]
    if _OTHER_TARGET.search(text) and chosen:
        # 其他角色 names whom the skill chooses (令一名其他角色…): a choice of the skill's must leave the owner out,
        # whatever its `when` says of who fires it
        if not any(_leaves_out(n) for n in chosen):
            first = chosen[0]  # a `target` clause is the facet's: point at the facet
            where = first.span if isinstance(first, ast.Choose) else \
                next((f.span for f in facets if any(x is first for x in walk(f))), facets[0].span)
    elif not any(_keeps_out(n) for n in walk(d)):
        where = facets[0].span
    elif not _ANYONE.search(_OTHERS.sub("", text)):
        for n in walk(d):
            if isinstance(n, ast.TargetSpec) and n.kind == "some" and not _excludes(n.where):
                where = n.span
                break
            if isinstance(n, ast.Choose) and n.kind in ("player", "players") and not (
                    _excludes(n.where) or (n.source is not None and _excludes_source(n.source))):
                where = n.span
                break
    if where is None:
        return []
    where = _own(d, where)
    return [make("SGS364", f"the text of {what} {d.name.text} says {said.group()}, but its rules may take its "
                 "owner", where, "a target, choice or loop over players that may take the owner plays otherwise "
                 "than the text: write `where it != self`, `others(self)` or a `when` on `… != self`",
                 NO_PRINCIPLE_TEXT, notes=[Note(d.span, f"the text is that of {what} {d.name.text}")])]


def _leaves_out(n) -> bool:
    """A target or a choice of players that cannot take the owner."""
    if isinstance(n, ast.TargetSpec):
        return _excludes(n.where)
    return _excludes(n.where) or (n.source is not None and _excludes_source(n.source))


# 其他角色 as whom the skill chooses: 令/对/选择/指定/交给 一名 (两名, 至多X名, 任意名) 其他角色
_OTHER_TARGET = re.compile(r"(令|对|选择|指定|交给|将[^，。；]{0,8}交给)(一|两|二|三|至多[^名]{1,2}|任意|X)名其他")


def _keeps_out(n) -> bool:
    if isinstance(n, ast.Compare) and n.op == "!=" and any(is_name(x, "self") for x in (n.left, n.right)):
        return True
    return isinstance(n, ast.Call) and is_name(n.func, "others") and bool(n.args) and is_name(n.args[0].value, "self")


def _excludes(pred) -> bool:
    """`where` keeps the owner out: a conjunct `it != self`."""
    return pred is not None and any(isinstance(c, ast.Compare) and c.op == "!=" and
                                    {_word(c.left), _word(c.right)} == {"it", "self"} for c in conjuncts(pred))


def _excludes_source(e) -> bool:
    if isinstance(e, ast.Filter):
        return _excludes(e.pred) or _excludes_source(e.source)
    return _keeps_out(e)


def _word(e):
    return e.text if isinstance(e, ast.NameRef) else None

# Players the text names without 其他 (checked once the 其他… phrases are taken out).
_ANYONE = re.compile(r"(一名|任意|所有|每名|至多\S名|两名|一名或多名)角色|(一名|任意)玩家")


def _quiet_limits(d, text: str, what: str) -> list:
    """SGS365: a `limit 1 per phase|turn` that the text does not state."""
    out = []
    for f in _facets(d):
        lim = getattr(f, "limit", None)
        if lim is None or not isinstance(lim.count, ast.IntLit) or lim.count.value != 1:
            continue
        phrases = [(p, rx) for p, (rx, scope, n) in LIMITS.items() if scope == lim.scope and n == 1]
        if phrases and not any(rx.search(text) for _, rx in phrases):
            phrases = [p for p, _ in phrases]
            out.append(make("SGS365", f"a rule of {what} {d.name.text} has `limit 1 per {lim.scope}`, but its text "
                            f"does not say {' or '.join(phrases)}", _own(d, lim.span), "players read the text: a limit they "
                            "are not told about surprises them at the table", NO_PRINCIPLE_TEXT))
    return out


_OTHERS = re.compile(r"其他[^，。；、：]{0,4}角色")
