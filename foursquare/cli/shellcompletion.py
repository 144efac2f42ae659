"""The shell's Tab completion of the command line (``_FOURSQUARE_COMPLETE=bash_source``):
Click's, with our own bash script.

Click's bash script answers a ``file`` item by emptying the reply and letting bash
complete file names, so the names sent before it (the rule presets of ``--rules``
and ``rules``: :meth:`foursquare.cli.options.RulesSpec.shell_complete`) were dropped;
zsh and fish show both.  Our script keeps them: after names, the file (or folder)
names join them (``compgen``); alone, a ``file`` or ``dir`` item is bash's own file
completion, as in Click's script.  zsh, fish and the rest are Click's, unchanged.
"""

from __future__ import annotations

from click.shell_completion import BashComplete, add_completion_class

#: Click's bash script (click.shell_completion._SOURCE_BASH) but for ``file`` and
#: ``dir`` after names: the files join the names instead of replacing them.
BASH_SCRIPT = """\
%(complete_func)s() {
    local IFS=$'\\n'
    local response

    response=$(env COMP_WORDS="${COMP_WORDS[*]}" COMP_CWORD=$COMP_CWORD \
%(complete_var)s=bash_complete $1)

    for completion in $response; do
        IFS=',' read type value <<< "$completion"

        if [[ $type == 'file' || $type == 'dir' ]] && (( ${#COMPREPLY[@]} )); then
            # after names (the rule presets): the files join them
            if [[ $type == 'dir' ]]; then
                COMPREPLY+=($(compgen -d -- "$value"))
            else
                COMPREPLY+=($(compgen -f -- "$value"))
            fi
            compopt -o filenames
        elif [[ $type == 'dir' ]]; then
            COMPREPLY=()
            compopt -o dirnames
        elif [[ $type == 'file' ]]; then
            COMPREPLY=()
            compopt -o default
        elif [[ $type == 'plain' ]]; then
            COMPREPLY+=($value)
        fi
    done

    return 0
}

%(complete_func)s_setup() {
    complete -o nosort -F %(complete_func)s %(prog_name)s
}

%(complete_func)s_setup;
"""


class BashCompletion(BashComplete):
    """Click's bash completion with :data:`BASH_SCRIPT`: names and files together."""

    source_template = BASH_SCRIPT


def use_our_scripts() -> None:
    """Put :class:`BashCompletion` in Click's place for ``bash_source`` and
    ``bash_complete`` (call before the group runs; nothing else changes)."""
    add_completion_class(BashCompletion)
