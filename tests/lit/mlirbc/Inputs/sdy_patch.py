#!/usr/bin/env python3
"""sdy_patch.py v3 IN OUT REDUCTION
   sdy_patch.py text IN OUT KIND TEXT

Rewrites one Shardy attribute entry of the artifact IN and writes OUT; the
sections that record the entry's size are rewritten with it.

v3:   the first TensorSharding of version 2 (kind 15: with unreduced axes,
      summed) becomes version 3 (kind 17, which adds the reduction: 0 sum,
      1 max, 2 min; other numbers test the error).  JAX 0.10.2's Shardy
      cannot write version 3.
text: the first entry of kind KIND becomes TEXT in assembly form, as a
      Shardy without its bytecode encoding wrote its attributes.
"""
import sys


def varint(b, p):
    """MLIR's prefix varint at b[p]: (value, next position)."""
    first = b[p]
    if first & 1:
        return first >> 1, p + 1
    n = 8 if first == 0 else (first & -first).bit_length() - 1
    x = int.from_bytes(b[p + 1:p + 1 + n], "little")
    return (x if first == 0 else (x << (7 - n)) | (first >> (n + 1))), p + 1 + n


def enc(v):
    for n in range(1, 9):
        if v < 1 << (7 * n):
            return ((v << n) | (1 << (n - 1))).to_bytes(n, "little")
    return b"\0" + v.to_bytes(8, "little")


def main(mode, src, dst, args):
    data = open(src, "rb").read()
    assert data[:4] == b"ML\xefR"
    version, p = varint(data, 4)
    p = data.index(0, p) + 1
    header = data[:p]
    sections = []  # (id, alignment or None, bytes)
    while p < len(data):
        sid = data[p]
        n, p = varint(data, p + 1)
        align = None
        if sid & 0x80:
            align, p = varint(data, p)
            while p % align:
                p += 1
        sections.append([sid & 0x7F, align, data[p:p + n]])
        p += n
    sec = {s[0]: s for s in sections}
    # the string table: lengths (last string first), then the strings
    st = sec[0][2]
    n, q = varint(st, 0)
    lens = []
    for _ in range(n):
        ln, q = varint(st, q)
        lens.append(ln)
    lens.reverse()
    strings, pos = [], len(st) - sum(lens)
    for ln in lens:
        strings.append(st[pos:pos + ln - 1].decode())
        pos += ln
    # the dialects
    dl = sec[1][2]
    n, q = varint(dl, 0)
    dialects = []
    for _ in range(n):
        v, q = varint(dl, q)
        if version >= 1:
            dialects.append(strings[v >> 1])
            if v & 1:  # a version record: a section of its own
                ln, q = varint(dl, q + 1)
                q += ln
        else:
            dialects.append(strings[v])
    sdy = dialects.index("sdy")
    # the attribute entries: their dialects and sizes
    off = sec[3][2]
    na, q = varint(off, 0)
    nt, q = varint(off, q)
    groups = []  # [dialect, [[size, custom], ...]]
    for total in (na, nt):
        i = 0
        while i < total:
            d, q = varint(off, q)
            k, q = varint(off, q)
            sizes = []
            for _ in range(k):
                v, q = varint(off, q)
                sizes.append([v >> 1, v & 1])
            groups.append([d, sizes])
            i += k
    body = bytearray(sec[2][2])
    at, done = 0, False
    kind = 15 if mode == "v3" else int(args[0])
    for g, (d, sizes) in enumerate(groups):
        for e in sizes:
            if not done and d == sdy and e[1] and varint(body, at)[0] == kind:
                if mode == "v3":
                    r = int(args[0])
                    new = enc(17) + body[at + 1:at + e[0]] + enc(r * 2 if r >= 0 else -2 * r - 1)
                else:
                    new = args[1].encode() + b"\0"
                    e[1] = 0
                body[at:at + e[0]] = new
                e[0] = len(new)
                done = True
            at += e[0]
    assert done, "no such Shardy entry in the artifact"
    out = bytearray(enc(na) + enc(nt))
    for d, sizes in groups:
        out += enc(d) + enc(len(sizes))
        for size, custom in sizes:
            out += enc(size << 1 | custom)
    sec[2][2], sec[3][2] = bytes(body), bytes(out)
    res = bytearray(header)
    for sid, align, b in sections:
        res += bytes([sid | (0x80 if align else 0)]) + enc(len(b))
        if align:
            res += enc(align)
            while len(res) % align:
                res.append(0xCB)
        res += b
    open(dst, "wb").write(bytes(res))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:])
