"""The click classes every command is made of, speaking the language chosen (cli/language.py): `--lang` on
every command, help texts translated when they are shown (and wrapped in terminal cells where the language is
not English), click's refusal of a choice in the language spoken."""

from __future__ import annotations

import contextlib
import re

import click

from referee.messages import LANGUAGES, chosen_language, language, part, translations

from .language import use

msg, msg_n, word, word_of = part("cli")


def _chosen(ctx, param, value):
    if value is None:
        return
    try:
        use(chosen_language(value))
    except ValueError:
        raise click.BadParameter(
            msg("unknown language {lang}; the referee speaks {known}", lang=value, known=", ".join(LANGUAGES)).render(),
            ctx,
            param,
        ) from None


def lang_option() -> click.Option:
    return click.Option(
        ["--lang"],
        metavar="zh|en",
        expose_value=False,
        is_eager=True,
        callback=_chosen,
        help=word(
            "The language of the output: zh (简体中文) or en (default: REFEREE_LANG, else the locale, else English)."
        ),
    )


def shown(text):
    """A help text in the language spoken (as written when the catalogue has none)."""
    return translations(language(), "cli").gettext(text) if text else text


@contextlib.contextmanager
def translated(*items):
    """Commands and parameters with their help in the language spoken, while the block runs."""
    kept = [(item, item.help) for item in items]
    for item, text in kept:
        item.help = item.made().render() if isinstance(item, MadeHelp) else shown(text)
    try:
        yield
    finally:
        for item, text in kept:
            item.help = text


class MadeHelp(click.Option):
    """An option whose help is a message made when it is shown (`made()`), from parts that are no literal."""

    def __init__(self, *args, made, **kwargs):
        super().__init__(*args, help=made().render("en"), **kwargs)
        self.made = made


class Choice(click.Choice):
    """click's Choice, its refusal in the language spoken (click's own words for it take plural forms
    whose parameters differ, which a catalogue of this project cannot hold)."""

    def get_invalid_choice_message(self, value, ctx):
        if language() == "en":
            return super().get_invalid_choice_message(value, ctx)
        return msg(
            "{value} is not one of {choices}.", value=repr(value), choices=", ".join(map(repr, self.choices))
        ).render()


class Formatter(click.HelpFormatter):
    """Help wrapped in terminal cells where the language is not English: click wraps by characters at
    spaces, and a line of Chinese (two cells a character, no spaces) would run far past the width."""

    def write_text(self, text):
        if language() == "en":
            return super().write_text(text)
        lines = _wrapped(text, self.width - self.current_indent)
        self.write("".join(f"{' ' * self.current_indent * bool(line)}{line}\n" for line in lines))

    def write_heading(self, heading):
        """A section's heading ("选项："), its colon the language's (click writes ":" after it)."""
        said = msg("{heading}:", heading=heading).render()
        self.write(f"{'':>{self.current_indent}}{said}\n")

    def write_dl(self, rows, col_max=30, col_spacing=2):
        rows = list(rows)
        if language() == "en" or not rows:
            return super().write_dl(rows, col_max, col_spacing)
        first_col = min(max(len(first) for first, _ in rows), col_max) + col_spacing
        for first, second in rows:
            head = f"{' ' * self.current_indent}{first}"
            if len(first) > first_col - col_spacing:
                head += "\n" + " " * (first_col + self.current_indent)
            else:
                head += " " * (first_col - len(first))
            lines = _wrapped(second, max(self.width - first_col - 2, 10)) or [""]
            self.write(
                head
                + "".join(
                    f"{' ' * (first_col + self.current_indent) * bool(n)}{line}\n" for n, line in enumerate(lines)
                )
            )


def _wrapped(text: str, width: int) -> list[str]:
    """The lines of `text` at most `width` cells wide, its paragraphs (blank-line apart) kept apart. A line may
    break after any Chinese character, never before a closing mark (。，、）) nor after an opening one (（): as
    Chinese text is set (kinsoku); a line break of the source between two Chinese characters, or beside full-width
    punctuation, is no space."""
    from rich.cells import cell_len  # here: only a help in another language needs it

    lines: list[str] = []
    for paragraph in text.split("\n\n"):
        joined = " ".join(re.sub(_NO_SPACE, "", paragraph).split())
        line = ""
        lines += [""] if lines else []
        for unit in _units(joined):
            if line.strip() and cell_len(line + unit.rstrip()) > width:
                lines.append(line.rstrip())
                line = unit.lstrip()
            else:
                line += unit
        lines.append(line.rstrip())
    return lines


_MARKS = "\u3000-\u303f\uff00-\uffef"  # Chinese punctuation and the full-width forms
_CHINESE = f"\u2e80-\u9fff{_MARKS}"  # Chinese characters and those marks
_CJK = f"[{_CHINESE}]"
_CLOSING, _OPENING = set("。，、；：！？）》」』】"), set("（《「『【")
# no space between two Chinese characters, nor beside full-width punctuation
_NO_SPACE = rf"(?<={_CJK})\s+(?={_CJK})|(?<=[{_MARKS}])\s+|\s+(?=[{_MARKS}])"


def _units(text: str) -> list[str]:
    """What a line never breaks within: a word and the space after it, a Chinese character, a closing mark with
    what it closes, an opening mark with what it opens."""
    units: list[str] = []
    for unit in re.findall(rf"{_CJK}|[^\s{_CHINESE}]+\s?|\s", text):
        if units and (unit[0] in _CLOSING or units[-1][-1] in _OPENING):
            units[-1] += unit
        else:
            units.append(unit)
    return units


class Context(click.Context):
    formatter_class = Formatter


class Command(click.Command):
    """A command whose help is shown in the language spoken."""

    context_class = Context

    def parse_args(self, ctx, args):
        return super().parse_args(ctx, lang_first(args))

    def format_help(self, ctx, formatter):
        with translated(self, *self.get_params(ctx)):  # the help option too: made before --lang is read
            super().format_help(ctx, formatter)


def lang_first(args: list[str]) -> list[str]:
    """The arguments with --lang and its value ahead of the others: click handles --help, --version and --lang
    in the order given, so `validate --help --lang zh` would show the help before the language is chosen."""
    for index, arg in enumerate(args):
        if arg == "--":
            break
        if arg.startswith("--lang="):
            return [arg, *args[:index], *args[index + 1 :]]
        if arg == "--lang" and index + 1 < len(args):
            return [arg, args[index + 1], *args[:index], *args[index + 2 :]]
    return args
