"""Compare python3's json.loads value of the candidate with node's value.

argv[1]: the candidate; argv[2]: node's exact re-serialisation (node-exact.js).
Exit 0 (interesting) iff python parses the candidate, and the two values are
equal everywhere except at one or more integers N with |N| > 2**53 where node
holds exactly the nearest double of N (python keeps N exactly).
Any other difference (structure, strings, floats, key sets) -> exit 1.
"""
import json
import sys

LIMIT = 2 ** 53


def main():
    raw = open(sys.argv[1], 'rb').read()
    try:
        text = raw.decode('utf-8')
        py = json.loads(text)
    except ValueError as e:  # includes UnicodeDecodeError and JSONDecodeError
        print('python:', e)
        return 2
    with open(sys.argv[2], 'rb') as fh:
        nd = json.loads(fh.read().decode('utf-8'))
    rounded = []

    def same(a, b):
        if isinstance(a, bool) or a is None or isinstance(a, str):
            return type(a) is type(b) and a == b
        if isinstance(a, int):
            if isinstance(b, bool) or not isinstance(b, (int, float)):
                return False
            if a == b:
                return True
            if abs(a) > LIMIT and isinstance(b, int) and b == int(float(a)):
                rounded.append((a, b))
                return True
            return False
        if isinstance(a, float):
            return not isinstance(b, bool) and isinstance(b, (int, float)) and a == b
        if isinstance(a, list):
            return isinstance(b, list) and len(a) == len(b) and all(map(same, a, b))
        if isinstance(a, dict):
            return (isinstance(b, dict) and a.keys() == b.keys()
                    and all(same(a[k], b[k]) for k in a))
        return False

    if not same(py, nd):
        print('other discrepancy')
        return 3
    if not rounded:
        print('no rounded integer')
        return 4
    print('rounded:', len(rounded), 'e.g. python', rounded[0][0], 'node', rounded[0][1])
    return 0


sys.exit(main())
