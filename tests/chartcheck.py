"""What every chart of the package must pass, checked on the drawn figure: a title (its
question), axis labels, one legend naming every kind of marker, line, bar and band, no text
over another text, no legend over the data."""
import itertools

import numpy as np
from matplotlib.collections import Collection, LineCollection
from matplotlib.container import Container
from matplotlib.lines import Line2D
from matplotlib.patches import Patch
from matplotlib.text import Text

SLACK = 1.0
"""Pixels two boxes may share before they count as overlapping (antialiasing)."""


def check(fig) -> list[str]:
    """Every fault of the chart ``fig`` (the figure or subfigure a chart function returns),
    as lines naming it; an empty list for a chart an editor would print."""
    page = fig.get_figure(root=True)
    page.canvas.draw()
    renderer = page.canvas.get_renderer()
    faults = []
    title = page.get_suptitle().strip()
    if not title.endswith("?") and "?" not in title:
        faults.append(f"title {title!r} asks no question")
    axes = [ax for ax in page.get_axes() if ax.get_visible()]
    legends = [leg for f in _figures(page) for leg in f.legends]
    legends += [ax.get_legend() for ax in axes if ax.get_legend() is not None]
    if not legends:
        faults.append("no legend")
    keyed = {t.get_text() for leg in legends for t in leg.get_texts()}
    faults += _unlabelled_axes(fig, axes)
    faults += _unkeyed(axes, keyed)
    faults += _overlaps(_texts(page, axes), renderer)
    faults += _covered(legends, axes, renderer)
    return faults


def texts(fig) -> list[str]:
    """Every text drawn in the chart (titles, labels, ticks, legends, notes)."""
    page = fig.get_figure(root=True)
    page.canvas.draw()
    return [t.get_text() for t in _texts(page, [a for a in page.get_axes() if a.get_visible()])]


def _figures(page):
    return [page] + list(page.subfigs) + [s for f in page.subfigs for s in f.subfigs]


def _texts(page, axes) -> list[Text]:
    out = []
    for f in _figures(page):
        out += [t for t in (f._suptitle, f._supxlabel, f._supylabel) if t is not None]
        out += list(f.texts)
        for leg in f.legends:
            out += list(leg.get_texts()) + [leg.get_title()]
    for ax in axes:
        out += [ax.title, ax._left_title, ax._right_title, ax.xaxis.label, ax.yaxis.label]
        out += list(ax.texts)
        for axis in (ax.xaxis, ax.yaxis):
            lo, hi = sorted(axis.get_view_interval())
            span = (hi - lo) * 1e-9
            for tick in axis.get_major_ticks() + axis.get_minor_ticks():
                if lo - span <= tick.get_loc() <= hi + span and tick.get_visible():
                    out += [tick.label1, tick.label2]
            out.append(axis.get_offset_text())
        if ax.get_legend() is not None:
            out += list(ax.get_legend().get_texts()) + [ax.get_legend().get_title()]
    seen = set()
    return [t for t in out if t.get_visible() and t.get_text().strip()
            and not (id(t) in seen or seen.add(id(t)))]


def _unlabelled_axes(fig, axes) -> list[str]:
    """Every panel's x and y must be named: by its own label, the figure's (sup)label, a
    label on its row or column or on a panel sharing the axis, or category names on the
    ticks of any of those."""
    faults = []
    figs = _figures(fig.get_figure(root=True))
    sup_x = any(f._supxlabel is not None and f._supxlabel.get_text() for f in figs)
    sup_y = any(f._supylabel is not None and f._supylabel.get_text() for f in figs)
    for ax in axes:
        for sup, name in ((sup_x, "x"), (sup_y, "y")):
            if sup or any(_named(o, name) for o in _neighbours(ax, axes, name)):
                continue
            faults.append(f"panel {ax.get_title()!r}: {name} axis has no label")
    return faults


def _named(ax, name) -> bool:
    axis = ax.xaxis if name == "x" else ax.yaxis
    if axis.get_label_text().strip():
        return True
    labels = [t.get_text() for t in axis.get_ticklabels() if t.get_text()]
    return bool(labels) and not all(_number(s) for s in labels)


