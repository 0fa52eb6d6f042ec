"""Would a learned judgement of the lines after a block carry to an unseen set better than the rows?

The parser decides with rows of words per language (``context.shown_after``) whether the lines right
after a call block ask the reader's leave for it ("Shall I save it?": only proposed, must not run) or
not ("Anything else?", "Saved. Is the date right?": performed, must run). Each round gets its
development set exact, yet on the next set written blind some permission requests still run. This
measures whether a small model of those lines, trained only on the sets written before, would have
caught them, and at what cost in performed calls.

Items (from the labelled replies of ``parser_accuracy.load_cases``):

- **leave**: shown replies of class ``permission-after``;
- **not leave**: performed replies (every block in them must run).

The other classes judged after a block (disclaimer-after, retraction, conditional-second, draft) are
left out: their lines say something else than a request for leave, and mixing them in would blur
what is measured. An item's text is what the parser itself holds after the reply's last held block
(the prose from that block's end, as ``Settle.close`` sees it), its first three non-blank lines, with
whether a blank line stands before them and whether more follows. Replies whose blocks the parser
set aside before the end (by structure, nothing held) and those with nothing after the last block
give no item.

The models, in plain Python: a multinomial naive Bayes and a logistic regression (balanced classes,
L2, AdaGrad), both on character 2- to 4-grams of the lowercased lines (digits folded), words by
line position, each line's last character and the blank-line / more-follows marks; with
``--above`` also the character n-grams of the non-blank line above the block (the lead that may
report it made, "Saved:", or offer it, "Here's what I'd store:"), kept apart from those after it.

Temporal evaluation, like a blind set: for N in 12..20, train on the corpus and heldout..heldout(N-1),
test on heldoutN. For the same items, what the rules do (the whole reply through ``parse_tool_calls``;
a leave item is caught when no call outside its labels ran, a not-leave item is harmed when one of its
labelled calls did not run as labelled):

- **current**: the rules of this checkout, developed against the sets before it: an upper bound, not
  a blind figure, for every set that has had its round (a set that has not had one yet is blind
  here too);
- **blind**: the package as it stood in the commit that added heldoutN (``git archive``; needs the
  history), so before that set's round. The twentieth set was added before the nineteenth round
  too, so its blind figure is two rounds behind.

Then the combination the product could use: the rules first, and the model only on items the rules
let run, vetoing the last block when it says "leave" above a threshold chosen on the training items
alone (5-fold out-of-fold scores: at most 1 in 1000 of the training's not-leave items at or above it,
and never below 0.5). Per N: the leaks of the rules it catches, and the performed items it would harm
(each loses at least its last block's call).

    python3 dev.py bench after_block_model [--above] [--no-blind] [--verbose]
                                                (--verbose lists the test items a model gets wrong at
                                                0.5 and the leave items the blind rules let run)
"""

from __future__ import annotations

import argparse
import json
import math
import random
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from parser_accuracy import ROOT, Case, load_cases, load_tools, parse_once, score

from letta_tool_emulation.core.scan import settle

DATA = ROOT / "tests" / "data"
SETS = ["accuracy", "heldout"] + [f"heldout{i}" for i in range(2, 21)]
TESTED = range(12, 21)
LINES = 3  # non-blank lines after the block that an item holds
LINE_CHARS = 240
FOLDS = 5
FALSE_RATE = 0.001  # the share of training's not-leave items allowed at or above the veto threshold


@dataclass
class Item:
    case: Case
    set: str
    leave: bool
    text: str  # the lines after the last held block, "\n"-joined
    gap: bool  # a blank line stands between the block and them
    more: bool  # the reply goes on past them
    above: str  # the non-blank line above the block ("" if none), read only with --above


# -- items ---------------------------------------------------------------------------------------

# (prose, where the last held block's prose begins, the non-blank line above that block) per close
_seen: list[tuple[str, int, str]] = []
_close = settle.Settle.close


def _watching_close(self: settle.Settle) -> None:
    prose = self.settled_prose()  # (close asks it again: the line is settled by then, the prose the same)
    if self.groups:
        _seen.append((prose, self.groups[-1].after_at, settle._label_above(self.groups[-1])))
    _close(self)


