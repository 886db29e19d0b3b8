# Oracles from real parsers for tests/bench/generalize_oracles.sh (issue #35).
#   python3 oracle.py KIND            one input on stdin: exit 0 valid, 1 not
#   python3 oracle.py KIND --count F.. print how many of the files are valid
#   python3 oracle.py KIND --valid F.. print the valid files' names
# KIND: json (json.loads), ini (configparser, strict, no interpolation) or
# arith (ast.parse in eval mode, restricted to integers, + - * / and
# parentheses, unary signs included).
import ast
import configparser
import json
import sys

ARITH_NODES = (ast.Expression, ast.BinOp, ast.UnaryOp, ast.Constant, ast.Add, ast.Sub,
               ast.Mult, ast.Div, ast.UAdd, ast.USub)


def valid(kind, data):
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    try:
        if kind == "json":
            json.loads(text)
        elif kind == "ini":
            configparser.ConfigParser(interpolation=None, strict=True).read_string(text)
        elif kind == "arith":
            tree = ast.parse(text, mode="eval")
            for node in ast.walk(tree):
                if not isinstance(node, ARITH_NODES):
                    return False
                if isinstance(node, ast.Constant) and type(node.value) is not int:
                    return False
        else:
            raise SystemExit("unknown oracle " + kind)
    except (ValueError, SyntaxError, configparser.Error, RecursionError, MemoryError):
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
