"""Text from files and command lines as the tools show it: the one helper for
every path, kernel, model, variant, label, unit and site-file string that
reaches a terminal, a table or a figure.

show() writes each character a terminal could act on as \\xNN, as the C apps'
pp_fputs_escaped (common/src/escape.c) does: C0 controls (newline and tab
too), DEL, C1 controls, and the bytes of a file name that are not UTF-8
(Python keeps them as lone surrogates). So a hostile name can neither drive
the terminal (ESC ] 0 ; ... BEL sets its title) nor forge a line of output.
It also cuts a string longer than `limit` characters, with a mark that says
how much was left out: a name of a million characters must not become a
line, a table cell or a tick label of that length (matplotlib ran out of
memory laying one out).

cell() is show() for a Markdown table cell ("|" would end the cell);
figure() is show() for matplotlib, shorter, with "$" escaped (a pair of them
starts mathtext, which fails to parse on arbitrary text).
"""
import re

SHOW_LIMIT = 200     # the longest name the apps write is under 64 characters
FIGURE_LIMIT = 48    # tick labels and legend entries

_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\udc80-\udcff]")


def _hex(m):
    o = ord(m.group())
    return f"\\x{o - 0xdc00 if o >= 0xdc80 else o:02x}"


def show(x, limit=SHOW_LIMIT):
    """str(x) for a terminal or a report: controls as \\xNN, at most `limit`
    characters of it shown, then "...(N more characters)"."""
    s = str(x)
    more = len(s) - limit if limit and len(s) > limit else 0
    if more:
        s = s[:limit]
    s = _UNSAFE.sub(_hex, s)
    return s + f"...({more} more characters)" if more else s


def cell(x, limit=SHOW_LIMIT):
    """show() for a cell of a Markdown table."""
    return show(x, limit).replace("|", "\\|")


def figure(x, limit=FIGURE_LIMIT):
    """show() for a label, title or legend of a matplotlib figure."""
    return show(x, limit).replace("$", r"\$")


def clean(x):
    """Whether str(x) holds nothing show() would change but its length."""
    return not _UNSAFE.search(str(x))