def after_last_block(text: str, tools: list[dict[str, Any]], finish: str | None) -> tuple[str, bool, bool, str] | None:
    """(lines, gap, more, the line above the block) after the reply's last held block, as the parser reads the reply; None
    when it held none or nothing follows it."""
    _seen.clear()
    settle.Settle.close = _watching_close  # type: ignore[method-assign]
    try:
        parse_once(text, tools, finish)
    finally:
        settle.Settle.close = _close  # type: ignore[method-assign]
    if not _seen:
        return None
    prose, at, above = _seen[-1]
    after = prose[at:]
    lines = [line.strip()[:LINE_CHARS] for line in after.splitlines() if line.strip()]
    if not lines:
        return None
    lead = after[: len(after) - len(after.lstrip())]
    return "\n".join(lines[:LINES]), lead.count("\n") >= 2, len(lines) > LINES, above[:LINE_CHARS]


def build_items(tools: list[dict[str, Any]]) -> tuple[list[Item], Counter[str]]:
    items: list[Item] = []
    skipped: Counter[str] = Counter()
    for name in SETS:
        for case in load_cases(DATA / name):
            if case.side == "performed" and case.shown == 0:
                leave = False
            elif case.cls == "permission-after":
                leave = True
            else:
                continue
            found = after_last_block(case.text, tools, case.finish)
            if found is None:
                skipped["leave" if leave else "not leave"] += 1
                continue
            items.append(Item(case, name, leave, *found))
    return items, skipped


# -- features and models -------------------------------------------------------------------------


_PUNCT = ".,;:!?¿¡()[]«»“”\"'"


def features(item: Item, above: bool = False) -> dict[str, float]:
    found: set[str] = set()
    if item.gap:
        found.add("#gap")
    if item.more:
        found.add("#more")
    lines = item.text.lower().split("\n")
    found.add(f"#lines{len(lines)}")
    for n, line in enumerate(lines):
        line = "".join("0" if ch.isdigit() else ch for ch in line)
        found.add(f"#end{n}:{line[-1:]}")
        padded = f"\x02{line}\x03"
        for size in (2, 3, 4):
            for i in range(len(padded) - size + 1):
                found.add(padded[i : i + size])
        for word in line.split():
            found.add(f"w{min(n, 1)}:{word.strip(_PUNCT)}")
    if above:
        # the lead above the block, its n-grams apart from the lines after it
        line = "".join("0" if ch.isdigit() else ch for ch in item.above.lower())
        padded = f"\x02{line}\x03"
        for size in (2, 3, 4):
            for i in range(len(padded) - size + 1):
                found.add("a:" + padded[i : i + size])
    norm = 1.0 / math.sqrt(len(found))
    return dict.fromkeys(found, norm)


class NaiveBayes:
    """Multinomial naive Bayes on the features' presence, with add-half smoothing."""

    def __init__(self, alpha: float = 0.5) -> None:
        self.alpha = alpha
        self.logp: list[dict[str, float]] = [{}, {}]
        self.unseen = [0.0, 0.0]
        self.prior = [0.0, 0.0]

    def fit(self, xs: Sequence[dict[str, float]], ys: Sequence[bool]) -> NaiveBayes:
        counts: list[Counter[str]] = [Counter(), Counter()]
        for x, y in zip(xs, ys, strict=True):
            counts[int(y)].update(x.keys())
        vocab = set(counts[0]) | set(counts[1])
        for c in (0, 1):
            total = sum(counts[c].values()) + self.alpha * len(vocab)
            self.logp[c] = {f: math.log((counts[c][f] + self.alpha) / total) for f in vocab}
            self.unseen[c] = math.log(self.alpha / total)
        # balanced priors: the sets' mix of classes is the writers' choice, not the world's
        self.prior = [0.0, 0.0]
        return self

    def prob(self, x: dict[str, float]) -> float:
        s = [self.prior[c] + sum(self.logp[c].get(f, self.unseen[c]) for f in x if f in self.logp[0]) for c in (0, 1)]
        d = s[1] - s[0]
        return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, d))))


