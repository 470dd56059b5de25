"""Helper of test.sh: exit 0 iff Python's pyexpat rejects the file with
XML_ERROR_INVALID_TOKEN ("not well-formed (invalid token)") at a non-ASCII
character that directly follows an ASCII name character, i.e. inside an XML
name (expat still uses the pre-Fifth-Edition name character tables).
Prints nothing."""
import sys
from xml.parsers import expat

data = open(sys.argv[1], 'rb').read()
p = expat.ParserCreate()
try:
    p.Parse(data, True)
except expat.ExpatError as e:
    i = p.ErrorByteIndex
    namechars = b'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-'
    ok = (e.code == expat.errors.codes[expat.errors.XML_ERROR_INVALID_TOKEN]
          and 0 < i < len(data)
          and data[i] >= 0x80
          and data[i - 1] in namechars)
    sys.exit(0 if ok else 1)
except Exception:
    sys.exit(2)
sys.exit(1)
