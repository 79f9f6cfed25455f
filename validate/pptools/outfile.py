"""Files the tools write: atomically (a temporary file in the same folder, then
os.replace: a reader sees the old file or the new one, never half of one) and
never through a symbolic link (a link at the target is refused, as is anything
there that is not a regular file: a FIFO, a device, a folder). Every failure is
a BadInput, one line."""
import json
import os
import stat
import tempfile

from .result import BadInput


def _name(path, what):
    return f"{what} {path}" if what else str(path)


def check_target(path, what=None):
    """Refuses a target that is a symbolic link, not a regular file, or in no folder."""
    name = _name(path, what)
    if not path or str(path).endswith("/"):
        raise BadInput(f"{name}: not a file name")
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        st = None
    except OSError as e:
        raise BadInput(f"{name}: {e.strerror}") from None
    if st is not None:
        if stat.S_ISLNK(st.st_mode):
            raise BadInput(f"{name}: a symbolic link; refused (the tools never write through a link)")
        if not stat.S_ISREG(st.st_mode):
            raise BadInput(f"{name}: exists and is not a regular file")
    parent = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(parent):
        raise BadInput(f"{name}: no folder {parent}")
    return parent


def write_with(path, writer, what=None, binary=False, suffix=""):
    """writer(file object) fills a temporary file that then replaces path."""
    parent = check_target(path, what)
    try:
        fd, tmp = tempfile.mkstemp(dir=parent, prefix="." + os.path.basename(path)[:100] + ".tmp-", suffix=suffix)
    except OSError as e:
        raise BadInput(f"{_name(path, what)}: cannot write in {parent}: {e.strerror}") from None
    try:
        with os.fdopen(fd, "wb" if binary else "w", **({} if binary else {"encoding": "utf-8"})) as f:
            writer(f)
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, path)
    except OSError as e:
        _unlink(tmp)
        raise BadInput(f"{_name(path, what)}: cannot write: {e.strerror}") from None
    except BaseException:
        _unlink(tmp)
        raise
    return path


def write_text(path, text, what=None):
    return write_with(path, lambda f: f.write(text), what)


def write_json(path, doc, what=None, indent=1):
    return write_with(path, lambda f: json.dump(doc, f, indent=indent), what)


def save_figure(fig, path, what=None, **kw):
    """A matplotlib figure, written as write_with writes (its format from path's extension)."""
    fmt = os.path.splitext(path)[1].lstrip(".") or "png"
    return write_with(path, lambda f: fig.savefig(f, format=fmt, **kw), what, binary=True, suffix="." + fmt)


def out_dir(path, what="--out"):
    """A folder to write in: created when missing; refused when it is something
    else (a regular file, a FIFO) or cannot be written (tried, not guessed from
    the mode bits: root writes through them, and not in /proc)."""
    name = _name(path, what)
    if os.path.lexists(path) and not os.path.isdir(path):
        raise BadInput(f"{name}: exists and is not a folder")
    try:
        os.makedirs(path, exist_ok=True)
        fd, probe = tempfile.mkstemp(dir=path, prefix=".pp-write-probe-")
        os.close(fd)
        os.unlink(probe)
    except OSError as e:
        raise BadInput(f"{name}: cannot write there: {e.strerror}") from None
    return path


def _umask():
    m = os.umask(0)
    os.umask(m)
    return m


def _unlink(p):
    try:
        os.unlink(p)
    except OSError:
        pass
