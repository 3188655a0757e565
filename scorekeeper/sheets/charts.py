"""Charts drawn on the server as SVG text: the standard library (and Babel, to speak the locale).

They are plain ``<svg>`` elements, so a page shows them without JavaScript and
WeasyPrint prints them in a PDF. Every piece of text is escaped, and said in the
current language (``i18n``: the standard library and Babel, no Flask). Lines differ in
colour and in dash pattern, so they stay apart in black and white and for
colour-blind readers; text and grid use ``currentColor`` to follow the page.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from decimal import Decimal
from html import escape

from ..i18n import gettext, isolated, money, ngettext, number

#: Okabe-Ito colours (distinct for colour-blind readers), darkened a little to read on white.
COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#7A6A00")
DASHES = ("", "7 3", "2 3", "9 3 2 3", "4 4", "12 4", "1 2")

WIDTH, HEIGHT = 640, 300
LEFT, RIGHT, TOP, BOTTOM = 44, 130, 14, 36


def _text(value: object) -> str:
    return escape(str(value), quote=True)


def _num(value: float) -> str:
    """A coordinate to a tenth, with no trailing zeros (a chart writes hundreds)."""
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _cents(value: float) -> str:
    """An axis label in money: two places, as the locale writes them."""
    return money(Decimal(str(value)))


def nice_step(span: float, most: int) -> float:
    """Return a round tick step (1, 2, 2.5 or 5 times a power of ten): at most ``most`` ticks."""
    if span <= 0:
        return 1.0
    raw = span / most
    magnitude = 10.0 ** math.floor(math.log10(raw))
    for factor in (1, 2, 2.5, 5, 10):
        if factor * magnitude >= raw:
            return factor * magnitude
    return 10 * magnitude  # pragma: no cover - the loop always returns


def _ticks(lo: float, hi: float, most: int, whole: bool) -> list[float]:
    step = nice_step(hi - lo, most)
    if whole:
        step = max(1, round(step))
    first = -(-lo // step) * step
    ticks = []
    value = first
    while value <= hi + 1e-9:
        ticks.append(round(value, 6) or 0.0)  # never "-0"
        value += step
    return ticks


class _Frame:
    """Map data values to the plot area."""

    def __init__(self, x_max: float, y_lo: float, y_hi: float) -> None:
        self.x_max = max(x_max, 1)
        self.y_lo, self.y_hi = y_lo, y_hi if y_hi > y_lo else y_lo + 1
        self.plot_w = WIDTH - LEFT - RIGHT
        self.plot_h = HEIGHT - TOP - BOTTOM

    def x(self, value: float) -> float:
        return LEFT + self.plot_w * value / self.x_max

    def y(self, value: float) -> float:
        return TOP + self.plot_h * (self.y_hi - value) / (self.y_hi - self.y_lo)


def _open(chart_id: str, title: str, desc: str, font_family: str = "sans-serif") -> list[str]:
    return [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'width="100%" role="img" font-family="{_text(font_family)}" font-size="12" '
        f'aria-labelledby="{_text(chart_id)}-title {_text(chart_id)}-desc">',
        f'<title id="{_text(chart_id)}-title">{_text(title)}</title>',
        f'<desc id="{_text(chart_id)}-desc">{_text(desc)}</desc>',
    ]


def _y_axis(
    frame: _Frame,
    ticks: Sequence[float],
    label: Callable[[float], str] = number,
    *,
    compact: bool = False,
) -> list[str]:
    out = []
    if compact:  # the grid as two paths (the zero line darker), the labels alone
        right = _num(LEFT + frame.plot_w)
        for zero in (False, True):
            grid = "".join(f"M{LEFT} {_num(frame.y(t))}H{right}" for t in ticks if (t == 0) is zero)
            if grid:
                out.append(
                    f'<path d="{grid}" stroke="currentColor" '
                    f'stroke-opacity="{0.55 if zero else 0.15}"/>'
                )
    for tick in ticks:
        y = frame.y(tick)
        if not compact:
            out.append(
                f'<line x1="{LEFT}" x2="{_num(LEFT + frame.plot_w)}" y1="{_num(y)}" y2="{_num(y)}" '
                f'stroke="currentColor" stroke-opacity="{0.55 if tick == 0 else 0.15}"/>'
            )
        out.append(
            f'<text x="{LEFT - 6}" y="{_num(y + 4)}" text-anchor="end" fill="currentColor">'
            f"{_text(label(tick))}</text>"
        )
    return out


def _spread(ys: list[float], gap: float) -> list[float]:
    """Move end labels apart so none overlaps the next (keeping their order)."""
    order = sorted(range(len(ys)), key=lambda i: ys[i])
    placed = list(ys)
    for before, after in itertools.pairwise(order):
        if placed[after] - placed[before] < gap:
            placed[after] = placed[before] + gap
    return placed


def progression_chart(
    sides: Sequence[str],
    scores: Sequence[Sequence[int]],
    target: int | None,
    *,
    winner: str | None = None,
    winning_hand: int | None = None,
    chart_id: str = "progress",
    compact: bool = False,
    font_family: str = "sans-serif",
) -> str:
    """Draw a game's score after each hand: a line per side, the target, the winning hand.

    ``scores[i][j]`` is side ``j``'s score after hand ``i + 1``; every line starts at 0.
    A game without a target (one that ends after its hands, RULES.md 11.4) has no target
    line.
    ``compact`` draws the same with fewer elements, for print (WeasyPrint spends a
    millisecond or two on each, most on text): half the tick labels, the grid as one
    path, no tooltips.
    """
    series = [[0, *(row[j] for row in scores)] for j in range(len(sides))]
    values = [v for line in series for v in line]
    lo = min([0, *values])
    hi = max([0 if target is None else target, *values])
    pad = max(1, (hi - lo) // 12)
    frame = _Frame(len(scores), lo - (pad if lo < 0 else 0), hi + pad)
    finals = ", ".join(
        f"{isolated(side)} {number(line[-1])}" for side, line in zip(sides, series, strict=True)
    )
    if target is None:
        desc = ngettext(
            "Scores over %(num)s hand: %(finals)s.",
            "Scores over %(num)s hands: %(finals)s.",
            len(scores),
            finals=finals,
        )
    else:
        desc = ngettext(
            "Scores over %(num)s hand, first to %(target)s: %(finals)s.",
            "Scores over %(num)s hands, first to %(target)s: %(finals)s.",
            len(scores),
            target=number(target),
            finals=finals,
        )
    if winner is not None and winning_hand is not None:
        desc += " " + gettext(
            "%(winner)s won at hand %(hand)s.", winner=isolated(winner), hand=winning_hand
        )
    out = _open(chart_id, gettext("Score progression"), desc, font_family)
    if lo < 0:
        top = frame.y(0)
        out.append(
            f'<rect x="{LEFT}" y="{_num(top)}" width="{_num(frame.plot_w)}" '
            f'height="{_num(TOP + frame.plot_h - top)}" fill="#D55E00" fill-opacity="0.08"/>'
        )
        hole = _text(gettext("in the hole"))
        out.append(
            f'<text x="{LEFT + 4}" y="{_num(TOP + frame.plot_h - 4)}" fill="currentColor" '
            f'fill-opacity="0.7" font-size="11">{hole}</text>'
        )
    out += _y_axis(
        frame, _ticks(frame.y_lo, frame.y_hi, 4 if compact else 8, whole=True), compact=compact
    )
    for tick in _ticks(0, len(scores), 5 if compact else 12, whole=True):
        x = frame.x(tick)
        out.append(
            f'<text x="{_num(x)}" y="{HEIGHT - BOTTOM + 16}" text-anchor="middle" '
            f'fill="currentColor">{_text(number(tick))}</text>'
        )
    axis = _text(gettext("hand"))
    out.append(
        f'<text x="{_num(LEFT + frame.plot_w / 2)}" y="{HEIGHT - 4}" text-anchor="middle" '
        f'fill="currentColor" fill-opacity="0.8">{axis}</text>'
    )
    if target is not None:
        ty = frame.y(target)
        out.append(
            f'<line class="target" x1="{LEFT}" x2="{_num(LEFT + frame.plot_w)}" y1="{_num(ty)}" '
            f'y2="{_num(ty)}" stroke="currentColor" stroke-width="1.5" stroke-dasharray="5 4"/>'
        )
        target_words = _text(gettext("target %(target)s", target=number(target)))
        out.append(
            f'<text x="{LEFT + 4}" y="{_num(ty - 4)}" fill="currentColor">{target_words}</text>'
        )
    if winning_hand is not None:
        wx = frame.x(winning_hand)
        out.append(
            f'<line class="winning-hand" x1="{_num(wx)}" x2="{_num(wx)}" y1="{TOP}" '
            f'y2="{_num(TOP + frame.plot_h)}" stroke="currentColor" stroke-opacity="0.6" '
            f'stroke-dasharray="2 3"/>'
        )
    # Every line has a point at each hand, and scores repeat: each place is written once.
    xs = [_num(frame.x(i)) for i in range(len(scores) + 1)]
    ys = {v: _num(frame.y(v)) for v in set(values)}
    for j, (side, line) in enumerate(zip(sides, series, strict=True)):
        colour, dash = COLOURS[j % len(COLOURS)], DASHES[j % len(DASHES)]
        points = " ".join(f"{x},{ys[v]}" for x, v in zip(xs, line, strict=True))
        dashing = f' stroke-dasharray="{dash}"' if dash else ""
        out.append(
            f'<polyline class="side" data-side="{_text(side)}" points="{points}" fill="none" '
            f'stroke="{colour}" stroke-width="2.5" stroke-linejoin="round"{dashing}>'
            + ("</polyline>" if compact else f"<title>{_text(isolated(side))}</title></polyline>")
        )
    label_ys = _spread([frame.y(line[-1]) + 4 for line in series], 14)
    for j, (side, line) in enumerate(zip(sides, series, strict=True)):
        colour = COLOURS[j % len(COLOURS)]
        end_x = frame.x(len(line) - 1)
        out.append(
            f'<circle cx="{_num(end_x)}" cy="{_num(frame.y(line[-1]))}" r="3.5" fill="{colour}"/>'
        )
        name = isolated(side if len(side) <= 14 else side[:13] + "…")
        out.append(
            f'<text x="{_num(LEFT + frame.plot_w + 8)}" y="{_num(label_ys[j])}" fill="{colour}" '
            f'font-weight="bold">{_text(name)} {_text(number(line[-1]))}</text>'
        )
    if winner is not None and winning_hand is not None and winner in sides:
        j = list(sides).index(winner)
        wx, wy = frame.x(winning_hand), frame.y(series[j][winning_hand])
        won_words = _text(gettext("won, hand %(hand)s", hand=winning_hand))
        out.append(
            f'<g class="winner-mark"><circle cx="{_num(wx)}" cy="{_num(wy)}" r="7" fill="none" '
            f'stroke="currentColor" stroke-width="2"/>'
            f'<text x="{_num(wx - 9)}" y="{_num(max(wy - 10, TOP + 10))}" text-anchor="end" '
            f'fill="currentColor" font-weight="bold">{won_words}</text></g>'
        )
    out.append("</svg>")
    return "\n".join(out)


def results_chart(
    labels: Sequence[str],
    changes: Sequence[int | Decimal],
    *,
    unit: str = "units",
    chart_id: str = "results",
    most_points: int = 400,
) -> str:
    """Draw a running total over games (oldest first): one point a game, the zero line marked.

    ``labels`` name the games (dates; the first and last are drawn at the ends);
    ``changes`` are what each game won or lost.
    Long histories are thinned to ``most_points`` points; the last one is always kept.
    """
    totals: list[Decimal] = [Decimal(0)]  # before the first game
    running = Decimal(0)
    for change in changes:
        running += Decimal(change)
        totals.append(running)
    keep = list(range(len(totals)))
    if len(keep) > most_points:
        stride = len(keep) / most_points
        keep = sorted({int(i * stride) for i in range(most_points)} | {len(totals) - 1})
    points = [(i, totals[i]) for i in keep]
    in_money = unit != "units"
    values = [float(v) for _, v in points]
    lo, hi = min([0.0, *values]), max([0.0, *values])
    pad = max((hi - lo) / 12, 0.01 if in_money else 1)
    frame = _Frame(max(len(totals) - 1, 1), lo - pad, hi + pad)
    final = totals[-1]
    shown = money(final) if in_money else number(final)
    games = len(totals) - 1
    if in_money:
        desc = ngettext(
            "Running total of money over %(num)s finished game: %(total)s at the end.",
            "Running total of money over %(num)s finished games: %(total)s at the end.",
            games,
            total=shown,
        )
        title = gettext("Results over time (money)")
    else:
        desc = ngettext(
            "Running total of units over %(num)s finished game: %(total)s at the end.",
            "Running total of units over %(num)s finished games: %(total)s at the end.",
            games,
            total=shown,
        )
        title = gettext("Results over time (units)")
    out = _open(chart_id, title, desc)
    fmt: Callable[[float], str] = _cents if in_money and hi - lo < 20 else number
    out += _y_axis(frame, _ticks(frame.y_lo, frame.y_hi, 7, whole=not in_money), fmt)
    if labels:
        out.append(
            f'<text x="{LEFT}" y="{HEIGHT - BOTTOM + 16}" fill="currentColor">'
            f"{_text(labels[0])}</text>"
        )
        out.append(
            f'<text x="{_num(LEFT + frame.plot_w)}" y="{HEIGHT - BOTTOM + 16}" text-anchor="end" '
            f'fill="currentColor">{_text(labels[-1])}</text>'
        )
    count = _text(ngettext("%(num)s game", "%(num)s games", games))
    out.append(
        f'<text x="{_num(LEFT + frame.plot_w / 2)}" y="{HEIGHT - 4}" text-anchor="middle" '
        f'fill="currentColor" fill-opacity="0.8">{count}</text>'
    )
    if len(points) > 1:
        line = " ".join(f"{_num(frame.x(i))},{_num(frame.y(float(v)))}" for i, v in points)
        colour = COLOURS[2] if final >= 0 else COLOURS[1]
        out.append(
            f'<polyline class="total" points="{line}" fill="none" stroke="{colour}" '
            f'stroke-width="2" stroke-linejoin="round"/>'
        )
        end_x, end_y = frame.x(points[-1][0]), frame.y(float(final))
        out.append(f'<circle cx="{_num(end_x)}" cy="{_num(end_y)}" r="3.5" fill="{colour}"/>')
        out.append(
            f'<text x="{_num(end_x + 8)}" y="{_num(end_y + 4)}" fill="{colour}" '
            f'font-weight="bold">{_text(shown)}</text>'
        )
    out.append("</svg>")
    return "\n".join(out)
