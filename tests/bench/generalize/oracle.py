# Oracles from real parsers for tests/bench/generalize_oracles.sh (issue #35).
#   python3 -S -E oracle.py KIND            one input on stdin: exit 0 valid, 1 not
#   python3 -S -E oracle.py KIND --count F.. print how many of the files are valid
#   python3 -S -E oracle.py KIND --valid F.. print the valid files' names
# KIND:
#   json   json.loads, the whole input one JSON text;
#   ini    configparser (strict, no interpolation), at least one section;
#   csv    csv.reader in strict mode (RFC 4180 quoting, "," and '"'), at least
#          one record, every record with the same number of fields;
#   arith  ast.parse in eval mode, restricted to integers, + - * / and
#          parentheses, unary signs included.
# Each query of kpath generalize is a run of its own, so start-up is the
# cost: run with -S -E (no site, no environment) and import only the module
# the kind needs (about 0.3 s a run on a loaded machine, against 2.4 s through
# a pyenv shim without -S).
import sys


def valid(kind, data):
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    try:
        if kind == "json":
            import json
            json.loads(text)
        elif kind == "ini":
            import configparser
            parser = configparser.ConfigParser(interpolation=None, strict=True)
            parser.read_string(text)
            if not parser.sections():
                return False
        elif kind == "csv":
            import csv
            import io
            rows = list(csv.reader(io.StringIO(text, newline=""), strict=True))
            if not rows or any(len(r) != len(rows[0]) for r in rows):
                return False
        elif kind == "arith":
            import ast
            allowed = (ast.Expression, ast.BinOp, ast.UnaryOp, ast.Constant, ast.Add, ast.Sub,
                       ast.Mult, ast.Div, ast.UAdd, ast.USub)
            tree = ast.parse(text, mode="eval")
            for node in ast.walk(tree):
                if not isinstance(node, allowed):
                    return False
                if isinstance(node, ast.Constant) and type(node.value) is not int:
                    return False
        else:
            raise SystemExit("unknown oracle " + kind)
    except Exception:  # every parser error (ValueError, SyntaxError, csv.Error, ...)
        return False
    return True


def main():
    kind = sys.argv[1]
    if len(sys.argv) > 2 and sys.argv[2] in ("--count", "--valid"):
        n = 0
        for path in sys.argv[3:]:
            with open(path, "rb") as f:
                ok = valid(kind, f.read())
            n += ok
            if ok and sys.argv[2] == "--valid":
                print(path)
        if sys.argv[2] == "--count":
            print(n)
        return 0
    return 0 if valid(kind, sys.stdin.buffer.read()) else 1


sys.exit(main())
