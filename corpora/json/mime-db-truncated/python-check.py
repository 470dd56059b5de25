"""Exit 0 iff python3's json.loads rejects the (strict UTF-8) candidate with
'Unterminated string starting at', and the reported start is a '"'."""
import json
import sys

try:
    text = open(sys.argv[1], 'rb').read().decode('utf-8')
except UnicodeDecodeError as e:
    print('python: not utf-8:', e)
    sys.exit(2)
try:
    json.loads(text)
except json.JSONDecodeError as e:
    print('python:', e)
    sys.exit(0 if e.msg == 'Unterminated string starting at' and text[e.pos] == '"' else 1)
print('python: parsed')
sys.exit(1)
