# eventlog_events.py FILE: one line per event of a GHC eventlog, "OFFSET
# TYPE CAP" (the byte offset of its first byte, its event id, the
# capability of its block, 65535 for the global one), for tests that cut or
# damage a real eventlog at a chosen event. Intact files only.
import struct
import sys

data = open(sys.argv[1], "rb").read()
sizes = {}
pos = data.index(b"hetb") + 4
while data[pos:pos + 4] == b"etb\0":
    tid, size, dlen = struct.unpack(">HHI", data[pos + 4:pos + 12])
    pos += 12 + dlen
    (elen,) = struct.unpack(">I", data[pos:pos + 4])
    pos += 4 + elen + 4  # extension, 'ete\0'
    sizes[tid] = size
pos = data.index(b"datb", pos) + 4
cap, block_end = 65535, 0
while pos + 2 <= len(data):
    (tid,) = struct.unpack(">H", data[pos:pos + 2])
    if tid == 0xFFFF:
        break
    if block_end and pos >= block_end:
        cap, block_end = 65535, 0
    if tid == 18:
        bsize, _, cap = struct.unpack(">IQH", data[pos + 10:pos + 24])
        block_end = pos + bsize
    print(pos, tid, cap)
    size = sizes[tid]
    if tid == 169:  # IPE: declared one byte too long by GHC 9.6
        end = pos + 20
        for _ in range(6):
            end = data.index(b"\0", end) + 1
        size = end - pos - 10
    elif size == 0xFFFF:
        (size,) = struct.unpack(">H", data[pos + 10:pos + 12])
        size += 2
    pos += 10 + size
