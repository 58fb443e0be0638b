"""The reader's Markdown (notes, a curated list's introduction) for the HTML page, made inert.

markdown-it-py parses it as CommonMark with raw HTML off (``<b>`` and ``<script>`` stay text);
the result is not HTML but a small tree of plain data::

    node = "text" | [tag, attrs, *children]     tag in ELEMENTS, attrs a dict (href, start)

which the page's script builds with ``createElement`` / ``textContent`` (and :func:`tree_html`
writes, escaped, for the static header). Only the elements in :data:`ELEMENTS` exist in it; a
link is kept only when its target is ``http(s)`` or ``mailto`` (else its text stays, unlinked),
and an image becomes a link to the picture, labelled by its alt text, since the page's
Content-Security-Policy loads nothing from the network. Headings are moved down by ``shift``
levels so that a note's ``# heading`` sits under the page's own headings.
"""

from __future__ import annotations

import re
from functools import cache
from html import escape

#: Every element a tree may hold (the page's script builds no other).
ELEMENTS = frozenset(
    "p h2 h3 h4 h5 h6 ul ol li blockquote pre code strong em a br hr".split()
)
SAFE_LINK = re.compile(r"^(?:https?://[^\s\"'<>]+|mailto:[^\s\"'<>:/]+@[^\s\"'<>]+)$", re.I)


@cache
def _parser():
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark", {"html": False})


def _inline(node, out: list) -> None:
    kind = node.type
    if kind == "text":
        if node.content:
            out.append(node.content)
    elif kind == "softbreak":
        out.append("\n")
    elif kind == "hardbreak":
        out.append(["br", {}])
    elif kind == "code_inline":
        out.append(["code", {}, node.content])
    elif kind in ("strong", "em"):
        out.append([kind, {}, *_inlines(node.children)])
    elif kind in ("link", "image"):
        href = str(node.attrs.get("href" if kind == "link" else "src") or "")
        label = _inlines(node.children) or ([href] if kind == "image" else [])
        if SAFE_LINK.match(href):
            out.append(["a", {"href": href}, *label])
        else:
            out.extend(label)
    else:  # anything else markdown-it may add: its text only
        out.extend(_inlines(node.children) if node.children else [node.content] if node.content else [])


def _inlines(nodes) -> list:
    out: list = []
    for n in nodes:
        _inline(n, out)
    merged: list = []  # adjacent texts as one string
    for x in out:
        if isinstance(x, str) and merged and isinstance(merged[-1], str):
            merged[-1] += x
        else:
            merged.append(x)
    return merged


def _block(node, shift: int) -> list:
    kind = node.type
    if kind == "inline":
        return _inlines(node.children)
    if kind == "paragraph":
        inner = [x for c in node.children for x in _block(c, shift)]
        return inner if node.hidden else [["p", {}, *inner]]  # tight list items: no <p>
    if kind == "heading":
        level = min(int(node.tag[1]) + shift, 6)
        return [[f"h{level}", {}, *[x for c in node.children for x in _block(c, shift)]]]
    if kind in ("fence", "code_block"):
        return [["pre", {}, ["code", {}, node.content]]]
    if kind == "hr":
        return [["hr", {}]]
    if kind in ("bullet_list", "ordered_list", "list_item", "blockquote"):
        tag = {"bullet_list": "ul", "ordered_list": "ol", "list_item": "li", "blockquote": "blockquote"}[kind]
        attrs = {}
        start = node.attrs.get("start")
        if kind == "ordered_list" and start not in (None, 1, "1"):
            attrs["start"] = int(start)
        return [[tag, attrs, *[x for c in node.children for x in _block(c, shift)]]]
    return [x for c in node.children for x in _block(c, shift)] if node.children else ([node.content] if node.content else [])


def markdown_tree(text: str, shift: int = 1) -> list:
    """``text`` (Markdown) as a list of nodes (see the module's docstring); a ``#`` heading
    becomes ``h{1 + shift}`` (at most h6)."""
    from markdown_it.tree import SyntaxTreeNode

    if not text.strip():
        return []
    root = SyntaxTreeNode(_parser().parse(text.replace("\r\n", "\n").replace("\r", "\n")))
    return [x for c in root.children for x in _block(c, shift)]


def tree_html(nodes: list) -> str:
    """The tree as HTML: text escaped, only :data:`ELEMENTS`, only safe ``href`` values."""
    out: list[str] = []

    def walk(node) -> None:
        if isinstance(node, str):
            out.append(escape(node, quote=False))
            return
        tag, attrs, *children = node
        if tag not in ELEMENTS:
            for c in children:
                walk(c)
            return
        open_ = tag
        if tag == "a":
            href = attrs.get("href", "")
            if not SAFE_LINK.match(href):
                for c in children:
                    walk(c)
                return
            open_ += f' href="{escape(href)}" rel="noopener noreferrer"'
        elif tag == "ol" and isinstance(attrs.get("start"), int):
            open_ += f' start="{attrs["start"]}"'
        out.append(f"<{open_}>")
        if tag not in ("br", "hr"):
            for c in children:
                walk(c)
            out.append(f"</{tag}>")

    for n in nodes:
        walk(n)
    return "".join(out)
