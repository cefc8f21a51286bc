"""Who is a friend and who a foe, as a seat may guess it: from the mode's `win` clauses (identities that
win together are allies; the lord is public), the identities shown, and the table's public record of who
harmed or helped whom; in 国战, from kingdoms, one's own face-down heroes and the rules' `lone_kingdom`."""

from __future__ import annotations


def _memoized(fn, memo_of):
    """fn(g, *players) remembered in the dict memo_of(self, g) gives (none: not remembered). Players are keyed by
    seat: a decision has one view of each seat. The key is built for fn's number of players: these guesses are
    asked for thousands of times a game, and a key made from `*args` costs more than the guess it saves."""
    n = fn.__code__.co_argcount - 2
    if n == 0:
        def cached(self, g):
            memo = memo_of(self, g)
            if memo is None:
                return fn(self, g)
            v = memo.get(fn, memo)
            if v is memo:
                v = memo[fn] = fn(self, g)
            return v
    elif n == 1:
        def cached(self, g, a):
            memo = memo_of(self, g)
            if memo is None:
                return fn(self, g, a)
            key = (fn, a.seat)
            v = memo.get(key, memo)
            if v is memo:
                v = memo[key] = fn(self, g, a)
            return v
    else:
        assert n == 2, fn
        def cached(self, g, a, b):
            memo = memo_of(self, g)
            if memo is None:
                return fn(self, g, a, b)
            key = (fn, a.seat, b.seat)
            v = memo.get(key, memo)
            if v is memo:
                v = memo[key] = fn(self, g, a, b)
            return v
    cached.__doc__, cached.__name__ = fn.__doc__, fn.__name__
    return cached


def per_decision(fn):
    """Remember fn(g, *players) while one decision is made: the table does not change meanwhile, and
    the allegiance guesses are asked for again and again (every card scored asks about every target)."""
    return _memoized(fn, lambda self, g: self.memo)


_TABLE = object()  # the per-decision memo's entry for the table memo, once its token is checked


def _table_memo(self, g) -> dict | None:
    dm = self.memo
    if dm is None:
        return None
    memo = dm.get(_TABLE)
    if memo is None:
        token = self.table_token(g)
        if token != self.token:
            self.token, self.table_memo = token, {}
        memo = dm[_TABLE] = self.table_memo
    return memo


def per_table(fn):
    """Remember fn(g, *players) for as long as all it reads of the table stays as it was (table_token): a guess
    of who sides with whom changes when someone dies, is hurt, shows an identity or a kingdom, or when the
    record of deeds grows, not at every decision (a play phase asks a dozen times in a row, each card it weighs
    about each target). fn's value must not be a view: those are one decision's own."""
    return _memoized(fn, _table_memo)


