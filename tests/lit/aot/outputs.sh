# Where `xlac aot` writes (docs/aot.md, "Outputs"): an output replaces a
# regular file or nothing, never a FIFO, a symbolic link (nor what it points
# to), a directory, the input, or another output of the same run; and every
# output is written before any is renamed into place, so a run that fails on
# a later output leaves the earlier ones as they were.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
t=$1
rm -rf "$t" && mkdir -p "$t"
cd "$t"
cp "$here/test_graph_tfmatmul.hlo" model.hlo
hlo=model.hlo

# refused: exit status 1, a message naming the output and what is there
refused() { # EXPECTED-MESSAGE xlac-aot-arguments...
  local want=$1
  shift
  if xlac aot "$@" 2>err.txt; then
    echo "xlac aot $* succeeded" >&2
    return 1
  fi
  cat err.txt
  grep -qF "xlac aot: error: $want" err.txt
}

mkfifo fifo
echo target >target.txt
ln -s target.txt link.o
mkdir dir.o
refused "cannot write the object 'fifo': it exists and is a FIFO" $hlo -o fifo --header m.h --name m
test -p fifo
refused "cannot write the header 'fifo': it exists and is a FIFO" $hlo -o m.o --header fifo --name m
refused "cannot write the test 'fifo': it exists and is a FIFO" $hlo -o m.o --header m.h --name m --out_test=fifo
refused "cannot write the object 'link.o': it exists and is a symbolic link" $hlo -o link.o --header m.h --name m
test -L link.o && grep -qx target target.txt
refused "cannot write the header 'link.o': it exists and is a symbolic link" $hlo -o m.o --header link.o --name m
refused "cannot write the object 'dir.o': it exists and is a directory" $hlo -o dir.o --header m.h --name m
test -d dir.o
refused "cannot write the object 'dir.o/': that names a directory" $hlo -o dir.o/ --header m.h --name m
# the input, by path or by another name of it
refused "cannot write the object 'model.hlo': it is the input file" $hlo -o model.hlo --header m.h --name m
refused "cannot write the header './model.hlo': it is the input file" $hlo -o m.o --header ./model.hlo --name m
ln model.hlo hardlink.hlo
refused "cannot write the object 'hardlink.hlo': it is the input file" $hlo -o hardlink.hlo --header m.h --name m
mkdir sub
refused "cannot write the benchmark 'sub/../model.hlo': it is the input file" $hlo -o m.o --header m.h --name m \
  --out_benchmark=sub/../model.hlo
cmp -s model.hlo "$here/test_graph_tfmatmul.hlo"
# two outputs of one run, absent or present, however spelled
refused "the object 'm.o' and the header 'm.o' are the same file" $hlo -o m.o --header m.o --name m
refused "the object 'm.o' and the test './m.o' are the same file" $hlo -o m.o --header m.h --name m --out_test=./m.o
refused "the header 'sub/m.h' and the benchmark 'sub/../sub/m.h' are the same file" $hlo -o m.o --header sub/m.h \
  --name m --out_benchmark=sub/../sub/m.h
echo old >old.o
ln old.o old2.o
refused "the object 'old.o' and the metadata object 'old2.o' are the same file" $hlo -o old.o \
  --out_metadata_object=old2.o --header m.h --name m
grep -qx old old.o
# nothing was written by any of these
test ! -e m.o && test ! -e m.h && test ! -e sub/m.h
test -z "$(find . -name '.xlac-aot-*')"

# all or nothing: the test's directory does not exist, so nothing changes,
# though the object and the header come first and could be written
echo old-object >m.o
echo old-header >m.h
echo old-meta >meta.o
if xlac aot $hlo -o m.o --out_metadata_object=meta.o --header m.h --name m --out_test=nodir/m_test.c 2>err.txt; then
  exit 1
fi
cat err.txt
grep -qF "xlac aot: error: cannot write the test 'nodir/m_test.c': No such file or directory" err.txt
grep -qx old-object m.o && grep -qx old-header m.h && grep -qx old-meta meta.o
test -z "$(find . -name '.xlac-aot-*')"
# the same with the benchmark last
if xlac aot $hlo -o m.o --header m.h --name m --out_test=m_test.c --out_benchmark=nodir/b.c 2>err.txt; then
  exit 1
fi
grep -qx old-object m.o && grep -qx old-header m.h && test ! -e m_test.c

# and when everything can be written, everything is, replacing regular files
xlac aot $hlo -o m.o --out_metadata_object=meta.o --header m.h --name m --out_test=m_test.c --out_benchmark=b.c
! grep -qx old-object m.o
grep -q '^#define XLAC_AOT_M_H$' m.h
grep -q 'm_test: PASSED' m_test.c && grep -q 'm_run' b.c
nm meta.o | grep -q ' [DR] m_program'
test -z "$(find . -name '.xlac-aot-*')"
test -p fifo && test -L link.o && test -d dir.o && grep -qx target target.txt
echo "outputs: ok"
