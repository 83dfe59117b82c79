#!/bin/sh
# mpirun -np RANKS gpusort dist-sort against gpusort sort of the same file: byte for byte equal
# (stable, both orders, heavy duplicates); a missing input fails on every rank and leaves nothing.
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
ls | grep -q "never.u32.gpusort-" && { echo "temporary output left behind" >&2; exit 1; }
# An output that is a directory: the rename fails on rank 0, every rank stops, nothing is left.
mkdir adir
if "$MPIEXEC" -np "$RANKS" "$G" dist-sort k.u32 -o adir -t u32 2>err.txt; then
  echo "dist-sort onto a directory succeeded" >&2; exit 1
fi
ls | grep -q "adir.gpusort-" && { echo "temporary output left behind" >&2; exit 1; }
echo "dist-sort on $RANKS ranks matches sort"
