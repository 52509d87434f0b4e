#!/usr/bin/env pvpython
# Opens an fdsolve .xmf with ParaView's XDMF reader and checks what ParaView sees: the time
# steps and their values, the grid's node dimensions, the point bounds, the range of a field,
# and optionally its values at every point or at probe points.
#
#   xvfb-run -a pvpython tools/paraview_check.py OUT.xmf --bounds x0 x1 y0 y1 z0 z1 \
#       [--reader xdmf3|xdmf] [--field u] [--timesteps N] [--times T...] [--time T] \
#       [--dimensions NX NY NZ] [--expect "x + 10*y + 100*z"] [--probe X Y Z VALUE]...
#       [--components N]
# A vector attribute (the flux field) is checked with --components and an --expect that is a
# tuple of expressions, one per component ("(-2 + 0*x, -3 + 0*x)"); components beyond the
# tuple (the legacy reader pads a 2D vector to 3) must be 0.
# Exits 1 when a check fails, 2 when the file cannot be read.
import argparse
import math
import os
import re
import sys

from paraview import servermanager
from paraview import simple
from paraview.vtk.util.numpy_support import vtk_to_numpy


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("xmf")
    parser.add_argument("--reader", choices=["xdmf3", "xdmf"], default="xdmf3",
                        help="xdmf3: Xdmf3ReaderS (default); xdmf: the legacy XDMF Reader")
    parser.add_argument("--field", default="u")
    parser.add_argument("--bounds", type=float, nargs=6, metavar="B",
                        help="expected x0 x1 y0 y1 z0 z1 of the points")
    parser.add_argument("--timesteps", type=int, help="expected number of time steps")
    parser.add_argument("--times", type=float, nargs="+", metavar="T",
                        help="expected time values, in order")
    parser.add_argument("--dimensions", type=int, nargs=3, metavar=("NX", "NY", "NZ"),
                        help="expected nodes per axis of the reader's structured grid (NZ 1 in 2D)")
    parser.add_argument("--time", type=float, help="time step to check (default: the first)")
    parser.add_argument("--expect", help="expression in x, y, z the field must equal at every "
                        "point (numpy syntax)")
    parser.add_argument("--probe", type=float, nargs=4, action="append", default=[],
                        metavar=("X", "Y", "Z", "VALUE"),
                        help="expected field value at a point (ProbeLocation filter)")
    parser.add_argument("--components", type=int,
                        help="expected components of the field (a Vector attribute: 2 or 3)")
    parser.add_argument("--tolerance", type=float, default=1e-5,
                        help="relative tolerance for values and bounds")
    # pvpython rewrites a single-dash argument such as "-13" into "--13" before the script sees
    # it; no option here is a number, so turn those back into negative numbers.
    argv = [re.sub(r"^--(?=[0-9])", "-", a) for a in sys.argv[1:]]
    return parser.parse_args(argv)


def close(a, b, tolerance):
    return abs(a - b) <= tolerance * max(1.0, abs(a), abs(b))


def structured_dimensions(data):
    """Nodes per axis of the (first) structured block the reader produced, or None."""
    if data is not None and data.IsA("vtkMultiBlockDataSet") and data.GetNumberOfBlocks() > 0:
        data = data.GetBlock(0)
    if data is None or not hasattr(data, "GetDimensions"):
        return None
    return tuple(data.GetDimensions())


