"""What every tool's entry point shares: a refused input (BadInput) is one line
"<prog>: <why>" on stderr and exit 2, never a traceback; a reader that goes
away (`compare ... | head -1`) ends the tool quietly, as it ends cat or grep.
Every such line is escaped (text.show): the paths and names in it are the
user's. Parser is argparse's, with its errors escaped and one line."""
import argparse
import os
import select
import signal
import sys

from .result import BadInput
from .text import show


def die(prog, msg, code=2):
    print(f"{prog}: {show(msg, limit=4 * 1024)}", file=sys.stderr)
    sys.exit(code)


class Parser(argparse.ArgumentParser):
    """argparse's parser whose usage errors are one escaped line (exit 2):
    "unrecognized arguments: ..." would print the arguments as given."""

    def error(self, message):
        die(self.prog, f"{message} (see --help)")


def stdout_closed():
    """Whether stdout is a pipe whose reader has gone (poll reports an error on it)."""
    p = select.poll()
    p.register(sys.stdout.fileno(), 0)
    return any(ev & select.POLLERR for _, ev in p.poll(0))


def broken_pipe():
    """Our stdout's reader has closed it: end by SIGPIPE, as other Unix tools
    do (the shell sees 141), with nothing on stderr. stdout goes to /dev/null
    first so that the interpreter's flush at exit cannot fail again."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    os.kill(os.getpid(), signal.SIGPIPE)
    sys.exit(128 + signal.SIGPIPE)  # where SIGPIPE cannot end the process


def run(prog, main, *args):
    """sys.exit(main(*args)), with BadInput as one line and exit 2."""
    try:
        rc = main(*args)
        sys.stdout.flush()  # here, not at exit: a closed pipe is caught below
    except BadInput as e:
        die(prog, str(e))
    except KeyboardInterrupt:
        die(prog, "interrupted", 130)
    except BrokenPipeError:
        if not stdout_closed():
            raise  # another pipe (a child's): a real error, shown
        broken_pipe()
    sys.exit(rc or 0)
