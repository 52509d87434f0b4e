export DEVICE_TEST_TARGETS=fdsolve
CTEST_ARGS="-R ^none$" SKIP_IMPLICIT=1 SKIP_SANITIZERS=1 SKIP_SIZES=1 SKIP_RUN_TIMINGS=1 SKIP_MG_BENCH=1 SKIP_ANY_SIZE=1 SKIP_MEDIA=1 SKIP_BENCH=1 SKIP_SETUP=1 timeout 300 bash tools/device-test.sh > /tmp/dt.log 2>&1
F=$PWD/build-device/solver/fdsolve
B="run examples/heat_plate.yaml --backend cuda --set grid.points=[1025,513] --set time.scheme=crank-nicolson --set output.every=0 --set checkpoint.every=0 --set solve.diagnostics=false --set time.dt=2.5e-4"
for v in "1 1" "2 1" "1 2"; do set -- $v
  $F $B --set solve.multigrid.pre_smooth=$1 --set solve.multigrid.post_smooth=$2 --output /tmp/v$1$2 2>&1 | grep -E "steps,|time: set-up"
  python3 tools/heat_plate_error.py $(ls /tmp/v$1$2/*.h5 | sort | tail -1)
done > $OUT/smooth.log 2>&1
timeout 200 ncu --metrics gpu__time_duration.sum --csv --launch-skip 200 --launch-count 500 $F $B --set time.end=0.01 --output /tmp/prof > $OUT/ncu.csv 2> $OUT/ncu.err
tail -3 $OUT/ncu.err