def main():
    args = parse_args()
    if not os.path.isfile(args.xmf):
        print("error: no such file:", args.xmf)
        return 2
    if args.reader == "xdmf3":
        reader = simple.Xdmf3ReaderS(registrationName="fdsolve", FileName=[args.xmf])
    else:
        reader = simple.XDMFReader(registrationName="fdsolve", FileNames=[args.xmf])
    # ParaView gives a bare float for a single time step, a list for several.
    steps = reader.TimestepValues
    times = [steps] if isinstance(steps, (int, float)) else list(steps or [])
    time = args.time if args.time is not None else (times[0] if times else 0.0)
    reader.UpdatePipeline(time)
    dimensions = structured_dimensions(servermanager.Fetch(reader))
    # Merge in case the reader hands back a multiblock; a uniform grid is one block.
    merged = simple.MergeBlocks(Input=reader)
    merged.UpdatePipeline(time)
    data = servermanager.Fetch(merged)
    if data is None or data.GetNumberOfPoints() == 0:
        print("error: ParaView read no points from", args.xmf)
        return 2
    array = data.GetPointData().GetArray(args.field)
    if array is None:
        print("error: no point field", args.field)
        return 2

    bounds = data.GetBounds()
    components = array.GetNumberOfComponents()
    value_range = array.GetRange(-1 if components > 1 else 0)  # a vector: its magnitude
    print("reader:", args.reader)
    print("timesteps:", len(times), times)
    print("points:", data.GetNumberOfPoints(), "class:", data.GetClassName())
    print("dimensions:", dimensions)
    print("bounds: x %g %g  y %g %g  z %g %g" % bounds)
    print("range of %s at t=%g: %.9g %.9g%s" % (args.field, time, value_range[0], value_range[1],
                                               " (magnitude)" if components > 1 else ""))
    print("components of %s: %d" % (args.field, components))

    failures = []
    if args.timesteps is not None and len(times) != args.timesteps:
        failures.append("expected %d timesteps, got %d" % (args.timesteps, len(times)))
    if args.times is not None and (len(times) != len(args.times) or
                                   not all(close(a, b, args.tolerance)
                                           for a, b in zip(times, args.times))):
        failures.append("expected times %s, got %s" % (args.times, times))
    if args.dimensions is not None and dimensions != tuple(args.dimensions):
        failures.append("expected dimensions %s, got %s" % (tuple(args.dimensions), dimensions))
    if args.components is not None and components != args.components:
        failures.append("expected %d components of %s, got %d" % (args.components, args.field,
                                                                  components))
    if args.bounds is not None:
        for got, want, name in zip(bounds, args.bounds, ["x0", "x1", "y0", "y1", "z0", "z1"]):
            if not close(got, want, args.tolerance):
                failures.append("bound %s: expected %g, got %g" % (name, want, got))
    if args.expect:
        import numpy
        points = vtk_to_numpy(data.GetPoints().GetData())
        x, y, z = points[:, 0], points[:, 1], points[:, 2]
        expected = eval(args.expect, {"numpy": numpy, "np": numpy, "x": x, "y": y, "z": z})
        values = vtk_to_numpy(array)
        if values.ndim == 2:  # a vector attribute: one expression per component
            columns = list(expected) if isinstance(expected, (tuple, list)) else [expected]
            full = numpy.zeros(values.shape)
            for c, column in enumerate(columns):
                full[:, c] = column
            expected = full
            x = values
        if values.shape != x.shape:
            print("FAIL: %s has %d values for %d points" % (args.field, values.size, x.size))
            return 1
        error = numpy.max(numpy.abs(values - expected) / numpy.maximum(1.0, numpy.abs(expected)))
        print("max relative error of %s against '%s': %.3g" % (args.field, args.expect, error))
        if not error <= args.tolerance:
            failures.append("field does not match '%s' (error %g)" % (args.expect, error))
    for x, y, z, want in args.probe:
        probe = simple.ProbeLocation(Input=reader, ProbeType="Fixed Radius Point Source")
        probe.ProbeType.Center = [x, y, z]
        probe.UpdatePipeline(time)
        probed = servermanager.Fetch(probe)
        got_array = probed.GetPointData().GetArray(args.field)
        got = got_array.GetValue(0) if got_array is not None else math.nan
        # ProbeLocation gives 0 for a point outside the data; say so instead of comparing it.
        mask = probed.GetPointData().GetArray("vtkValidPointMask")
        if mask is not None and mask.GetTuple1(0) == 0:
            failures.append("probe at (%g, %g, %g) is outside the data" % (x, y, z))
            continue
        print("probe (%g, %g, %g): %s = %.9g (expected %.9g)" % (x, y, z, args.field, got, want))
        if not close(got, want, args.tolerance):
            failures.append("probe at (%g, %g, %g): expected %g, got %g" % (x, y, z, want, got))

    for failure in failures:
        print("FAIL:", failure)
    print("OK" if not failures else "FAILED")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
