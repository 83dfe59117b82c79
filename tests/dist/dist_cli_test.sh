#!/bin/sh
# mpirun -np RANKS gpusort dist-sort against gpusort sort of the same file: byte for byte equal
# (stable, both orders, heavy duplicates); a missing input fails on every rank and leaves nothing.
# The outputs behave as gpusort sort's: a link is followed, a mode and hard links kept, standard
# output and FIFOs written as streams, two names for one file refused, a failed keys output leaves
# the values output as it was, and a rank killed midway leaves no temporary behind.
# Usage: dist_cli_test.sh MPIEXEC RANKS GPUSORT
set -eu
MPIEXEC="$1" RANKS="$2" G="$3"
DIR="$(mktemp -d)"
trap 'rm -rf "$DIR"' EXIT
cd "$DIR"
"$G" gen -t u32 -n 300007 --dist few-unique --seed 11 -o k.u32
"$G" gen -t f64 -n 100003 --dist specials --seed 12 -o f.f64
for order in "" "--descending"; do
  "$MPIEXEC" -np "$RANKS" "$G" dist-sort k.u32 -o dist.u32 -t u32 --stable $order
  "$G" sort k.u32 -o ref.u32 -t u32 --stable $order
  cmp dist.u32 ref.u32
  "$MPIEXEC" -np "$RANKS" "$G" dist-sort f.f64 -o dist.f64 -t f64 --stable $order
  "$G" sort f.f64 -o ref.f64 -t f64 --stable $order
  cmp dist.f64 ref.f64
done
# Pairs: values travel with their keys, stably.
"$G" gen -t u32 -n 300007 --seed 13 -o v.u32
"$MPIEXEC" -np "$RANKS" "$G" dist-sort k.u32 -o dk.u32 -t u32 --stable --values v.u32 --values-type u32 --values-out dv.u32
"$G" sort k.u32 -o rk.u32 -t u32 --stable --values v.u32 --values-type u32 --values-out rv.u32
cmp dk.u32 rk.u32
cmp dv.u32 rv.u32
if "$MPIEXEC" -np "$RANKS" "$G" dist-sort missing.u32 -o never.u32 -t u32 2>err.txt; then
  echo "dist-sort of a missing input succeeded" >&2; exit 1
fi
grep -q "gpusort: error: " err.txt
test ! -e never.u32
ls -A | grep -q "gpusort-" && { echo "temporary output left behind" >&2; exit 1; }
# An output that is a directory: the rename fails on rank 0, every rank stops, nothing is left.
mkdir adir
if "$MPIEXEC" -np "$RANKS" "$G" dist-sort k.u32 -o adir -t u32 2>err.txt; then
  echo "dist-sort onto a directory succeeded" >&2; exit 1
fi
ls -A | grep -q "gpusort-" && { echo "temporary output left behind" >&2; exit 1; }
fail() { echo "$*" >&2; exit 1; }
dist() { "$MPIEXEC" -np "$RANKS" "$G" dist-sort "$@"; }
"$G" sort k.u32 -o asc.u32 -t u32 --stable
# A keys output that cannot be written: the values output keeps its old content.
cp v.u32 keptv.u32
dist k.u32 -o adir -t u32 --values v.u32 --values-type u32 --values-out keptv.u32 2>err.txt &&
  fail "dist-sort onto a directory succeeded"
cmp keptv.u32 v.u32 || fail "the values output changed although the keys output failed"
# Two names for one file: refused before any work, the file untouched.
cp k.u32 same.u32
dist k.u32 -o same.u32 -t u32 --values v.u32 --values-type u32 --values-out ./same.u32 2>err.txt &&
  fail "dist-sort with -o X --values-out ./X succeeded"
grep -q "gpusort: error: .*are the same file" err.txt || fail "no same-file error: $(cat err.txt)"
cmp same.u32 k.u32 || fail "same.u32 changed"
# A symbolic link: the file it points to gets the data, the link stays.
printf old > real.u32
ln -s real.u32 link.u32
dist k.u32 -o link.u32 -t u32 --stable
test -L link.u32 || fail "the output link was replaced by a file"
cmp real.u32 asc.u32
# An existing output keeps its mode; a hard-linked one stays linked.
cp k.u32 moded.u32
chmod 640 moded.u32
dist k.u32 -o moded.u32 -t u32 --stable
cmp moded.u32 asc.u32
test "$(stat -c %a moded.u32)" = 640 || fail "mode 640 became $(stat -c %a moded.u32)"
if [ "$(id -u)" = 0 ]; then  # only root may give a file away (and keep it given away)
  chown 65534:65534 moded.u32
  dist k.u32 -o moded.u32 -t u32 --stable
  test "$(stat -c %u:%g moded.u32)" = 65534:65534 || fail "owner 65534:65534 became $(stat -c %u:%g moded.u32)"
fi
cp k.u32 linked.u32
ln linked.u32 other-name.u32
dist k.u32 -o linked.u32 -t u32 --stable
cmp other-name.u32 asc.u32 || fail "the hard link did not get the new content"
test "$(stat -c %h linked.u32)" = 2 || fail "linked.u32 lost its hard link"
# Standard output and FIFOs are streams: rank 0 writes every rank's range in order.
dist k.u32 -o - -t u32 --stable >streamed.u32
test ! -e ./- || fail "dist-sort -o - made a file named '-'"
cmp streamed.u32 asc.u32
mkfifo fifo.u32
cat fifo.u32 >from-fifo.u32 &
reader=$!
dist k.u32 -o dk2.u32 -t u32 --stable --values v.u32 --values-type u32 --values-out fifo.u32
test -p fifo.u32 || { kill "$reader"; fail "the FIFO was replaced by a file"; }
wait "$reader"
cmp dk2.u32 rk.u32
cmp from-fifo.u32 rv.u32
ls -A | grep -q "gpusort" && fail "temporary output left behind: $(ls -A | grep gpusort)"
# A rank killed midway, rank 0 too (its own cleanup cannot run then): the temporary files exist
# from before the sort on, and the ranks mpirun stops remove them.
descendants() { for c in $(pgrep -P "$1"); do echo "$c"; descendants "$c"; done; }
"$G" gen -t u32 -n 2000000 --seed 14 -o big.u32
for victim in 0 1; do
  dist big.u32 -o killed.u32 -t u32 --values big.u32 --values-type u32 --values-out killedv.u32 2>/dev/null &
  launcher=$!
  tries=0
  until ls -A | grep -q "gpusort"; do
    tries=$((tries + 1))
    [ "$tries" -lt 600 ] || fail "no temporary output while the ranks worked"
    sleep 0.05
  done
  killed=""
  for p in $(descendants "$launcher"); do
    if tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -Eqx "(OMPI_COMM_WORLD_RANK|PMI_RANK)=$victim"; then
      kill -KILL "$p" && killed=$p
    fi
  done
  if [ -z "$killed" ]; then
    echo "no process of rank $victim found under $MPIEXEC: kill check skipped" >&2
    wait "$launcher"
    continue
  fi
  wait "$launcher" && fail "dist-sort succeeded although rank $victim was killed"
  ls -A | grep -q "gpusort" && fail "rank $victim killed: left behind $(ls -A | grep gpusort)"
  test ! -e killed.u32 && test ! -e killedv.u32 || fail "rank $victim killed: an output appeared"
done
echo "dist-sort on $RANKS ranks matches sort"