class Logistic:
    """Logistic regression, classes weighted to balance, L2, trained by AdaGrad."""

    def __init__(self, epochs: int = 12, rate: float = 0.5, l2: float = 1e-5, seed: int = 1) -> None:
        self.epochs, self.rate, self.l2, self.seed = epochs, rate, l2, seed
        self.w: dict[str, float] = {}
        self.bias = 0.0

    def fit(self, xs: Sequence[dict[str, float]], ys: Sequence[bool]) -> Logistic:
        pos = sum(ys)
        weight = {True: len(ys) / (2 * max(pos, 1)), False: len(ys) / (2 * max(len(ys) - pos, 1))}
        order = list(range(len(xs)))
        rng = random.Random(self.seed)
        w: dict[str, float] = {}
        g2: dict[str, float] = {}
        b, gb = 0.0, 1e-8
        for _ in range(self.epochs):
            rng.shuffle(order)
            for i in order:
                x, y = xs[i], ys[i]
                z = b + sum(w.get(f, 0.0) * v for f, v in x.items())
                p = 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, z))))
                err = (p - (1.0 if y else 0.0)) * weight[y]
                for f, v in x.items():
                    wf = w.get(f, 0.0)
                    g = err * v + self.l2 * wf
                    acc = g2.get(f, 1e-8) + g * g
                    g2[f] = acc
                    w[f] = wf - self.rate * g / math.sqrt(acc)
                gb += err * err
                b -= self.rate * err / math.sqrt(gb)
        self.w, self.bias = w, b
        return self

    def prob(self, x: dict[str, float]) -> float:
        z = self.bias + sum(self.w.get(f, 0.0) * v for f, v in x.items())
        return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, z))))


MODELS = {"naive Bayes": NaiveBayes, "logistic": Logistic}


def veto_threshold(
    make: type[NaiveBayes] | type[Logistic], train: list[Item], xs: dict[int, dict[str, float]]
) -> float:
    """The score above which the model's "leave" is trusted, from out-of-fold scores of ``train``."""
    rng = random.Random(7)
    folds = [i % FOLDS for i in range(len(train))]
    rng.shuffle(folds)
    negatives: list[float] = []
    for k in range(FOLDS):
        fit = [it for it, f in zip(train, folds, strict=True) if f != k]
        model = make().fit([xs[id(it)] for it in fit], [it.leave for it in fit])
        negatives += [model.prob(xs[id(it)]) for it, f in zip(train, folds, strict=True) if f == k and not it.leave]
    negatives.sort(reverse=True)
    allowed = int(FALSE_RATE * len(negatives))
    return max(0.5, negatives[allowed] + 1e-9 if allowed < len(negatives) else 0.5)


# -- the rules -----------------------------------------------------------------------------------


@dataclass
class RuleVerdict:
    leaked: bool  # a call outside the labels ran
    harmed: bool  # a labelled call did not run as labelled


def judge(case: Case, got: list[dict[str, Any]] | None) -> RuleVerdict:
    if got is None:  # the parser raised
        return RuleVerdict(False, True)
    _, missed, false_pos, wrong = score(case.calls, got)
    return RuleVerdict(false_pos + wrong > 0, missed + wrong > 0)


_WORKER = """
import json, sys
from letta_tool_emulation.core import parse_tool_calls
tools = json.loads(sys.argv[1])
out = []
for text, finish in json.load(sys.stdin):
    try:
        r = parse_tool_calls(text, tools, finish_reason=finish)
        out.append([{"name": c.name, "arguments": c.arguments} for c in r.tool_calls])
    except Exception:
        out.append(None)
json.dump(out, sys.stdout)
"""