class Allegiance:
    """Mixed into HeuristicAgent (which sets up `memo` and `unknown_lean`)."""

    token: tuple | None = None  # table_token of table_memo, which per_table's guesses are kept in
    table_memo: dict | None = None

    def table_token(self, g) -> tuple:
        """Everything stance() and what it calls read of the table, as this seat sees it."""
        me = g.me
        mine = self.my_kingdom(g, me) if g.mode is not None and not g.mode.table else None
        # (heroes: the face-down cards this seat has seen, 知己知彼's, count as well)
        return (g.deeds, me.seat, mine,
                *[(p.alive, p.hp, p.identity, p.identity_shown, p.kingdom, p.heroes) for p in g.players])

    def groups(self, g) -> dict[str, frozenset]:
        out: dict[str, frozenset] = {}
        for w in g.mode.wins if g.mode else ():
            team = frozenset(w.identities)
            for i in w.identities:
                out[i] = out.get(i, frozenset()) | team
        return out

    @per_decision  # (a player view: this decision's own)
    def lord(self, g):
        if g.mode is None or g.mode.lord is None:
            return None
        return next((p for p in g.players if p.identity == g.mode.lord and p.alive), None)

    @per_table
    def leaning(self, g, q) -> float:
        """> 0: q seems to side with the lord; < 0: against. From public harm/help only."""
        lord = self.lord(g)
        if lord is None:
            return 0.0
        if q is lord:
            return 10.0
        help_, harm = g.help, g.harm
        qs, ls = q.seat, lord.seat
        base = help_.get((qs, ls), 0.0) - harm.get((qs, ls), 0.0)
        for x in g.players:
            if x is q or x is lord or not x.alive:
                continue
            xs = x.seat
            bx = help_.get((xs, ls), 0.0) - harm.get((xs, ls), 0.0)
            if bx:
                # harming someone who is against the lord counts as being for the lord
                sign = 1.0 if bx < 0 else -1.0
                base += 0.5 * sign * (harm.get((qs, xs), 0.0) - help_.get((qs, xs), 0.0))
        return base

    def role(self, g, ident) -> str:
        """lordside / rebel / loner: the mode's identity hint, else guessed from the win clauses."""
        hint = g.rules.hints.get(ident)
        if hint is not None and hint[0] in ("lordside", "rebel", "loner"):
            return hint[0]
        lord = g.mode.lord if g.mode else None
        return "lordside" if lord is not None and lord in self.groups(g).get(ident, frozenset()) else "rebel"

    def rebels_left(self, g) -> int:
        """How many players who want the lord dead are still alive (table counts minus revealed deaths)."""
        n = len(g.players)
        row = dict(g.mode.table).get(n, ((),))[0] if g.mode else ()
        total = sum(1 for i in row if self.role(g, i) == "rebel")
        dead = sum(1 for p in g.players if not p.alive and p.identity_shown and self.role(g, p.identity) == "rebel")
        return total - dead

    @per_table
    def stance(self, g, me, q) -> float:
        """> 0 ally, < 0 enemy, 0 unknown."""
        if q is me:
            return 5.0
        if g.mode is None:
            return -1.0  # no identities: everyone for themselves
        if not g.mode.table:
            return self.kingdom_stance(g, me, q)
        mine = self.role(g, me.identity)
        lord = self.lord(g)
        if q.identity_shown and mine != "loner":
            theirs = self.role(g, q.identity)
            return 3.0 if theirs == mine else -3.0
        lean = self.leaning(g, q)
        if mine == "lordside":
            return lean
        if mine == "rebel":
            return -lean
        # the loner: side with the lord against the rebels, then against the lord's side, the lord last
        others = [p for p in g.players if p.alive and p is not me]
        if q is lord:
            return -1.0 if len(others) == 1 else 1.0
        if self.rebels_left(g) == 0:
            return -1.0
        # keep the balance: weaken whichever side is ahead in health
        ahead = 0.0
        for p in others:
            side = 1.0 if p is lord else (1.0 if self.leaning(g, p) > 0 else -1.0 if self.leaning(g, p) < 0 else 0.0)
            ahead += side * p.hp
        if ahead > 0:
            return -1.0 if lean > 0 else 0.0
        return -1.0 if lean < 0 else 0.0

    def my_kingdom(self, g, me):
        """The kingdom I have or will have (国战): from my own hero cards, which my seat sees face down, as the
        rules' `kingdom_on_reveal` says revealing the first of them would make it (野心家 when that kingdom would
        be more than half of the table); the hero's own kingdom when the rules bind no such quantity."""
        if me.kingdom is not None:
            return me.kingdom
        hs = [h for h in me.heroes if h is not None]
        if not hs:
            return None
        qd = g.rules.role("kingdom_on_reveal")
        return hs[0].kingdom if qd is None else g.q(qd.id, me, hs[0].kingdom)

    def kingdom_stance(self, g, me, q) -> float:
        """Modes without identities (国战): the same kingdom is a friend, another an enemy, a player of the
        `lone_kingdom` (野心家) everyone's; a player whose kingdom is not known yet leans by what it did to me
        and my friends."""
        mine, lone = self.my_kingdom(g, me), g.rules.lone_kingdom
        if lone is not None and any(h is not None and not up and h.kingdom == lone for h, up in zip(q.heroes, q.shown)):
            return -3.0  # a face-down 野心家 card this seat has seen: its owner is a 野心家 once it shows it
        if q.kingdom is not None:
            if mine is None or mine == lone or q.kingdom == lone:
                return -3.0
            return 3.0 if q.kingdom == mine else -3.0
        lean = g.help.get((q.seat, me.seat), 0.0) - g.harm.get((q.seat, me.seat), 0.0)
        for x in g.players:
            if x is not me and x is not q and x.alive and x.kingdom is not None and mine not in (None, lone):
                side = 1.0 if x.kingdom == mine else -1.0
                lean += 0.5 * side * (g.help.get((q.seat, x.seat), 0.0) - g.harm.get((q.seat, x.seat), 0.0))
        # most unknown players are of another kingdom: lean slightly against them
        return lean + self.unknown_lean

    def enemies(self, g, me, players):
        return [q for q in players if q is not me and self.stance(g, me, q) < 0]

    def allies(self, g, me, players):
        return [q for q in players if self.stance(g, me, q) > 0]
