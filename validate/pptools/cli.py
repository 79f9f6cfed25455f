"""What every tool's entry point shares: a refused input (BadInput) is one line
"<prog>: <why>" on stderr and exit 2, never a traceback."""
import sys

from .result import BadInput


def die(prog, msg, code=2):
    print(f"{prog}: {msg}", file=sys.stderr)
    sys.exit(code)


def run(prog, main, *args):
    """sys.exit(main(*args)), with BadInput as one line and exit 2."""
    try:
        rc = main(*args)
    except BadInput as e:
        die(prog, str(e))
    except KeyboardInterrupt:
        die(prog, "interrupted", 130)
    sys.exit(rc or 0)
