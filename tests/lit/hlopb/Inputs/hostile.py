"""Writes hostile HloModuleProtos into the directory given: each is a
well-formed or deliberately broken wire encoding built by hand (no
protobuf library needed), named after what is wrong with it."""
import os
import struct
import sys


def varint(v):
    v &= (1 << 64) - 1
    out = b''
    while True:
        c = v & 0x7f
        v >>= 7
        if v:
            out += bytes([c | 0x80])
        else:
            return out + bytes([c])


def field(n, v):
    if isinstance(v, int):
        return varint(n << 3) + varint(v)
    return varint(n << 3 | 2) + varint(len(v)) + v


def packed(n, vals):
    return field(n, b''.join(varint(x) for x in vals))


def shape(et=11, dims=()):  # f32 by default
    return field(2, et) + (packed(3, dims) if dims else b'')


def inst(name, opcode, id, shp, operands=(), extra=b''):
    return (field(1, name.encode()) + field(2, opcode.encode()) + field(3, shp) + field(35, id) +
            (packed(36, operands) if operands else b'') + extra)


def module(instrs, root, comps_extra=()):
    comp = field(1, b'main') + b''.join(field(2, i) for i in instrs) + field(5, 1) + field(6, root)
    return field(1, b'm') + field(3, comp) + b''.join(field(3, c) for c in comps_extra) + field(6, 1)


def p(i, id, dims=(2,)):
    return inst('p%d' % i, 'parameter', id, shape(11, dims), extra=field(9, i))


cases = {
    # an operand id that names no instruction
    'bad_operand': module([p(0, 1), inst('n', 'negate', 2, shape(11, (2,)), [9])], 2),
    # an unknown opcode: the text frontend's error, in the listing
    'bad_opcode': module([p(0, 1), inst('n', 'frobnicate', 2, shape(11, (2,)), [1])], 2),
    # a constant of 10^12 elements holding one value
    'huge_constant': module([inst('c', 'constant', 1, shape(11, (1000000, 1000000)),
                                  extra=field(8, field(1, shape(11, (1000000, 1000000))) +
                                              field(8, struct.pack('<f', 1.0))))], 1),
    # an element type XLA does not have
    'bad_element_type': module([inst('p', 'parameter', 1, shape(99, (2,)), extra=field(9, 0))], 1),
    # a reduce calling a computation the module does not have
    'missing_computation': module([p(0, 1), inst('z', 'constant', 2, shape(11),
                                                 extra=field(8, field(1, shape(11)) + field(8, struct.pack('<f', 0)))),
                                   inst('r', 'reduce', 3, shape(11), [1, 2], packed(14, [0]) + packed(38, [42]))], 3),
    # two instructions with one id
    'duplicate_id': module([p(0, 1), inst('n', 'negate', 1, shape(11, (2,)), [1])], 1),
    # names with characters HLO text has no room for, twice the same
    'odd_names': module([inst('x y"}', 'parameter', 1, shape(11, (2,)), extra=field(9, 0)),
                         inst('x y"}', 'negate', 2, shape(11, (2,)), [1])], 2),
}

# a shape nested 100000 deep (tuple of tuple of ...)
s = shape(11, (2,))
for _ in range(100000):
    s = field(2, 13) + field(4, s)
cases['deep_shape'] = module([inst('p', 'parameter', 1, s, extra=field(9, 0))], 1)

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
for name, data in cases.items():
    with open(os.path.join(out, name + '.hlo.pb'), 'wb') as f:
        f.write(data)
