"""Helper of test.sh: exit 0 iff Python's pyexpat rejects the file with
XML_ERROR_INVALID_TOKEN ("not well-formed (invalid token)") reported exactly
at an ESC byte (0x1B), i.e. at an ISO-2022-JP escape sequence.  Prints nothing."""
import sys
from xml.parsers import expat

data = open(sys.argv[1], 'rb').read()
p = expat.ParserCreate()
try:
    p.Parse(data, True)
except expat.ExpatError as e:
    ok = (e.code == expat.errors.codes[expat.errors.XML_ERROR_INVALID_TOKEN]
          and 0 <= p.ErrorByteIndex < len(data)
          and data[p.ErrorByteIndex] == 0x1B)
    sys.exit(0 if ok else 1)
except Exception:
    sys.exit(2)
sys.exit(1)