def blind_rules(n: int, cases: list[Case], tools: list[dict[str, Any]]) -> list[list[dict[str, Any]] | None] | None:
    """The calls the package as it stood when heldout``n`` was added runs for each case (None when
    the history is not at hand)."""
    try:
        commit = subprocess.run(
            ["git", "log", "--diff-filter=A", "--format=%H", "--", f"tests/data/heldout{n}/"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split()[-1]
        with tempfile.TemporaryDirectory() as tmp:
            archive = subprocess.run(
                ["git", "archive", commit, "letta_tool_emulation"], cwd=ROOT, capture_output=True, check=True
            ).stdout
            subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
            done = subprocess.run(
                [sys.executable, "-c", _WORKER, json.dumps(tools)],
                cwd=tmp,
                input=json.dumps([[c.text, c.finish] for c in cases]),
                capture_output=True,
                text=True,
                check=True,
                env={"PYTHONPATH": tmp, "PATH": "/usr/bin:/bin"},
            ).stdout
    except (subprocess.CalledProcessError, IndexError, OSError):
        return None
    found: list[list[dict[str, Any]] | None] = json.loads(done)
    return found


def veto(test: list[Item], rules: dict[int, RuleVerdict], p: dict[int, float], t: float) -> tuple[int, int, int]:
    """(leaks the veto catches, the rules' leaks, performed items it harms) among ``test``: the
    model is asked only where the rules let the block run."""
    leaks = [it for it in test if it.leave and rules[id(it)].leaked]
    plus = sum(p[id(it)] >= t for it in leaks)
    minus = sum(p[id(it)] >= t for it in test if not it.leave and not rules[id(it)].harmed)
    return plus, len(leaks), minus


# -- the report ----------------------------------------------------------------------------------


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:5.1f} %" if whole else "   -  "


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--no-blind", action="store_true", help="skip the rules as they stood before each set")
    ap.add_argument("--above", action="store_true", help="the models also read the line above the block")
    ap.add_argument("--verbose", action="store_true", help="list the items the models and the rules get wrong")
    args = ap.parse_args(argv)
    tools = load_tools()
    items, skipped = build_items(tools)
    xs = {id(it): features(it, args.above) for it in items}
    per_set = Counter((it.set, it.leave) for it in items)
    print(
        f"items: {sum(it.leave for it in items)} leave, {sum(not it.leave for it in items)} not leave; "
        f"skipped (nothing held, or nothing after): {skipped['leave']} leave, {skipped['not leave']} not leave"
    )
    current = {id(it): judge(it.case, parse_once(it.case.text, tools, it.case.finish)) for it in items}

    header = (
        f"{'set':>10} {'leave':>5} {'not':>4} | {'model':<11} {'caught':>8} {'false':>8} {'#':>3} | "
        f"{'current rules':>15} {'#harm':>5} | {'blind rules':>12} {'#harm':>5} | "
        f"{'veto t':>6} {'+cur':>5} {'-cur':>5} | {'+blind':>6} {'-blind':>6}"
    )
    print()
    print("caught: leave items called leave; false: not-leave items called leave (share, count);")
    print("rules: leave items none of whose unlabelled calls ran, and not-leave items that lost a call;")
    print("veto: the model only where the rules let the last block run, above the threshold t:")
    print("  +: the rules' leaks it catches (of the leaks), -: performed items it harms")
    print(header)
    print("-" * len(header))
    totals: dict[str, Counter[str]] = {m: Counter() for m in MODELS}
    # (model -> scores of the blind rules' leaks, and of the not-leave items they ran) for the sweep
    swept: dict[str, tuple[list[float], list[float]]] = {m: ([], []) for m in MODELS}
    for n in TESTED:
        name = f"heldout{n}"
        before = SETS[: SETS.index(name)]
        train = [it for it in items if it.set in before]
        test = [it for it in items if it.set == name]
        leave = [it for it in test if it.leave]
        notleave = [it for it in test if not it.leave]
        blind: dict[int, RuleVerdict] | None = None
        if not args.no_blind:
            got = blind_rules(n, [it.case for it in test], tools)
            if got is not None:
                blind = {id(it): judge(it.case, g) for it, g in zip(test, got, strict=True)}
        cur_caught = sum(not current[id(it)].leaked for it in leave)
        cur_harm = sum(current[id(it)].harmed for it in notleave)
        for m, make in MODELS.items():
            model = make().fit([xs[id(it)] for it in train], [it.leave for it in train])
            p = {id(it): model.prob(xs[id(it)]) for it in test}
            caught = sum(p[id(it)] >= 0.5 for it in leave)
            false = sum(p[id(it)] >= 0.5 for it in notleave)
            t = veto_threshold(make, train, xs)
            cp, cl, cm = veto(test, current, p, t)
            row = (
                f"{name:>10} {len(leave):>5} {len(notleave):>4} | {m:<11} {_pct(caught, len(leave)):>8} "
                f"{_pct(false, len(notleave)):>8} {false:>3} | {_pct(cur_caught, len(leave)):>15} {cur_harm:>5} | "
            )
            if blind is not None:
                b_caught = sum(not blind[id(it)].leaked for it in leave)
                b_harm = sum(blind[id(it)].harmed for it in notleave)
                bp, bl, bm = veto(test, blind, p, t)
                row += f"{_pct(b_caught, len(leave)):>12} {b_harm:>5} | {t:6.3f} {f'{cp}/{cl}':>5} {cm:>5} | "
                row += f"{f'{bp}/{bl}':>6} {bm:>6}"
                totals[m].update(
                    blind_caught=b_caught, blind_leaks=bl, blind_plus=bp, blind_minus=bm, blind_harm=b_harm
                )
                swept[m][0].extend(p[id(it)] for it in leave if blind[id(it)].leaked)
                swept[m][1].extend(p[id(it)] for it in notleave if not blind[id(it)].harmed)
            else:
                row += f"{'-':>12} {'-':>5} | {t:6.3f} {f'{cp}/{cl}':>5} {cm:>5} | {'-':>6} {'-':>6}"
            print(row)
            totals[m].update(
                leave=len(leave),
                notleave=len(notleave),
                caught=caught,
                false=false,
                cur_caught=cur_caught,
                cur_harm=cur_harm,
                cur_leaks=cl,
                cur_plus=cp,
                cur_minus=cm,
            )
            if args.verbose:
                for it in test:
                    wrong = (p[id(it)] >= 0.5) != it.leave
                    if wrong or (blind is not None and it.leave and blind[id(it)].leaked):
                        mark = "L" if it.leave else "P"
                        said = "model wrong" if wrong else "model right"
                        leaked = " blind-leaked" if blind is not None and blind[id(it)].leaked else ""
                        print(
                            f"      {mark} {p[id(it)]:.2f} {said}{leaked} {it.case.id} {it.case.lang}: "
                            f"{it.text[:110]!r}"
                        )
    print("-" * len(header))
    for m, tot in totals.items():
        line = (
            f"{'12-20':>10} {tot['leave']:>5} {tot['notleave']:>4} | {m:<11} {_pct(tot['caught'], tot['leave']):>8} "
            f"{_pct(tot['false'], tot['notleave']):>8} {tot['false']:>3} | {_pct(tot['cur_caught'], tot['leave']):>15} "
            f"{tot['cur_harm']:>5} | "
        )
        if "blind_leaks" in tot:
            line += (
                f"{_pct(tot['blind_caught'], tot['leave']):>12} {tot['blind_harm']:>5} | {'':>6} "
                f"{str(tot['cur_plus']) + '/' + str(tot['cur_leaks']):>5} {tot['cur_minus']:>5} | "
                f"{str(tot['blind_plus']) + '/' + str(tot['blind_leaks']):>6} {tot['blind_minus']:>6}"
            )
        print(line)
    if any(leaks for leaks, _ in swept.values()):
        print()
        print("The veto over the blind rules at fixed thresholds, 12-20 together (chosen after the fact, so an")
        print("outline of the trade, not a blind figure): leaks caught / leaks, performed items harmed / items ran")
        for m, (leaks, ran) in swept.items():
            cells = [
                f"t={t}: {sum(x >= t for x in leaks)}/{len(leaks)}, {sum(x >= t for x in ran)}/{len(ran)}"
                for t in (0.5, 0.8, 0.9, 0.95, 0.99)
            ]
            print(f"  {m:<11} " + "; ".join(cells))
    print()
    print("Items per set (leave / not leave):", ", ".join(f"{s} {per_set[s, True]}/{per_set[s, False]}" for s in SETS))
    print(
        "Rules' blind figures from their rounds: heldout19 blind, permission-after 12 of ~45 ran; "
        "heldout20 blind after the nineteenth round, 9 of 47."
    )


if __name__ == "__main__":
    main()