def _number(s: str) -> bool:
    try:
        float(s.replace("\N{MINUS SIGN}", "-").replace(",", ""))
        return True
    except ValueError:
        return False


def _neighbours(ax, axes, name) -> list:
    """The panel, the panels sharing its ``name`` axis, and those in its row (y) or column
    (x)."""
    shared = (ax.get_shared_x_axes() if name == "x" else ax.get_shared_y_axes())
    out = [ax] + [o for o in shared.get_siblings(ax) if o is not ax]
    spec = ax.get_subplotspec()
    for other in axes:
        o = other.get_subplotspec()
        if spec is None or o is None or o.get_gridspec() is not spec.get_gridspec():
            continue
        if (name == "y" and o.rowspan == spec.rowspan) or \
                (name == "x" and o.colspan == spec.colspan):
            out.append(other)
    return out


def _kind(artist) -> str:
    if isinstance(artist, Container):
        return type(artist).__name__
    if isinstance(artist, Line2D):
        return "line" if artist.get_marker() in (None, "None", "", " ") else "marker"
    return type(artist).__name__


def _unkeyed(axes, keyed: set) -> list[str]:
    """A labelled artist missing from the legend, or a kind of data artist (a marker, a line,
    bars, a band) none of which the legend names."""
    faults, kinds, named = [], set(), set()
    for ax in axes:
        parts = {id(c) for cont in ax.containers for c in cont.get_children()}
        artists = list(ax.containers) + [a for a in list(ax.lines) + list(ax.collections)
                                         + list(ax.patches) if id(a) not in parts]
        for a in artists:
            label = a.get_label() or ""
            kinds.add(_kind(a))
            if label.startswith("_"):
                continue
            named.add(_kind(a))
            if label not in keyed:
                faults.append(f"panel {ax.get_title()!r}: {label!r} is not in the legend")
    faults += [f"no legend entry for any {k}" for k in sorted(kinds - named)]
    return faults


def _overlaps(texts: list[Text], renderer) -> list[str]:
    boxes = [(t, t.get_window_extent(renderer)) for t in texts]
    faults = []
    for (a, ba), (b, bb) in itertools.combinations(boxes, 2):
        w = min(ba.x1, bb.x1) - max(ba.x0, bb.x0)
        h = min(ba.y1, bb.y1) - max(ba.y0, bb.y0)
        if w > SLACK and h > SLACK:
            faults.append(f"text {a.get_text()!r} overlaps {b.get_text()!r}")
    return faults


def _points(artist) -> np.ndarray:
    """Display coordinates of an artist's data (segments sampled along their length)."""
    if isinstance(artist, Line2D):
        xy = artist.get_xydata()
        return artist.get_transform().transform(xy) if len(xy) else np.empty((0, 2))
    if isinstance(artist, LineCollection):
        pts = [np.linspace(s[0], s[-1], 9) for s in artist.get_segments() if len(s)]
        return artist.get_transform().transform(np.concatenate(pts)) if pts \
            else np.empty((0, 2))
    if isinstance(artist, Collection):
        pts = [p.vertices for p in artist.get_paths()]
        return artist.get_transform().transform(np.concatenate(pts)) if pts \
            else np.empty((0, 2))
    if isinstance(artist, Patch):
        return artist.get_transform().transform(artist.get_path().vertices)
    return np.empty((0, 2))


def _covered(legends, axes, renderer) -> list[str]:
    faults = []
    for leg in legends:
        box = leg.get_window_extent(renderer)
        for ax in axes:
            for a in list(ax.lines) + list(ax.collections) + list(ax.patches):
                if a.get_label() and _is_reference(a):
                    continue
                p = _points(a)
                p = p[np.isfinite(p).all(axis=1)]
                inside = ((p[:, 0] > box.x0) & (p[:, 0] < box.x1) & (p[:, 1] > box.y0)
                          & (p[:, 1] < box.y1))
                if inside.any():
                    faults.append(f"the legend covers data of panel {ax.get_title()!r}")
                    break
    return faults


def _is_reference(a) -> bool:
    """A reference line spans its panel (axhline/axvline): a legend inside may cross it."""
    return isinstance(a, Line2D) and a.get_linestyle() == ":"
