"""The modules a result file's system record says were loaded: every modules.loaded
list in it, wherever it is (the record of each rank, and each device's). Shared by
centre_modules.sh and noroot_modules.sh, whose checks import it:
    PYTHONPATH=tests/setup python3 -B - ... <<'EOF'
    from modules_loaded import loaded
"""


def loaded(o):
    """Yields each entry of every modules.loaded list under o (a JSON value)."""
    if isinstance(o, dict):
        if isinstance(o.get("modules"), dict):
            yield from o["modules"].get("loaded") or []
        for v in o.values():
            yield from loaded(v)
    elif isinstance(o, list):
        for v in o:
            yield from loaded(v)
